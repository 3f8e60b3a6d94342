// Graceful shutdown of the real process (`node dist/src/main.js`, built by globalSetup):
// with no drain period, SIGTERM stops accepting at once, lets a request in flight finish, closes
// its pools and exits 0 (tests/ops/drain.test.ts covers the drain under load).
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { freePort, spawnService, waitForLine } from '../helpers/service-process';

describe('SIGTERM', () => {
  test('a request in flight completes, new connections are refused, the process exits 0', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-shutdown-'));
    const port = await freePort();
    const child = spawnService(
      {
        PORT: String(port),
        DATABASE_URL: `file:${dir}/quiz.db`,
        LOG_LEVEL: 'info',
        SHUTDOWN_DRAIN_MS: '0',
        SHUTDOWN_TIMEOUT_MS: '10000',
      },
      dir,
    );
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      await waitForLine(child, /quiz service listening/);

      // A request whose body is still arriving when SIGTERM comes: it must still be answered.
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.request(
          {
            host: '127.0.0.1',
            port,
            path: '/api/mcp',
            method: 'POST',
            headers: { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) },
          },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
          },
        );
        req.on('error', reject);
        req.write(body.slice(0, 10));
        // Headers and the first bytes now; the rest well after SIGTERM (generous, for a loaded machine).
        setTimeout(() => req.end(body.slice(10)), 2_000);
      });
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      child.kill('SIGTERM');
      await new Promise((resolve) => setTimeout(resolve, 200));

      // No new connections once shutting down.
      const refused = await new Promise<boolean>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        socket.once('connect', () => {
          socket.destroy();
          resolve(false);
        });
        socket.once('error', () => resolve(true));
      });
      expect(refused).toBe(true);

      const finished = await answer;
      expect(finished.status).toBe(401); // answered properly (no credential), not cut off
      expect(JSON.parse(finished.text).error).toBe('invalid_token');
      expect(await exited).toBe(0);
    } finally {
      child.kill('SIGKILL');
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
