/**
 * npm run bench:import-load
 *
 * Starts the built service on loopback and measures, while nothing else runs and while a hostile
 * 10 MB bank is imported (import_questions dry run of an upload), the serving thread's
 * event-loop delay (p99 of monitorEventLoopDelay through /metrics, reset at each scrape) and the
 * p99 latency of GET /healthz and tools/call list_quizzes, one request at a time. A sample of the
 * delay is the time between two turns of a timer that fires every EVENT_LOOP_SAMPLE_MS, so the
 * delay is the p99 beyond that interval (an idle loop reads the interval itself); both are printed. Runs alternate
 * quiet and loaded, bounded in count and time; both figures are printed side by side.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort, startFlags, startProcess, stopProcess } from './bench-processes';
import { openDatabase } from '../src/db/database';
import { createApiKey } from '../src/domain/api-keys';
import { UPLOAD_BYTES_MAX, storeUpload } from '../src/domain/uploads/uploads';
import { createUser } from '../src/domain/users';
import { EVENT_LOOP_SAMPLE_MS } from '../src/http/metrics';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_MS = 6_000;

const hostile = () => {
  const unit = '::t::[html]Q <!--<a <script>1.. {=a <b ~c}\n\n';
  return new TextEncoder().encode(unit.repeat(Math.floor(UPLOAD_BYTES_MAX / unit.length)));
};

const p99 = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.99))] ?? NaN;
};

/** The loop's p99 and longest turn (ms) since the last scrape: a single long stall moves only the second. */
async function loopDelay(port: number): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const ms = (name: string) => {
    const value = new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1];
    if (value === undefined) throw new Error(`/metrics has no ${name}`);
    return Number(value) * 1000;
  };
  return { p99: ms('nodejs_eventloop_lag_p99_seconds'), max: ms('nodejs_eventloop_lag_max_seconds') };
}

function mcp(port: number, key: string, name: string, args: Record<string, unknown>) {
  return fetch(`http://127.0.0.1:${port}/api/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  }).then((res) => res.text());
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

interface Round {
  eld: number;
  longest: number;
  healthz: number[];
  list: number[];
  importMs?: number;
}

async function round(port: number, key: string, uploadId: string | null): Promise<Round> {
  await loopDelay(port); // resets the histogram
  const healthz: number[] = [];
  const list: number[] = [];
  let importing: Promise<number> | null = null;
  if (uploadId)
    importing = timed(() => mcp(port, key, 'import_questions', { upload_id: uploadId, dry_run: true }));
  const until = Date.now() + ROUND_MS;
  while (Date.now() < until) {
    healthz.push(await timed(() => fetch(`http://127.0.0.1:${port}/healthz`).then((res) => res.text())));
    list.push(await timed(() => mcp(port, key, 'list_quizzes', {})));
  }
  const { p99: eld, max: longest } = await loopDelay(port);
  return { eld, longest, healthz, list, ...(importing ? { importMs: await importing } : {}) };
}

async function main(): Promise<void> {
  const started = Date.now();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-bench-import-'));
  const databaseUrl = `file:${path.join(dir, 'bench.db')}`;
  const database = await openDatabase(databaseUrl, { migrate: true });
  const user = await createUser(database.repos, {
    email: `bench-${Date.now()}@example.com`,
    password: 'benchmark-password',
  });
  const { key } = await createApiKey(database.repos, user.id, 'bench');
  const bytes = hostile();
  const uploads: string[] = [];
  for (let i = 0; i < ROUNDS; i += 1) {
    const stored = await storeUpload({ repos: database.repos }, user.id, {
      bytes,
      contentType: 'text/plain',
      filename: 'hostile.gift',
    } as Parameters<typeof storeUpload>[2]);
    uploads.push(stored.upload_id);
  }
  await database.close();

  const port = await freePort();
  const service = await startProcess(
    [...startFlags(ROOT), MAIN],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      RATE_LIMIT_MAX: '100000000',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'bench-session-secret-bench-session-secret',
      BASE_URL: `http://127.0.0.1:${port}`,
    },
    port,
  );
  try {
    console.log(
      `import under load: ${os.cpus().length} cores, ${ROUNDS} interleaved pairs of ${ROUND_MS / 1000} s rounds, a ${(bytes.length / 1e6).toFixed(1)} MB hostile GIFT upload, loopback\n`,
    );
    const quiet: Round[] = [];
    const loaded: Round[] = [];
    for (let i = 0; i < ROUNDS; i += 1) {
      quiet.push(await round(port, key, null));
      loaded.push(await round(port, key, uploads[i]!));
    }
    const sum = (rounds: Round[]) => ({
      eld: Math.max(...rounds.map((r) => r.eld)),
      longest: Math.max(...rounds.map((r) => r.longest)),
      healthz: p99(rounds.flatMap((r) => r.healthz)),
      list: p99(rounds.flatMap((r) => r.list)),
    });
    const a = sum(quiet);
    const b = sum(loaded);
    const f = (ms: number) => `${ms.toFixed(1)} ms`.padStart(10);
    const beyond = (ms: number) => Math.max(0, ms - EVENT_LOOP_SAMPLE_MS);
    console.log(`${''.padEnd(28)}${'no import'.padStart(10)}${'import'.padStart(10)}`);
    console.log(`${`loop turn p99 (${EVENT_LOOP_SAMPLE_MS} ms timer)`.padEnd(28)}${f(a.eld)}${f(b.eld)}`);
    console.log(`${'event-loop delay p99'.padEnd(28)}${f(beyond(a.eld))}${f(beyond(b.eld))}`);
    console.log(`${'longest loop turn'.padEnd(28)}${f(a.longest)}${f(b.longest)}`);
    console.log(`${'GET /healthz p99'.padEnd(28)}${f(a.healthz)}${f(b.healthz)}`);
    console.log(`${'tools/call list_quizzes p99'.padEnd(28)}${f(a.list)}${f(b.list)}`);
    console.log(`import took ${loaded.map((r) => `${Math.round(r.importMs ?? 0)} ms`).join(', ')}`);
    const holds = beyond(b.eld) < 20 && b.healthz - a.healthz < 50 && b.list - a.list < 50;
    console.log(`goals (delay p99 < 20 ms, p99s within 50 ms): ${holds ? 'held' : 'NOT held'}`);
    console.log(
      `bench: ${JSON.stringify({ quiet: a, loaded: b, seconds: Math.round((Date.now() - started) / 1000) })}`,
    );
  } finally {
    await stopProcess(service);
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
