/**
 * npm run bench:compare -- <other checkout> [rounds]
 *
 * This build against another one, side by side: `tools/call get_quiz_questions` (2025 era,
 * API key, SQLite) on both services, in alternating rounds of 3 s at 50 connections, each
 * round's order swapped, so that the host's drift falls on both alike. Prints each round and
 * the median of the ratios (this build / the other). The other checkout must be built
 * (`npm ci && npm run build` there); each service gets a fresh database, its user and key made
 * with its own CLI. Loopback only; bounded in time.
 */
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, startFlags, startProcess, stopProcess } from './bench-processes';

const HERE = path.resolve(__dirname, '..', '..');
const ROUND_S = 3;

interface Service {
  label: string;
  child: ChildProcess;
  call: autocannon.Options;
}

/** Starts a checkout's built service on a fresh SQLite file, with a user, a key and a quiz. */
async function start(label: string, root: string): Promise<Service> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `quiz-compare-${label}-`));
  const env = {
    DATABASE_URL: `file:${path.join(dir, 'compare.db')}`,
    SESSION_SECRET: 'compare-'.repeat(5),
    RATE_LIMIT_MAX: '100000000',
    LOG_LEVEL: 'warn',
  };
  const cli = (...args: string[]) =>
    execFileSync(process.execPath, [path.join(root, 'dist', 'src', 'cli', 'main.js'), ...args], {
      env: { PATH: process.env.PATH ?? '', ...env },
    })
      .toString()
      .trim();
  cli('users', 'create', '--email', 'compare@example.com', '--password', 'compare-password');
  const key = cli('keys', 'create', '--email', 'compare@example.com', '--name', 'compare');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = await startProcess(
    [...startFlags(root), path.join(root, 'dist', 'src', 'main.js')],
    { ...env, PORT: String(port), HOST: '127.0.0.1', BASE_URL: url },
    port,
  );
  const headers = {
    authorization: `Bearer ${key}`,
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
  };
  const rpc = (name: string, args: object) =>
    JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const created = await fetch(`${url}/api/mcp`, {
    method: 'POST',
    headers: { ...headers, accept: 'application/json' },
    body: rpc('create_quiz', {
      title: 'Comparison',
      questions: [
        { type: 'yes_no', text: 'Is the sky blue?', points: 2 },
        {
          type: 'multiple_choice',
          text: 'Capital of Italy?',
          options: [
            { label: 'Rome', score: 3 },
            { label: 'Milan', score: 0 },
          ],
        },
      ],
    }),
  }).then((res) => res.json() as Promise<{ result: { structuredContent: { quiz_id: string } } }>);
  const quizId = created.result.structuredContent.quiz_id;
  const call = {
    url: `${url}/api/mcp`,
    method: 'POST' as const,
    headers,
    body: rpc('get_quiz_questions', { quiz_id: quizId }),
  };
  return { label, child, call };
}

async function round(service: Service): Promise<number> {
  const result = await autocannon({ ...service.call, connections: 50, duration: ROUND_S });
  if (result.errors + result.non2xx > 0)
    throw new Error(`${service.label}: ${result.non2xx} non-2xx answers`);
  return result.requests.average;
}

async function main(): Promise<void> {
  const other = process.argv[2];
  const rounds = Number(process.argv[3] ?? 10);
  if (!other || !fs.existsSync(path.join(other, 'dist', 'src', 'main.js'))) {
    throw new Error('usage: npm run bench:compare -- <a built checkout of the other version> [rounds]');
  }
  const mine = await start('this', HERE);
  const theirs = await start('other', path.resolve(other));
  try {
    // Warm-up until both have compiled their hot paths: the first rounds otherwise favour
    // whichever happened to warm up faster.
    for (const service of [mine, theirs, mine, theirs]) await round(service);
    const ratios: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      const order = i % 2 === 0 ? [mine, theirs] : [theirs, mine];
      const rps = new Map<Service, number>();
      for (const service of order) rps.set(service, await round(service));
      ratios.push(rps.get(mine)! / rps.get(theirs)!);
      console.log(
        `round ${i + 1}: this ${Math.round(rps.get(mine)!)} req/s, other ${Math.round(rps.get(theirs)!)} req/s, ratio ${ratios[i]!.toFixed(3)}`,
      );
    }
    const sorted = [...ratios].sort((a, b) => a - b);
    console.log(
      `this build / the other, tools/call get_quiz_questions: median ${sorted[Math.floor(sorted.length / 2)]!.toFixed(3)} of ${rounds} rounds (range ${sorted[0]!.toFixed(3)}-${sorted[sorted.length - 1]!.toFixed(3)})`,
    );
  } finally {
    await stopProcess(mine.child);
    await stopProcess(theirs.child);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
