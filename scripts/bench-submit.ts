/**
 * npm run bench:submit [-- --postgres postgresql://...]
 *
 * Submissions of a 20-question quiz (alternating yes_no and four-option multiple_choice, as the
 * results budget fixture) through the JSON route, with rate and submission limits raised, at 1
 * and 50 connections, beside two references in the same alternating rounds: the reference
 * write (scripts/bench-write-floor.ts: bare Express 5 + better-sqlite3 prepared statements, 1
 * response row, 20 answer rows, 20 aggregate upserts in one transaction) and tools/call
 * get_quiz_questions on the same service. SQLite always; PostgreSQL too when a URL is given.
 * Loopback only; bounded in time (about a minute per database).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, startFlags, startProcess, stopProcess } from './bench-processes';
import { openDatabase } from '../src/db/database';
import { createApiKey } from '../src/domain/api-keys';
import { createUser } from '../src/domain/users';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const WRITE_FLOOR = path.join(ROOT, 'dist', 'scripts', 'bench-write-floor.js');
const START_FLAGS = startFlags(ROOT);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const ROUND_S = Number(process.env.BENCH_ROUND_S ?? 3);

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Responses by status code other than 2xx, e.g. {"429": 120}. */
  refused: Record<string, number>;
}

async function load(options: autocannon.Options, connections: number): Promise<Figures> {
  const result = await autocannon({ connections, duration: ROUND_S, ...options });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
    refused: Object.fromEntries(
      Object.entries(result.statusCodeStats ?? {})
        .filter(([code]) => !code.startsWith('2'))
        .map(([code, stats]) => [code, stats.count ?? 0]),
    ),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

function quizInput() {
  return {
    title: `Submission bench ${Date.now()}`,
    settings: { collect_name: true },
    questions: Array.from({ length: 20 }, (_, index) =>
      index % 2 === 0
        ? {
            type: 'yes_no',
            text: `Question ${index + 1}: is this statement about the topic true?`,
            points: 1,
          }
        : {
            type: 'multiple_choice',
            text: `Question ${index + 1}: which of these answers fits the topic best?`,
            options: [
              { label: 'The first possible answer', score: 2 },
              { label: 'The second possible answer', score: 0 },
              { label: 'The third possible answer', score: 1 },
              { label: 'The fourth possible answer', score: 0 },
            ],
          },
    ),
  };
}

async function tool(port: number, key: string, name: string, args: Record<string, unknown>) {
  const res = await fetch(`http://127.0.0.1:${port}/api/mcp`, {
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } }),
  });
  const text = await res.text();
  const data = /^data: (.*)$/m.exec(text)?.[1] ?? text;
  const message = JSON.parse(data);
  if (message.result?.isError || !message.result) throw new Error(`${name} failed: ${text.slice(0, 300)}`);
  return message.result.structuredContent;
}

async function benchDatabase(label: string, databaseUrl: string, floorFile: string) {
  const database = await openDatabase(databaseUrl, { migrate: true });
  const user = await createUser(database.repos, {
    email: `bench-${Date.now()}@example.com`,
    password: 'benchmark-password',
  });
  const { key } = await createApiKey(database.repos, user.id, 'bench');
  await database.close();

  const port = await freePort();
  // BENCH_PROFILE_DIR=dir writes the service's CPU profile there (docs/performance.md reads one).
  const profile = process.env.BENCH_PROFILE_DIR
    ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
    : [];
  const service = await startProcess(
    [...START_FLAGS, ...profile, MAIN],
    {
      PORT: String(port),
      HOST: '127.0.0.1',
      DATABASE_URL: databaseUrl,
      RATE_LIMIT_MAX: '100000000',
      SUBMISSIONS_PER_MINUTE: '100000000',
      // Every submission comes from loopback: the per-address limit would refuse most of them.
      SUBMISSIONS_PER_ADDRESS_PER_MINUTE: '100000000',
      // The refusals' limiter counts a submission until its response has gone out successfully:
      // with more than 30 in flight (PostgreSQL at 50 connections) the rest were refused with 429
      // and, counted as refusals, locked the bench out for the minute.
      SUBMISSION_REFUSALS_PER_MINUTE: '100000000',
      LOG_LEVEL: 'warn',
      SESSION_SECRET: 'bench-session-secret-bench-session-secret',
      BASE_URL: `http://127.0.0.1:${port}`,
    },
    port,
  );
  const floorPort = await freePort();
  const floor = await startProcess([WRITE_FLOOR, String(floorPort), floorFile], {}, floorPort);

  const quiz = await tool(port, key, 'create_quiz', quizInput());
  await tool(port, key, 'publish_quiz', { quiz_id: quiz.quiz_id });
  const body = JSON.stringify({
    respondent: { name: 'Bench' },
    answers: (quiz.questions as Array<{ question_id: string }>).map((q, index) =>
      index % 2 === 0
        ? { question_id: q.question_id, answer: 'yes' }
        : { question_id: q.question_id, option_index: 0 },
    ),
  });
  const submit = (target: number): autocannon.Options => ({
    url: `http://127.0.0.1:${target}/api/quizzes/${quiz.slug}/responses`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const toolCall: autocannon.Options = {
    url: `http://127.0.0.1:${port}/api/mcp`,
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_quiz_questions', arguments: { quiz_id: quiz.quiz_id } },
    }),
  };
  // Warm-up: JIT and caches, then the rounds, each scenario in turn.
  await autocannon({ ...submit(port), connections: 10, amount: 500 });
  await autocannon({ ...submit(floorPort), connections: 10, amount: 500 });
  await autocannon({ ...toolCall, connections: 10, amount: 500 });
  const rounds: Array<Record<string, Figures>> = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    const figures = {
      reference50: await load(submit(floorPort), 50),
      submit50: await load(submit(port), 50),
      call50: await load(toolCall, 50),
      submit1: await load(submit(port), 1),
      reference1: await load(submit(floorPort), 1),
    };
    rounds.push(figures);
    console.log(
      `${label} round ${round + 1}: submissions at 50 connections ${figures.submit50.rps}/s (p50 ${figures.submit50.p50} ms, ` +
        `p99 ${figures.submit50.p99} ms), reference write ${figures.reference50.rps}/s, tools/call ${figures.call50.rps}/s; ` +
        `1 connection: submissions ${figures.submit1.rps}/s, reference ${figures.reference1.rps}/s`,
    );
  }
  await stopProcess(service);
  await stopProcess(floor);
  const errors = rounds.reduce((sum, r) => sum + Object.values(r).reduce((s, f) => s + f.errors, 0), 0);
  // An error is a finding, not a figure: say what the refused requests were answered.
  const refused: Record<string, number> = {};
  for (const figures of rounds.flatMap((r) => Object.values(r)))
    for (const [code, count] of Object.entries(figures.refused)) refused[code] = (refused[code] ?? 0) + count;
  const of = (name: string) => median(rounds.map((r) => r[name]!.rps));
  const ratio = (a: string, b: string) => median(rounds.map((r) => r[a]!.rps / r[b]!.rps)).toFixed(2);
  console.log(
    `${label}: submissions ${of('submit50')}/s at 50 connections (median p50 ${median(rounds.map((r) => r.submit50!.p50))} ms), ` +
      `${of('submit1')}/s at 1; vs the reference write ${ratio('submit50', 'reference50')}x (target >= 0.5), ` +
      `vs tools/call ${ratio('submit50', 'call50')}x (target >= 0.3); errors ${errors}` +
      (Object.keys(refused).length > 0 ? ` (by status: ${JSON.stringify(refused)})` : '') +
      '\n',
  );
  return {
    submit50: of('submit50'),
    submit1: of('submit1'),
    reference: ratio('submit50', 'reference50'),
    call: ratio('submit50', 'call50'),
  };
}

async function main(): Promise<void> {
  const argPg = process.argv.indexOf('--postgres');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-bench-submit-'));
  console.log(
    `submission benchmark: node ${process.version}, ${os.cpus().length} cores, ${ROUNDS} alternating rounds of ${ROUND_S} s; loopback; the load generator shares the machine\n`,
  );
  try {
    const sqlite = await benchDatabase(
      'SQLite',
      `file:${path.join(dir, 'bench.db')}`,
      path.join(dir, 'reference.db'),
    );
    const results: Record<string, unknown> = { sqlite };
    if (argPg > 0) {
      results.postgresql = await benchDatabase(
        'PostgreSQL',
        process.argv[argPg + 1]!,
        path.join(dir, 'reference-pg.db'),
      );
    }
    console.log(`bench-submit: ${JSON.stringify(results)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((error) => {
  console.error(error);
  process.exit(1);
});
