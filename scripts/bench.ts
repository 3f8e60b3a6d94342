/**
 * npm run bench [-- --database postgresql://...]
 *
 * Starts the service itself (node dist/src/main.js, rate limit raised so that the limiter's
 * cost is measured, not its refusals), a bare Express JSON route and the floor (the SDK's own
 * minimal server, scripts/bench-floor.ts) in the same kind of child process, drives them with
 * autocannon over loopback, and prints in one run: requests per second and p50/p99 latency for
 * tools/call get_quiz_questions in each protocol era (API key, rate limit, database), the floor
 * in each era, tools/list and the bare route; the latency of a serial client; RSS growth over
 * 100,000 requests; get_results on a quiz with 10,000 responses; and the gain of a second worker
 * process. It ends with one machine-readable `bench:` line. Loopback only; bounded in time.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { freePort, startFlags, startProcess, stopProcess } from './bench-processes';
import { openDatabase, type Database } from '../src/db/database';
import { createApiKey } from '../src/domain/api-keys';
import { createUser } from '../src/domain/users';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const START_FLAGS = startFlags(ROOT);
const FLOOR = path.join(ROOT, 'dist', 'scripts', 'bench-floor.js');
const MODERN = '2026-07-28';
const SERIAL_CALLS = 2_000;
/** Node's flags as `npm start` gives them (package.json is the one place they are set). */
const CONNECTIONS = 50;
const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 8);
// The throughput scenarios run in alternating rounds, so that a machine whose speed drifts
// (shared hosts do) slows the baseline and the service alike instead of skewing the ratio.
const ROUNDS = 5;
const ROUND_S = Math.max(2, Math.round((DURATION_S * 2) / ROUNDS));
const MEMORY_REQUESTS = Number(process.env.BENCH_MEMORY_REQUESTS ?? 100_000);
const RESPONSES = 10_000;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

function rssMb(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round((kb / 1024) * 10) / 10;
}

async function load(options: autocannon.Options, duration: number): Promise<Figures> {
  const result = await autocannon({ connections: CONNECTIONS, duration, ...options });
  return {
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

/**
 * The service's own event-loop delay (ms), from its /metrics (open to loopback): prom-client
 * samples it with monitorEventLoopDelay and starts afresh after each scrape, so a scrape just
 * before a round and one just after give that round's figures. A call spends a fraction of a
 * millisecond in the service; the rest of its latency is waiting for the loop's turn.
 */
interface LoopDelay {
  p50: number;
  p99: number;
}

async function eventLoopDelay(port: number): Promise<LoopDelay> {
  const text = await (await fetch(`http://127.0.0.1:${port}/metrics`)).text();
  const ms = (name: string) => {
    const value = new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1];
    if (value === undefined) throw new Error(`/metrics has no ${name}`);
    return Math.round(Number(value) * 1000);
  };
  return { p50: ms('nodejs_eventloop_lag_p50_seconds'), p99: ms('nodejs_eventloop_lag_p99_seconds') };
}

function mcpRequest(port: number, key: string, body: unknown): autocannon.Options {
  return {
    url: `http://127.0.0.1:${port}/api/mcp`,
    method: 'POST',
    headers: {
      authorization: `Bearer ${key}`,
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
    },
    body: JSON.stringify(body),
  };
}

/**
 * A tools/call as a client of each era sends it: a 2026-07-28 request carries the per-request
 * envelope in params._meta and its three headers; a 2025-era request carries neither.
 */
function toolCallRequest(
  era: 'legacy' | 'modern',
  url: string,
  key: string | undefined,
  name: string,
  args: Record<string, unknown>,
): autocannon.Options {
  const modern = era === 'modern';
  const envelope = {
    'io.modelcontextprotocol/protocolVersion': MODERN,
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  return {
    url,
    method: 'POST',
    headers: {
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(modern ? { 'mcp-protocol-version': MODERN, 'mcp-method': 'tools/call', 'mcp-name': name } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name, arguments: args, ...(modern ? { _meta: envelope } : {}) },
    }),
  };
}

/**
 * Unloaded latency: one request at a time over one keep-alive connection (node:http: fetch's
 * own overhead per call is larger than the service's), each timed in microseconds. Returns the
 * p50 and p99 of the calls after a warm-up.
 */
async function serialLatency(
  request: autocannon.Options,
  calls: number,
): Promise<{ p50: number; p99: number }> {
  const url = new URL(request.url);
  const body = request.body as string;
  const headers = {
    ...(request.headers as Record<string, string>),
    'content-length': String(Buffer.byteLength(body)),
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const once = () =>
    new Promise<number>((resolve, reject) => {
      const req = http.request(
        { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers, agent },
        (res) => {
          res.on('data', () => undefined);
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  for (let i = 0; i < 300; i += 1) await once();
  const micros: number[] = [];
  for (let i = 0; i < calls; i += 1) {
    const started = process.hrtime.bigint();
    const status = await once();
    micros.push(Number(process.hrtime.bigint() - started) / 1000);
    if (status !== 200) throw new Error(`serial call answered ${status}`);
  }
  agent.destroy();
  micros.sort((a, b) => a - b);
  const at = (q: number) => Math.round(micros[Math.min(micros.length - 1, Math.floor(q * micros.length))]!);
  return { p50: at(0.5), p99: at(0.99) };
}

async function call(
  port: number,
  key: string,
  name: string,
  args: Record<string, unknown>,
): Promise<{ ms: number; payload: any }> {
  const request = mcpRequest(port, key, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const started = process.hrtime.bigint();
  const res = await fetch(request.url, {
    method: 'POST',
    headers: request.headers as Record<string, string>,
    body: request.body as string,
  });
  const text = await res.text();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  const data = /^data: (.*)$/m.exec(text)?.[1];
  if (!data) throw new Error(`unexpected answer ${res.status}: ${text.slice(0, 300)}`);
  const message = JSON.parse(data);
  if (message.result?.isError) throw new Error(`${name} failed: ${message.result.content[0].text}`);
  return { ms, payload: message.result.structuredContent };
}

/** 10,000 responses inserted directly (the benchmark measures reading them, not writing). */
async function seedResponses(
  database: Database,
  quiz: { quiz_id: string; questions: Array<{ question_id: string; type: string; text: string }> },
) {
  const db = database.prisma;
  const batch = 500;
  const base = Date.now() - RESPONSES * 1000;
  for (let start = 0; start < RESPONSES; start += batch) {
    const responses = [];
    const answers = [];
    for (let i = start; i < Math.min(start + batch, RESPONSES); i += 1) {
      const id = `bench${String(i).padStart(8, '0')}`;
      const yes = i % 3 !== 0;
      const option = i % 4;
      const score = (yes ? 2 : 0) + [3, 0, 1, -1][option]!;
      responses.push({
        id,
        quizId: quiz.quiz_id,
        quizVersion: 1,
        respondentName: `Respondent ${i}`,
        score,
        maxScore: 5,
        percent: (score / 5) * 100,
        passed: score >= 3,
        submittedAt: new Date(base + i * 1000),
      });
      answers.push(
        {
          responseId: id,
          quizId: quiz.quiz_id,
          questionId: quiz.questions[0]!.question_id,
          position: 0,
          questionText: quiz.questions[0]!.text,
          type: 'yes_no',
          choice: yes ? 'yes' : 'no',
          points: yes ? 2 : 0,
          maxPoints: 2,
        },
        {
          responseId: id,
          quizId: quiz.quiz_id,
          questionId: quiz.questions[1]!.question_id,
          position: 1,
          questionText: quiz.questions[1]!.text,
          type: 'multiple_choice',
          optionIndex: option,
          optionLabel: `Option ${option}`,
          points: [3, 0, 1, -1][option]!,
          maxPoints: 3,
        },
      );
    }
    await db.response.createMany({ data: responses });
    await db.answer.createMany({ data: answers });
  }
  // Rows written behind the service's back: rebuild their running figures, as the operator would.
  await database.repos.responses.recomputeFigures(quiz.quiz_id);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Rounds of one scenario: mean req/s, median p50/p99, all errors. */
function combine(rounds: Figures[]): Figures {
  return {
    rps: Math.round(rounds.reduce((sum, f) => sum + f.rps, 0) / rounds.length),
    p50: median(rounds.map((f) => f.p50)),
    p99: median(rounds.map((f) => f.p99)),
    errors: rounds.reduce((sum, f) => sum + f.errors, 0),
  };
}

function table(rows: Array<[string, Figures]>): void {
  console.log(
    `${'scenario'.padEnd(42)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'errors'.padStart(7)}`,
  );
  for (const [name, f] of rows) {
    console.log(
      `${name.padEnd(42)} ${String(f.rps).padStart(8)} ${String(f.p50).padStart(8)} ${String(f.p99).padStart(8)} ${String(f.errors).padStart(7)}`,
    );
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  const argDb = process.argv.indexOf('--database');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-bench-'));
  const databaseUrl = argDb > 0 ? process.argv[argDb + 1]! : `file:${path.join(dir, 'bench.db')}`;
  console.log(
    `quiz-service benchmark: node ${process.version} ${START_FLAGS.join(' ')} (as npm start), ${os.cpus().length} cores, database ${databaseUrl.startsWith('file:') ? 'SQLite (embedded default)' : 'PostgreSQL'}`,
  );
  console.log(
    `${CONNECTIONS} connections; ${ROUNDS} alternating rounds of ${ROUND_S} s for the baseline, the floor and tools/call in each era, 2 workers and tools/list; loopback; the load generator shares the machine\n`,
  );

  const database = await openDatabase(databaseUrl, { migrate: true });
  const user = await createUser(database.repos, {
    email: `bench-${Date.now()}@example.com`,
    password: 'benchmark-password',
  });
  const { key } = await createApiKey(database.repos, user.id, 'bench');

  const port = await freePort();
  const serviceEnv = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_MAX: '100000000',
    LOG_LEVEL: 'info',
    SESSION_SECRET: 'bench-session-secret-bench-session-secret',
    BASE_URL: `http://127.0.0.1:${port}`,
  };

  // Baseline: a bare Express JSON route, in the same kind of child process.
  const basePort = await freePort();
  const baseline = await startProcess(
    [
      '-e',
      `const e=require(${JSON.stringify(require.resolve('express'))})();e.post('/json',require(${JSON.stringify(require.resolve('express'))}).json(),(q,r)=>r.json({ok:true,echo:q.body}));e.listen(${basePort},'127.0.0.1')`,
    ],
    {},
    basePort,
  );
  const expressRequest: autocannon.Options = {
    url: `http://127.0.0.1:${basePort}/json`,
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"jsonrpc":"2.0","id":1}',
  };

  // The floor: the SDK's minimal server, run the same way as the bare route.
  const floorPort = await freePort();
  const floor = await startProcess([FLOOR, String(floorPort)], {}, floorPort);
  const floorUrl = `http://127.0.0.1:${floorPort}/mcp`;
  const floorLegacy = toolCallRequest('legacy', floorUrl, undefined, 'echo', { text: 'hello' });
  const floorModern = toolCallRequest('modern', floorUrl, undefined, 'echo', { text: 'hello' });

  const service = await startProcess([...START_FLAGS, MAIN], serviceEnv, port);
  const quiz = (
    await call(port, key, 'create_quiz', {
      title: 'Benchmark quiz',
      questions: [
        { type: 'yes_no', text: 'Is this fast?', points: 2 },
        {
          type: 'multiple_choice',
          text: 'How fast?',
          options: [
            { label: 'Very', score: 3 },
            { label: 'Not', score: 0 },
            { label: 'Somewhat', score: 1 },
            { label: 'Slow', score: -1 },
          ],
        },
      ],
    })
  ).payload;
  await call(port, key, 'publish_quiz', { quiz_id: quiz.quiz_id });

  const getQuestions = mcpRequest(port, key, {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'get_quiz_questions', arguments: { quiz_id: quiz.quiz_id } },
  });
  const getQuestionsModern = toolCallRequest(
    'modern',
    `http://127.0.0.1:${port}/api/mcp`,
    key,
    'get_quiz_questions',
    {
      quiz_id: quiz.quiz_id,
    },
  );
  const listTools = mcpRequest(port, key, { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  // The same service with a second worker on the second core (node:cluster, WORKERS=2), on its
  // own port; idle while the others are measured.
  const clusterPort = await freePort();
  const clustered = await startProcess(
    [...START_FLAGS, MAIN],
    { ...serviceEnv, PORT: String(clusterPort), BASE_URL: `http://127.0.0.1:${clusterPort}`, WORKERS: '2' },
    clusterPort,
  );
  const getQuestionsClustered = { ...getQuestions, url: `http://127.0.0.1:${clusterPort}/api/mcp` };

  // Warm-up (JIT, pools), then the rounds: baseline, tools/call, 2 workers, tools/list, again.
  await autocannon({ ...expressRequest, connections: 10, amount: 2_000 });
  await autocannon({ ...getQuestionsClustered, connections: 10, amount: 8_000 }); // both workers
  await autocannon({ ...getQuestions, connections: 10, amount: 2_000 });
  await autocannon({ ...getQuestionsModern, connections: 10, amount: 2_000 });
  await autocannon({ ...floorLegacy, connections: 10, amount: 2_000 });
  await autocannon({ ...floorModern, connections: 10, amount: 2_000 });
  await autocannon({ ...listTools, connections: 10, amount: 1_000 });

  // Unloaded latency first, while nothing else runs.
  const serialExpress = await serialLatency(expressRequest, SERIAL_CALLS);
  const serial = await serialLatency(getQuestions, SERIAL_CALLS);
  const serialModern = await serialLatency(getQuestionsModern, SERIAL_CALLS);

  interface Round {
    express: Figures;
    floor: Figures;
    call: Figures;
    floorModern: Figures;
    modern: Figures;
    list: Figures;
    two: Figures;
    loop: LoopDelay;
  }
  const rounds: Round[] = [];
  for (let round = 0; round < ROUNDS; round += 1) {
    // Each era's tools/call runs right after its floor, in every round.
    const expressRound = await load(expressRequest, ROUND_S);
    const floorRound = await load(floorLegacy, ROUND_S);
    await eventLoopDelay(port); // starts the service's figures afresh
    const callRound = await load(getQuestions, ROUND_S);
    const loopRound = await eventLoopDelay(port);
    const floorModernRound = await load(floorModern, ROUND_S);
    const modernRound = await load(getQuestionsModern, ROUND_S);
    const twoRound = await load(getQuestionsClustered, ROUND_S);
    const listRound = await load(listTools, ROUND_S);
    rounds.push({
      express: expressRound,
      floor: floorRound,
      call: callRound,
      floorModern: floorModernRound,
      modern: modernRound,
      list: listRound,
      two: twoRound,
      loop: loopRound,
    });
    console.log(
      `round ${round + 1}: bare Express ${expressRound.rps} req/s; 2025 era: floor ${floorRound.rps}, tools/call ${callRound.rps} req/s ` +
        `(${(callRound.rps / floorRound.rps).toFixed(2)}x floor, p99 ${callRound.p99} ms); 2026-07-28: floor ${floorModernRound.rps}, ` +
        `tools/call ${modernRound.rps} req/s (${(modernRound.rps / floorModernRound.rps).toFixed(2)}x floor); tools/list ${listRound.rps} req/s; ` +
        `2 workers ${twoRound.rps} req/s (${(twoRound.rps / callRound.rps).toFixed(2)}x)`,
    );
  }
  await stopProcess(baseline);
  await stopProcess(floor);
  await stopProcess(clustered);
  const express = combine(rounds.map((r) => r.express));
  const toolsCall = combine(rounds.map((r) => r.call));
  const toolsList = combine(rounds.map((r) => r.list));
  const twoWorkers = combine(rounds.map((r) => r.two));
  const floorFigures = combine(rounds.map((r) => r.floor));
  const modern = combine(rounds.map((r) => r.modern));
  const floorModernFigures = combine(rounds.map((r) => r.floorModern));
  const medianRatio = (of: (r: Round) => number) => Math.round(median(rounds.map(of)) * 100) / 100;
  const ratio = medianRatio((r) => r.call.rps / r.express.rps);
  const modernRatio = medianRatio((r) => r.modern.rps / r.express.rps);
  const floorRatio = medianRatio((r) => r.call.rps / r.floor.rps);
  const modernFloorRatio = medianRatio((r) => r.modern.rps / r.floorModern.rps);
  // A pause in our code (GC, a synchronous query) raises p99 without raising p50.
  const tail = (f: Figures) => Math.round((f.p99 / Math.max(f.p50, 0.001)) * 100) / 100;
  const tailRatio = medianRatio((r) => r.call.p99 / Math.max(r.call.p50, 0.001));
  const floorTailRatio = medianRatio((r) => r.floor.p99 / Math.max(r.floor.p50, 0.001));
  const modernTailRatio = medianRatio((r) => r.modern.p99 / Math.max(r.modern.p50, 0.001));
  const floorModernTailRatio = medianRatio((r) => r.floorModern.p99 / Math.max(r.floorModern.p50, 0.001));
  const expressTailRatio = medianRatio((r) => r.express.p99 / Math.max(r.express.p50, 0.001));
  const scale = Math.round(median(rounds.map((r) => r.two.rps / r.call.rps)) * 100) / 100;
  const loopP50 = median(rounds.map((r) => r.loop.p50));
  const loopP99 = median(rounds.map((r) => r.loop.p99));

  // Memory: RSS after a warm-up, then after 100,000 more requests.
  // RSS saws up and down by tens of MB with each collection of a 64 MB young generation, so
  // it is sampled every 250 ms: the median of the first fifth of the run against the last.
  const samples: number[] = [];
  const sampler = setInterval(() => samples.push(rssMb(service.pid!)), 250);
  const memoryRun = await autocannon({ ...getQuestions, connections: CONNECTIONS, amount: MEMORY_REQUESTS });
  clearInterval(sampler);
  const fifth = Math.max(1, Math.floor(samples.length / 5));
  const rssBefore = median(samples.slice(0, fifth));
  const rssAfter = median(samples.slice(-fifth));

  // get_results over 10,000 responses.
  await seedResponses(database, quiz);
  await call(port, key, 'get_results', { quiz_id: quiz.quiz_id }); // warm
  const timings: number[] = [];
  let resultCount = 0;
  for (let i = 0; i < 10; i += 1) {
    const { ms, payload } = await call(port, key, 'get_results', { quiz_id: quiz.quiz_id, limit: 20 });
    timings.push(ms);
    resultCount = payload.summary.response_count;
  }
  const getResultsMs = Math.round(median(timings) * 10) / 10;
  await stopProcess(service);

  await database.close();
  if (databaseUrl.startsWith('file:')) fs.rmSync(dir, { recursive: true, force: true });

  table([
    ['bare Express JSON route (baseline)', express],
    ['floor: SDK minimal server, 2025 era', floorFigures],
    ['tools/call get_quiz_questions, 2025 era', toolsCall],
    ['floor: SDK minimal server, 2026-07-28', floorModernFigures],
    ['tools/call get_quiz_questions, 2026-07-28', modern],
    ['tools/list, 1 process', toolsList],
    ['tools/call get_quiz_questions, 2 workers', twoWorkers],
  ]);
  const growth = Math.round((rssAfter - rssBefore) * 10) / 10;
  console.log(
    `\ntools/call vs the floor (the SDK's minimal server), the median of ${ROUNDS} alternating rounds (target >= 0.8x): ` +
      `2025 era ${floorRatio}x, 2026-07-28 ${modernFloorRatio}x`,
  );
  console.log(`tools/call vs bare Express (no target): 2025 era ${ratio}x, 2026-07-28 ${modernRatio}x`);
  console.log(
    `serial client, ${SERIAL_CALLS} calls one at a time (target p99 < 2,000 us): 2025 era p50 ${serial.p50} us, p99 ${serial.p99} us; ` +
      `2026-07-28 p50 ${serialModern.p50} us, p99 ${serialModern.p99} us; the bare route p50 ${serialExpress.p50} us, p99 ${serialExpress.p99} us`,
  );
  console.log(
    `tail shape at ${CONNECTIONS} connections, p99/p50 (target: tools/call at most 1.5x its floor's): 2025 era ${tailRatio} (floor ${floorTailRatio}), ` +
      `2026-07-28 ${modernTailRatio} (floor ${floorModernTailRatio}), bare Express ${expressTailRatio}; whole-run figures ${tail(toolsCall)} / ${tail(floorFigures)}`,
  );
  console.log(
    `the service's event-loop delay during tools/call: p50 ${loopP50} ms, p99 ${loopP99} ms (a call waits this long for the loop's turn, which serves the requests ready before it)`,
  );
  console.log(
    `RSS over ${memoryRun.requests.total} requests (${memoryRun.non2xx + memoryRun.errors} errors): median ${rssBefore} MB in the first fifth, ${rssAfter} MB in the last (${growth >= 0 ? '+' : ''}${growth} MB; range ${Math.min(...samples)}-${Math.max(...samples)} MB)`,
  );
  console.log(
    `get_results over ${resultCount} responses: median ${getResultsMs} ms of 10 calls (target < 50 ms)`,
  );
  console.log(`2 workers vs 1: ${scale}x, the median of ${ROUNDS} alternating rounds (target >= 1.5x)`);
  console.log(`finished in ${Math.round((Date.now() - started) / 1000)} s\n`);
  console.log(
    `bench: tools_call_rps=${toolsCall.rps} express_rps=${express.rps} ratio=${ratio} p99_ms=${toolsCall.p99} get_results_10k_ms=${getResultsMs} rss_growth_mb=${growth} tools_list_rps=${toolsList.rps} two_workers_rps=${twoWorkers.rps} scale=${scale} express_p99_ms=${express.p99} two_workers_p99_ms=${twoWorkers.p99} service_loop_p50_ms=${loopP50} service_loop_p99_ms=${loopP99} ` +
      `modern_rps=${modern.rps} modern_ratio=${modernRatio} floor_rps=${floorFigures.rps} modern_floor_rps=${floorModernFigures.rps} floor_ratio=${floorRatio} modern_floor_ratio=${modernFloorRatio} ` +
      `serial_p99_us=${serial.p99} modern_serial_p99_us=${serialModern.p99} express_serial_p99_us=${serialExpress.p99} tail_ratio=${tailRatio} floor_tail_ratio=${floorTailRatio} express_tail_ratio=${expressTailRatio}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
