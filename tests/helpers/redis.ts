// Real Redis for the suites that share state between instances. Skipped visibly when no
// server answers, unless REQUIRE_REDIS=1. Each suite uses its own key prefix and removes it.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { createClient } from 'redis';
import { freePort } from './service-process';
import { eventually } from './eventually';

export const TEST_REDIS_URL = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';

let probe: { ok: boolean; reason: string } | undefined;

function probeRedisSync(): { ok: boolean; reason: string } {
  const { hostname, port } = new URL(TEST_REDIS_URL);
  const script = `
    const s = require('net').connect(${Number(port) || 6379}, ${JSON.stringify(hostname)});
    s.setTimeout(2000, () => { process.stderr.write('timeout'); process.exit(1); });
    s.on('connect', () => s.write('PING\\r\\n'));
    s.on('data', (d) => process.exit(String(d).startsWith('+PONG') ? 0 : 1));
    s.on('error', (e) => { process.stderr.write(e.message); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', timeout: 5_000 });
  return { ok: result.status === 0, reason: result.stderr.trim() || `probe exited ${result.status}` };
}

export function describeWithRedis(name: string, fn: () => void): void {
  probe ??= probeRedisSync();
  if (probe.ok) {
    describe(name, fn);
    return;
  }
  if (process.env.REQUIRE_REDIS === '1') {
    throw new Error(`REQUIRE_REDIS=1 but Redis is not reachable at ${TEST_REDIS_URL}: ${probe.reason}`);
  }
  describe.skip(
    `${name}: skipped: Redis not reachable at ${TEST_REDIS_URL}; set REQUIRE_REDIS=1 to make this suite mandatory`,
    fn,
  );
}

export type TestRedis = ReturnType<typeof createClient>;

export async function connectRedis(url = TEST_REDIS_URL): Promise<TestRedis> {
  const client = createClient({ url, disableOfflineQueue: true, socket: { reconnectStrategy: () => 200 } });
  client.on('error', () => undefined);
  await client.connect();
  return client;
}

export function uniquePrefix(): string {
  return `quiztest:${randomBytes(6).toString('hex')}:`;
}

/** Deletes every key under the prefix. */
export async function clearPrefix(client: TestRedis, prefix: string): Promise<void> {
  for await (const keys of client.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 })) {
    if (keys.length > 0) await client.del(keys);
  }
}

/** A private redis-server on a free loopback port, for fault tests that stop and restart it. */
export async function startPrivateRedis(
  port?: number,
): Promise<{ url: string; port: number; stop(): Promise<void> }> {
  const chosen = port ?? (await freePort());
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(chosen), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${chosen}`;
  await eventually(() => canConnect(chosen), { intervalMs: 100 });
  return {
    url,
    port: chosen,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) {
          resolve();
          return;
        }
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}

function canConnect(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
