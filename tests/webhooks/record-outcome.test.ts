// A receiver that answered is not sent the event again because the database was busy when its
// outcome was recorded: the worker tries the record again before giving the delivery back to
// its lease, and only a lasting failure leaves it to be sent once more.
import { randomBytes } from 'node:crypto';
import type { Repositories } from '../../src/db/repositories';
import { createEndpoint } from '../../src/domain/webhooks/endpoints';
import { sealingKey } from '../../src/domain/webhooks/secrets';
import { createWebhookWorker } from '../../src/domain/webhooks/worker';
import { createTestUser, describeEachDatabase } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { startReceiver, type Receiver } from './receiver';

const quietLogger = () => {
  const warnings: string[] = [];
  const logger = {
    warn: (_: unknown, message: string) => warnings.push(message),
    error: (_: unknown, message: string) => warnings.push(`error: ${message}`),
    info: () => undefined,
    debug: () => undefined,
  };
  return { logger: logger as never, warnings };
};

describeEachDatabase('recording a webhook outcome', (provider) => {
  let database: TestDatabase;
  let receiver: Receiver;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await database.drop();
  });

  /** The repositories with `finishAttempt` failing its first `failures` calls. */
  function flaky(failures: number): Pick<Repositories, 'webhooks'> {
    const real = database.repos.webhooks;
    let failed = 0;
    return {
      webhooks: {
        ...real,
        finishAttempt: async (result) => {
          if (failed < failures) {
            failed += 1;
            throw new Error('timeout exceeded when trying to connect');
          }
          return real.finishAttempt(result);
        },
      },
    };
  }

  async function oneDueDelivery(label: string) {
    const user = await createTestUser(database, label);
    const settings = { sealingKey: sealingKey(undefined, 'test-session-secret'), allowLoopback: true };
    await createEndpoint(database.repos, settings, user.id, {
      url: receiver.url,
      events: ['quiz.published'],
      quizIds: null,
    });
    await database.repos.webhooks.writeEvent({
      id: `msg_${randomBytes(8).toString('hex')}`,
      ownerId: user.id,
      quizId: 'q1',
      type: 'quiz.published',
      payload: '{"type":"quiz.published","timestamp":"2026-01-01T00:00:00Z","data":{}}',
      at: new Date(Date.now() - 1_000),
    });
    return settings;
  }

  test('a busy database on the first tries: delivered once, nothing left pending', async () => {
    const settings = await oneDueDelivery('busy');
    const { logger, warnings } = quietLogger();
    const before = receiver.received.length;
    const worker = createWebhookWorker({ repos: flaky(2), settings, logger });
    expect(await worker.runOnce()).toBe(1);
    expect(receiver.received.length - before).toBe(1);
    expect(await database.repos.webhooks.pendingCount()).toBe(0);
    expect(warnings.filter((w) => w.includes('not recorded'))).toHaveLength(2);
  });

  test('a database that stays down: the delivery stays claimed for its lease, reported', async () => {
    const settings = await oneDueDelivery('down');
    const { logger, warnings } = quietLogger();
    const worker = createWebhookWorker({ repos: flaky(100), settings, logger });
    expect(await worker.runOnce()).toBe(0);
    expect(await database.repos.webhooks.pendingCount()).toBe(1);
    expect(warnings.some((w) => w.startsWith('error:'))).toBe(true);
  }, 15_000);
});
