// The built service as operators run it: `node dist/src/main.js` in a child process
// (dist/ is built by Jest's globalSetup, tests/setup/build-once.ts).
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import net from 'node:net';
import path from 'node:path';

export const MAIN = path.resolve(__dirname, '..', '..', 'dist', 'src', 'main.js');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/**
 * Resolves with the first line of the child's stdout that matches (stdout must be piped). A child
 * that exits first rejects at once: a timer left waiting would keep Jest's worker alive.
 */
export function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`timed out waiting for ${pattern}; output: ${seen}`)),
      timeoutMs,
    );
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the service exited (${String(code)}) before ${pattern}; output: ${seen}`));
    });
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

/** Starts the service on a loopback port with only the given environment (plus PATH). */
export function spawnService(env: Record<string, string>, cwd: string): ChildProcess {
  return spawn(process.execPath, [MAIN], {
    cwd,
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Kills the service and waits until it is gone: a child still running (its pipes open) when a
 * test file ends keeps the Jest worker from exiting gracefully.
 */
export async function stopService(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGKILL');
  await exited;
}
