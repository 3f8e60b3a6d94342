// A submission is one transaction: the attempt's claim, the response, its answers, the running
// figures and the outbox rows. The real service, killed right after the claim
// (TEST_CRASH_AFTER_CLAIM, NODE_ENV=test only), then started again, has lost nothing: the
// student sends the attempt again and it is stored, or nobody does and the saved answers are
// submitted at time-up; each attempt is counted once. Both databases; the clock moved, not waited.
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import request from 'supertest';
import { sweepTimeUps } from '../../src/domain/taking/saved-answers';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { freePort, spawnService, stopService, waitForLine } from '../helpers/service-process';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const SECRET = 'crash-test-secret-shared-by-both-processes-0123';
const MINUTE = 60_000;

describeEachDatabase('a process killed between the claim and the write', (provider) => {
  let database: TestDatabase;
  let app: TestApp;
  let client: AnyClient;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    // In this process: the teacher's side (MCP), the attempts' start and saves, the time-up sweep.
    app = await startTestApp({
      database: { ...database, drop: async () => undefined },
      config: { sessionSecret: SECRET },
    });
    client = await connectClient(app, (await createTestUser(app, 'crash')).apiKey);
  });
  afterAll(async () => {
    for (const child of children) await stopService(child);
    await client.close();
    await app.close();
    await database.drop();
  });

  /** The built service on the same database and secret; with `crash`, it dies after a claim. */
  async function service(crash: boolean) {
    const port = await freePort();
    const child = spawnService(
      {
        NODE_ENV: 'test',
        PORT: String(port),
        DATABASE_URL: database.url,
        SESSION_SECRET: SECRET,
        LOG_LEVEL: 'info',
        ...(crash ? { TEST_CRASH_AFTER_CLAIM: '1' } : {}),
      },
      process.cwd(),
    );
    children.push(child);
    await waitForLine(child, /quiz service listening/, 30_000);
    return { child, url: `http://127.0.0.1:${port}` };
  }

  test('the attempt is sent again and stored, or submitted at time-up; each counted once', async () => {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Crash mid-submission',
        questions: [
          { type: 'yes_no', text: 'Is the Sun a star?', points: 2 },
          { type: 'yes_no', text: 'Is ice cold?', points: 3 },
        ],
        settings: { time_limit_minutes: 5, collect_name: true },
      }),
    ) as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    const [q1, q2] = quiz.questions;
    const start = async () => {
      const res = await request(app.app).post(`/q/${quiz.slug}/start`).type('form').send({});
      expect(res.status).toBe(303);
      return new URL(res.headers.location!, 'http://x').searchParams.get('attempt')!;
    };
    const form = (token: string, name: string) => ({
      attempt_token: token,
      name,
      [`q_${q1!.question_id}`]: 'yes',
      [`q_${q2!.question_id}`]: 'yes',
    });
    const ada = await start();
    const bo = await start();
    // Bo's answers are saved as Bo goes: the time-up sweep would send them.
    await request(app.app).post(`/q/${quiz.slug}/save`).type('form').send(form(bo, 'Bo')).expect(200);

    // Each student's post reaches a service that dies inside the submission.
    for (const [token, name] of [
      [ada, 'Ada'],
      [bo, 'Bo'],
    ] as const) {
      const { child, url } = await service(true);
      const exited = once(child, 'exit');
      const posted = await request(url)
        .post(`/q/${quiz.slug}`)
        .type('form')
        .send(form(token, name))
        .then(
          (res) => res.status,
          (error: Error) => error.message,
        );
      expect(posted).toMatch(/socket hang up|ECONNRESET/);
      expect(await exited).toEqual([null, 'SIGKILL']);
    }
    const results = async () => payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
    expect((await results()).summary.response_count).toBe(0);

    // Started again: Ada sends the same attempt again, and it is stored.
    const { url } = await service(false);
    const again = await request(url).post(`/q/${quiz.slug}`).type('form').send(form(ada, 'Ada'));
    expect(again.status).toBe(303);
    expect(again.headers.location).toMatch(new RegExp(`^/q/${quiz.slug}/r/`));
    // Once: the attempt is spent now.
    const third = await request(url).post(`/q/${quiz.slug}`).type('form').send(form(ada, 'Ada'));
    expect(third.status).toBe(409);

    // Bo never comes back: at time-up the sweep submits Bo's saved answers, once.
    const later = new Date(Date.now() + 5 * MINUTE + MINUTE);
    expect((await sweepTimeUps(app.deps, later)).submitted).toBe(1);
    expect((await sweepTimeUps(app.deps, later)).submitted).toBe(0);

    const stored = await results();
    expect(stored.summary).toMatchObject({ response_count: 2, average_score: 5, highest_score: 5 });
    expect(
      stored.responses.map((r: any) => [r.respondent?.name, r.score, r.time_up === true]).sort(),
    ).toEqual([
      ['Ada', 5, false],
      ['Bo', 5, true],
    ]);
    const attempts = await database.prisma.attempt.findMany({ where: { quizId: quiz.quiz_id } });
    expect(attempts.map((a) => a.responseId).sort()).toEqual(
      stored.responses.map((r: any) => r.response_id).sort(),
    );
    // The running figures equal a recomputation from the rows: nothing counted twice.
    const figures = await database.writes.figures(quiz.quiz_id);
    expect(figures.scores.reduce((sum, row) => sum + Number(row.count), 0)).toBe(2);
    await database.writes.recompute(quiz.quiz_id);
    expect(await database.writes.figures(quiz.quiz_id)).toEqual(figures);
  }, 120_000);
});
