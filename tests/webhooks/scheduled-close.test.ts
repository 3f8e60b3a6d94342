// quiz.closed at a quiz's closing time: two instances on one database both run the job once the
// clock passes closes_at, and exactly one delivery is written and sent; a reopen then a new
// closing time sends another; a close now is not sent twice; a draft whose time passed before it
// was published never closed. On SQLite and PostgreSQL.
import { webhookWorkerOf } from '../../src/app';
import { createEndpoint } from '../../src/domain/webhooks/endpoints';
import { emitDueClosings, scheduleClosings } from '../../src/domain/webhooks/scheduled-closes';
import { sealingKey } from '../../src/domain/webhooks/secrets';
import { movableClock, type MovableClock } from '../helpers/clock';
import { eventually } from '../helpers/eventually';
import { callTool, payload } from '../helpers/mcp-clients';
import {
  describeEachDatabase,
  raisedLimits,
  startTwoInstances,
  type TwoInstances,
} from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { createPublishedQuiz } from '../respondent/respondent-fixtures';
import { startReceiver, type Receiver } from './receiver';

const MINUTE = 60_000;

describeEachDatabase('quiz.closed at the closing time', (provider) => {
  let database: TestDatabase;
  let pair: TwoInstances;
  let receiver: Receiver;
  let clock: MovableClock;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    pair = await startTwoInstances(database, {
      config: { ...raisedLimits(), webhooks: { allowLoopback: true, secretKey: undefined } },
    });
    receiver = await startReceiver();
    await createEndpoint(
      pair.one.deps.repos,
      {
        sealingKey: sealingKey(pair.one.config.webhooks.secretKey, pair.one.config.sessionSecret),
        allowLoopback: true,
      },
      pair.user.id,
      { url: receiver.url, events: ['quiz.closed'], quizIds: null },
    );
  });
  afterAll(async () => {
    await webhookWorkerOf(pair.one.app).stop();
    await receiver.close();
    await pair.close();
    await database.drop();
  });
  beforeEach(() => {
    clock = movableClock();
  });
  afterEach(() => clock.restore());

  const closedRows = (quizId: string) =>
    database.prisma.webhookDelivery.findMany({
      where: { quizId, type: 'quiz.closed' },
      orderBy: { createdAt: 'asc' },
    });
  /**
   * The job's round on both instances. On PostgreSQL at once, as two processes run it. SQLite's
   * writer waits for the lock synchronously, which in one process would stall the other
   * instance's open transaction: there the rounds run one after the other.
   */
  const bothInstances = async () => {
    const [one, two] = [pair.one.deps.repos, pair.two.deps.repos];
    if (provider === 'sqlite') return (await emitDueClosings(one)) + (await emitDueClosings(two));
    const written = await Promise.all([emitDueClosings(one), emitDueClosings(two)]);
    return written[0] + written[1];
  };

  test('close_quiz at a time: nothing before it, one delivery after it from two instances, sent once', async () => {
    const quiz = await createPublishedQuiz(pair.viaOne, 'Closes at ten past');
    const at = new Date(Date.now() + 10 * MINUTE).toISOString();
    payload(await callTool(pair.viaOne, 'close_quiz', { quiz_id: quiz.quiz_id, at }));

    expect(await bothInstances()).toBe(0);
    expect(await closedRows(quiz.quiz_id)).toHaveLength(0);

    clock.advance(11 * MINUTE);
    expect(await bothInstances()).toBe(1);
    expect(await bothInstances()).toBe(0);
    const rows = await closedRows(quiz.quiz_id);
    expect(rows).toHaveLength(1);
    const body = JSON.parse(rows[0]!.payload);
    expect(body.data).toMatchObject({ closed_at: at, reason: 'closes_at' });
    expect(body.data.quiz).toMatchObject({ quiz_id: quiz.quiz_id });

    // Delivered like every event: the worker claims it from the outbox and sends it.
    webhookWorkerOf(pair.one.app).start(20);
    const received = await eventually(
      () => receiver.received.filter((r) => r.json.data.quiz?.quiz_id === quiz.quiz_id),
      { until: (list) => list.length >= 1 },
    );
    expect(received.map((r) => r.json.type)).toEqual(['quiz.closed']);
    expect(String(received[0]!.headers['webhook-id'])).toBe(rows[0]!.eventId);
    await webhookWorkerOf(pair.one.app).stop();
  });

  test('reopened until a new time, then that time passes: a second quiz.closed, once', async () => {
    const quiz = await createPublishedQuiz(pair.viaOne, 'Closes twice');
    payload(
      await callTool(pair.viaOne, 'close_quiz', {
        quiz_id: quiz.quiz_id,
        at: new Date(Date.now() + 5 * MINUTE).toISOString(),
      }),
    );
    clock.advance(6 * MINUTE);
    expect(await bothInstances()).toBe(1);

    const until = new Date(Date.now() + 30 * MINUTE).toISOString();
    payload(await callTool(pair.viaOne, 'reopen_quiz', { quiz_id: quiz.quiz_id, until }));
    expect(await bothInstances()).toBe(0);
    clock.advance(31 * MINUTE);
    expect(await bothInstances()).toBe(1);
    expect(await bothInstances()).toBe(0);
    const rows = await closedRows(quiz.quiz_id);
    expect(rows.map((row) => JSON.parse(row.payload).data.closed_at)).toEqual([expect.any(String), until]);
    expect(new Set(rows.map((row) => row.eventId)).size).toBe(2);
  });

  test('close now writes quiz.closed once: the job finds it written', async () => {
    const quiz = await createPublishedQuiz(pair.viaOne, 'Closes now');
    payload(await callTool(pair.viaTwo, 'close_quiz', { quiz_id: quiz.quiz_id }));
    expect(await closedRows(quiz.quiz_id)).toHaveLength(1);
    clock.advance(MINUTE);
    expect(await bothInstances()).toBe(0);
    expect(await closedRows(quiz.quiz_id)).toHaveLength(1);
  });

  test('a draft whose closing time passed before it was published, and a quiz closed by hand, send nothing more', async () => {
    const draft = await createPublishedQuiz(pair.viaOne, 'Late draft', {
      publish: false,
      settings: { closes_at: new Date(Date.now() + 5 * MINUTE).toISOString() },
    });
    const byHand = await createPublishedQuiz(pair.viaOne, 'Closed by hand', {
      settings: { closes_at: new Date(Date.now() + 5 * MINUTE).toISOString() },
    });
    payload(
      await callTool(pair.viaOne, 'update_quiz', {
        quiz_id: byHand.quiz_id,
        settings: { accepting_responses: false },
        confirm_edit_published: true,
      }),
    );
    const byOwner = await closedRows(byHand.quiz_id);
    clock.advance(6 * MINUTE);
    payload(await callTool(pair.viaOne, 'publish_quiz', { quiz_id: draft.quiz_id }));
    expect(await bothInstances()).toBe(0);
    expect(await closedRows(draft.quiz_id)).toHaveLength(0);
    expect(await closedRows(byHand.quiz_id)).toHaveLength(byOwner.length);
  });

  test('the schedule every instance starts runs the round on its own', async () => {
    const quiz = await createPublishedQuiz(pair.viaOne, 'Closed by the schedule');
    const at = new Date(Date.now() + 5 * MINUTE).toISOString();
    payload(await callTool(pair.viaOne, 'close_quiz', { quiz_id: quiz.quiz_id, at }));
    clock.advance(6 * MINUTE);
    const schedule = scheduleClosings(pair.one.deps.repos, pair.one.logger, { everyMs: 20 });
    try {
      const rows = await eventually(() => closedRows(quiz.quiz_id), { until: (found) => found.length > 0 });
      expect(rows).toHaveLength(1);
    } finally {
      schedule.stop();
    }
  });
});
