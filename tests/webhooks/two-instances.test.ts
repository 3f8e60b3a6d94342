// Two instances on one PostgreSQL database, both running their delivery workers, take 500
// submissions between them: the receiver sees every event id, and counts the duplicates (0 in a
// healthy run: each delivery is claimed by one instance at a time, FOR UPDATE SKIP LOCKED).
import request from 'supertest';
import { webhookWorkerOf } from '../../src/app';
import { createEndpoint } from '../../src/domain/webhooks/endpoints';
import { sealingKey } from '../../src/domain/webhooks/secrets';
import { eventually } from '../helpers/eventually';
import { reportFigure } from '../helpers/figures';
import { raisedLimits, startTwoInstances, type TwoInstances } from '../helpers/test-app';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '../helpers/test-database';
import { createPublishedQuiz, sampleAnswers } from '../respondent/respondent-fixtures';
import { startReceiver, verifiedSignatures, type Receiver } from './receiver';

const SUBMISSIONS = 500;

describeWithPostgres('webhooks from two instances on PostgreSQL', () => {
  let database: TestDatabase;
  let pair: TwoInstances;
  let receiver: Receiver;

  beforeAll(async () => {
    database = await createTestDatabase('postgresql');
    pair = await startTwoInstances(database, {
      config: { ...raisedLimits(), webhooks: { allowLoopback: true, secretKey: undefined } },
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await webhookWorkerOf(pair.one.app).stop();
    await webhookWorkerOf(pair.two.app).stop();
    await receiver.close();
    await pair.close();
    await database.drop();
  });

  test(`${SUBMISSIONS} submissions: every event id arrives, none twice`, async () => {
    const quiz = await createPublishedQuiz(pair.viaOne, 'Busy quiz');
    const { secret } = await createEndpoint(
      pair.one.deps.repos,
      {
        sealingKey: sealingKey(pair.one.config.webhooks.secretKey, pair.one.config.sessionSecret),
        allowLoopback: true,
      },
      pair.user.id,
      { url: receiver.url, events: ['response.submitted'], quizIds: null },
    );
    webhookWorkerOf(pair.one.app).start(10);
    webhookWorkerOf(pair.two.app).start(10);
    const responseIds: string[] = [];
    const apps = [pair.one.app, pair.two.app];
    for (let batch = 0; batch < SUBMISSIONS; batch += 20) {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          request(apps[(batch + i) % 2]!)
            .post(`/api/quizzes/${quiz.slug}/responses`)
            .send({ respondent: { name: `R${batch + i}` }, answers: sampleAnswers(quiz) }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(201);
        responseIds.push(answer.body.response_id as string);
      }
    }
    const ids = () => new Set(receiver.received.map((r) => String(r.headers['webhook-id'])));
    await eventually(() => ids().size, { until: (size) => size >= SUBMISSIONS, timeoutMs: 90_000 });
    await webhookWorkerOf(pair.one.app).stop();
    await webhookWorkerOf(pair.two.app).stop();

    const duplicates = receiver.received.length - ids().size;
    reportFigure(
      `two instances: ${receiver.received.length} deliveries, ${ids().size} event ids, ${duplicates} duplicates`,
    );
    expect(ids().size).toBe(SUBMISSIONS);
    expect(duplicates).toBe(0);
    expect(new Set(receiver.received.map((r) => r.json.data.response_id))).toEqual(new Set(responseIds));
    expect(receiver.received.every((r) => verifiedSignatures(r, secret) === 1)).toBe(true);
    expect(await pair.one.deps.repos.webhooks.pendingCount()).toBe(0);
  }, 120_000); // 500 submissions on a shared machine: seconds, not a timed assertion
});
