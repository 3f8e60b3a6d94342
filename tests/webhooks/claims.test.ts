// The outbox's claim on both databases: concurrent claimers (as on several instances) never get
// the same delivery; a claim holds until its lease runs out; finishing needs the lease.
import { randomBytes } from 'node:crypto';
import { openDatabase } from '../../src/db/database';
import { describeEachDatabase, createTestUser } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

describeEachDatabase('webhook claims', (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database.drop();
  });

  test('four claimers over two connections share 40 due deliveries without overlap', async () => {
    const user = await createTestUser(database, 'claims');
    const repos = database.repos;
    await repos.webhooks.createEndpoint(
      user.id,
      { url: 'https://hooks.example/a', events: ['quiz.published'], quizIds: null, secret: 'sealed' },
      () => undefined,
    );
    const at = new Date(Date.now() - 1_000);
    for (let i = 0; i < 40; i += 1) {
      await repos.webhooks.writeEvent({
        id: `msg_${randomBytes(8).toString('hex')}`,
        ownerId: user.id,
        quizId: 'q1',
        type: 'quiz.published',
        payload: '{}',
        at,
      });
    }
    // An event of a type the endpoint does not take writes nothing.
    await repos.webhooks.writeEvent({
      id: 'msg_other',
      ownerId: user.id,
      quizId: 'q1',
      type: 'quiz.deleted',
      payload: '{}',
      at,
    });
    expect(await repos.webhooks.pendingCount()).toBe(40);

    const second = await openDatabase(database.url, { migrate: false, poolSize: 4 });
    try {
      const now = new Date();
      const claims = await Promise.all(
        [repos, second.repos, repos, second.repos].map((r, i) =>
          r.webhooks.claimDue(now, 15, `token-${i}`, 60_000),
        ),
      );
      const ids = claims.flat().map((delivery) => delivery.id);
      expect(ids.length).toBe(new Set(ids).size);
      expect(ids.length).toBe(40);
      // Held: nothing more is due until the leases run out.
      expect(await repos.webhooks.claimDue(now, 50, 'late', 60_000)).toEqual([]);
      const later = await repos.webhooks.claimDue(
        new Date(now.getTime() + 61_000),
        50,
        'after-lease',
        60_000,
      );
      expect(later).toHaveLength(40);
      // The first holder's finish no longer counts: the lease is another's now.
      const stale = claims.find((claim) => claim.length > 0)![0]!;
      await repos.webhooks.finishAttempt({
        deliveryId: stale.id,
        endpointId: stale.endpointId,
        leaseToken: 'token-0-or-other',
        attempt: null,
        state: 'delivered',
        attempts: 1,
        nextAttemptAt: now,
        endpointHealthy: null,
      });
      expect(await repos.webhooks.pendingCount()).toBe(40);
    } finally {
      await second.close();
    }
  });
});
