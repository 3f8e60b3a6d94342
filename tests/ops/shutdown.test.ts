// Graceful shutdown of the real process (`node dist/src/main.js`, built by globalSetup):
// on SIGTERM it stops accepting, lets a request in flight finish, closes its pools and exits 0.
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${pattern}; output: ${seen}`)),
      timeoutMs,
    );
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      const line = seen.split('\n').find((l) => pattern.test(l));
      if (line) {
        clearTimeout(timer);
        resolve(line);
      }
    });
  });
}

describe('SIGTERM', () => {
  test('a request in flight completes, new connections are refused, the process exits 0', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-shutdown-'));
    const port = await freePort();
    const child = spawn(process.execPath, [path.join(ROOT, 'dist/src/main.js')], {
      cwd: dir,
      env: {
        PATH: process.env.PATH,
        PORT: String(port),
        HOST: '127.0.0.1',
        DATABASE_URL: `file:${dir}/quiz.db`,
        LOG_LEVEL: 'info',
        SHUTDOWN_GRACE_MS: '10000',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
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
