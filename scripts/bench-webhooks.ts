/**
 * npm run bench:webhooks [-- --database postgresql://...]
 *
 * What webhooks cost the submission path: JSON submissions per second (autocannon, loopback,
 * in one process with the app) on a quiz whose owner has no endpoint, then with one endpoint
 * subscribed to response.submitted and the delivery worker sending to a loopback receiver.
 * Alternating rounds, so a machine whose speed drifts slows both alike. Prints a table and one
 * machine-readable `bench:` line. Bounded in time; nothing asserted.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import fs from 'node:fs';
import autocannon from 'autocannon';
import { createApp, webhookWorkerOf } from '../src/app';
import { testConfig } from '../src/config';
import { openDatabase } from '../src/db/database';
import { createQuiz } from '../src/domain/quizzes/create-quiz';
import { publishQuiz } from '../src/domain/quizzes/publish-quiz';
import { createUser } from '../src/domain/users';
import { createEndpoint } from '../src/domain/webhooks/endpoints';
import { sealingKey } from '../src/domain/webhooks/secrets';
import { createLogger } from '../src/logger';

const ROUNDS = 4;
const ROUND_S = Number(process.env.BENCH_ROUND_S ?? 4);

async function listen(server: http.Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

async function main(): Promise<void> {
  const argIndex = process.argv.indexOf('--database');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-webhooks-'));
  const url = argIndex > 0 ? process.argv[argIndex + 1]! : `file:${path.join(dir, 'bench.db')}`;
  const database = await openDatabase(url);
  let received = 0;
  const ids = new Set<string>();
  const receiver = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      ids.add(String(req.headers['webhook-id']));
      res.writeHead(204).end();
    });
  });
  const receiverPort = await listen(receiver);
  const server = http.createServer();
  const port = await listen(server);
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = testConfig({
    baseUrl,
    port,
    allowedHosts: [`127.0.0.1:${port}`],
    submissionsPerMinute: 1_000_000_000,
    webhooks: { allowLoopback: true, secretKey: undefined },
  });
  const app = createApp({ config, database, logger: createLogger('silent') });
  server.on('request', app);
  const deps = { repos: database.repos, baseUrl };

  const quizFor = async (label: string) => {
    const user = await createUser(database.repos, {
      email: `${label}-${Date.now()}@example.com`,
      password: 'bench password 1',
    });
    const quiz = await createQuiz(deps, user.id, {
      title: `Bench ${label}`,
      questions: [
        { type: 'yes_no', text: 'Yes?', points: 1 },
        {
          type: 'multiple_choice',
          text: 'Pick',
          options: [
            { label: 'A', score: 1 },
            { label: 'B', score: 0 },
          ],
        },
      ],
    } as never);
    await publishQuiz(deps, user.id, quiz.quiz_id);
    const questions = (await database.repos.quizzes.bySlug(quiz.slug))!.questions;
    const body = JSON.stringify({
      respondent: { name: 'Bench' },
      answers: [
        { question_id: questions[0]!.id, answer: 'yes' },
        { question_id: questions[1]!.id, option_index: 0 },
      ],
    });
    return { user, slug: quiz.slug, body };
  };
  const plain = await quizFor('plain');
  const hooked = await quizFor('hooked');
  await createEndpoint(
    database.repos,
    { sealingKey: sealingKey(undefined, config.sessionSecret), allowLoopback: true },
    hooked.user.id,
    { url: `http://127.0.0.1:${receiverPort}/hook`, events: ['response.submitted'], quizIds: null },
  );
  webhookWorkerOf(app).start(200);

  const run = async (target: { slug: string; body: string }) => {
    const result = await autocannon({
      url: `${baseUrl}/api/quizzes/${target.slug}/responses`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: target.body,
      connections: 10,
      duration: ROUND_S,
    });
    if (result.non2xx > 0) throw new Error(`${result.non2xx} submissions were refused`);
    return { rps: result.requests.average, p99: result.latency.p99, total: result.requests.total };
  };
  type Round = { rps: number; p99: number; total: number };
  const figures: { plain: Round[]; hooked: Round[] } = { plain: [], hooked: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    figures.plain.push(await run(plain));
    figures.hooked.push(await run(hooked));
  }
  const deadline = Date.now() + 60_000;
  // Every event written (autocannon's totals leave out answers that came after a round's end),
  // counted once the last submissions in flight have had time to land.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const sent = await database.prisma.webhookDelivery.count();
  while (ids.size < sent && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
  await webhookWorkerOf(app).stop();
  const mean = (list: Array<{ rps: number; p99: number }>, key: 'rps' | 'p99') =>
    list.reduce((sum, f) => sum + f[key], 0) / list.length;
  const rows = [
    ['no endpoint', mean(figures.plain, 'rps'), mean(figures.plain, 'p99')],
    ['one endpoint subscribed', mean(figures.hooked, 'rps'), mean(figures.hooked, 'p99')],
  ] as const;
  process.stdout.write(
    `database: ${database.provider}; ${ROUNDS} alternating rounds of ${ROUND_S} s, 10 connections\n`,
  );
  for (const [label, rps, p99] of rows) {
    process.stdout.write(
      `${label.padEnd(26)} ${rps.toFixed(0).padStart(6)} submissions/s   p99 ${p99.toFixed(1)} ms\n`,
    );
  }
  const ratio = rows[1][1] / rows[0][1];
  process.stdout.write(
    `with one endpoint: ${(ratio * 100).toFixed(0)}% of the throughput; ${ids.size} of ${sent} events delivered, ${received - ids.size} twice\n`,
  );
  process.stdout.write(
    `bench: ${JSON.stringify({ database: database.provider, plainRps: Math.round(rows[0][1]), hookedRps: Math.round(rows[1][1]), ratio: Number(ratio.toFixed(2)), delivered: ids.size, sent, duplicates: received - ids.size })}\n`,
  );
  server.closeAllConnections();
  server.close();
  receiver.closeAllConnections();
  receiver.close();
  await database.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
