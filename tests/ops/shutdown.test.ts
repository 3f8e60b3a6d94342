// Graceful shutdown of the real process (`node dist/src/main.js`, built by globalSetup):
// with no drain period, SIGTERM stops accepting at once, lets a request in flight finish, closes
// its pools and exits 0 (tests/ops/drain.test.ts covers the drain under load).
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../helpers/eventually';
import { freePort, spawnService, stopService, waitForLine } from '../helpers/service-process';

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
      // `Expect: 100-continue`: the server says when it has read the request's head, so the
      // signal comes while the request is known to be in flight, with no guess at a delay.
      const req = http.request({
        host: '127.0.0.1',
        port,
        path: '/api/mcp',
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': Buffer.byteLength(body),
          Expect: '100-continue',
        },
      });
      const answer = new Promise<{ status: number; text: string }>((resolve, reject) => {
        req.on('response', (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
      });
      await new Promise<void>((resolve) => req.once('continue', () => resolve()));
      req.write(body.slice(0, 10));
      const shuttingDown = waitForLine(child, /shutting down/);
      child.kill('SIGTERM');
      await shuttingDown;

      // No new connections once shutting down (the listener closes as soon as the signal is handled).
      const connectionRefused = () =>
        new Promise<boolean>((resolve) => {
          const socket = net.connect(port, '127.0.0.1');
          socket.once('connect', () => {
            socket.destroy();
            resolve(false);
          });
          socket.once('error', () => resolve(true));
        });
      const refused = await eventually(connectionRefused, { timeoutMs: 2_000 });
      expect(refused).toBe(true);
      // The rest of the body only now, well after SIGTERM.
      req.end(body.slice(10));

      const finished = await answer;
      expect(finished.status).toBe(401); // answered properly (no credential), not cut off
      expect(JSON.parse(finished.text).error).toBe('invalid_token');
      expect(await exited).toBe(0);
    } finally {
      await stopService(child);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
