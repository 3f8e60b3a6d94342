// Shared counters in Redis: several instances, one budget per credential; and what happens
// when Redis goes away (documented in README "Rate limits"): limits fall back to per-instance
// memory counters, requests keep being served, and sharing resumes when Redis is back.
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { ACCEPT_BOTH, createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { csrfOf, logIn, newAgent, PASSWORD, signUp, uniqueEmail } from '../dashboard/dashboard-helpers';
import {
  clearPrefix,
  connectRedis,
  describeWithRedis,
  startPrivateRedis,
  uniquePrefix,
  type TestRedis,
} from '../helpers/redis';
import { eventually } from '../helpers/eventually';

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
const post = (app: TestApp, key: string) =>
  request(app.app)
    .post('/api/mcp')
    .set('Accept', ACCEPT_BOTH)
    .set('Authorization', `Bearer ${key}`)
    .send(listTools);

describeWithRedis('rate limits shared through Redis', () => {
  let database: TestDatabase;
  let redisA: TestRedis;
  let redisB: TestRedis;
  let prefix: string;
  let one: TestApp;
  let two: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    [redisA, redisB] = await Promise.all([connectRedis(), connectRedis()]);
    prefix = uniquePrefix();
    const config = { rateLimit: { max: 6, windowSeconds: 60 }, redisKeyPrefix: prefix };
    one = await startTestApp({ database, redis: redisA, config });
    two = await startTestApp({ database, redis: redisB, config });
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    await clearPrefix(redisA, prefix);
    await Promise.all([redisA.close(), redisB.close()]);
    await database.drop();
  });

  test('two instances share one budget per credential', async () => {
    const user = await createTestUser(database);
    const remaining: string[] = [];
    for (let i = 0; i < 6; i += 1) {
      const res = await post(i % 2 === 0 ? one : two, user.apiKey);
      expect(res.status).toBe(200);
      remaining.push(res.headers['ratelimit-remaining'] ?? '');
    }
    expect(remaining).toEqual(['5', '4', '3', '2', '1', '0']);
    expect((await post(one, user.apiKey)).status).toBe(429);
    expect((await post(two, user.apiKey)).status).toBe(429);
    const keys: string[] = [];
    for await (const batch of redisA.scanIterator({ MATCH: `${prefix}rl:mcp:*` })) keys.push(...batch);
    expect(keys.length).toBeGreaterThan(0);
  });

  test('sign-ups per address count once across both instances', async () => {
    const limit = one.config.limits.signupsPerHour;
    for (let i = 0; i < limit; i += 1) await signUp(newAgent(i % 2 === 0 ? one : two));
    for (const app of [one, two]) {
      const agent = newAgent(app);
      const token = await csrfOf(agent, '/signup');
      const refused = await agent
        .post('/signup')
        .type('form')
        .send({ _csrf: token, email: uniqueEmail('late'), password: PASSWORD });
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
  });
  test('the log-in delay counts one account across both instances', async () => {
    const { email, password } = await createTestUser(database);
    // Five wrong passwords, alternating between the instances: one count, not two of five.
    for (let i = 0; i < 5; i += 1) {
      expect((await logIn(newAgent(i % 2 === 0 ? one : two), email, `wrong-${i}-password`)).status).toBe(422);
    }
    // Either instance now asks for the first wait of the growing delay.
    for (const app of [one, two]) {
      const early = await logIn(newAgent(app), email, password);
      expect(early.status).toBe(429);
      expect(early.headers['retry-after']).toBe('1');
    }
    const keys: string[] = [];
    for await (const batch of redisA.scanIterator({ MATCH: `${prefix}rl:login-delay:*` }))
      keys.push(...batch);
    expect(keys.length).toBe(1);
  });
});

describeWithRedis('when Redis goes away', () => {
  test('requests are still served and still limited (per instance), and sharing resumes when Redis is back', async () => {
    const server = await startPrivateRedis();
    const database = await createTestDatabase('sqlite');
    const redis = await connectRedis(server.url);
    const prefix = uniquePrefix();
    const app = await startTestApp({
      database,
      redis,
      config: { rateLimit: { max: 3, windowSeconds: 60 }, redisKeyPrefix: prefix },
    });
    try {
      const user = await createTestUser(database);
      expect((await post(app, user.apiKey)).headers['ratelimit-remaining']).toBe('2');

      await server.stop();
      // Served without waiting for Redis, with local counters (a fresh local budget).
      const started = Date.now();
      const during = await post(app, user.apiKey);
      expect(during.status).toBe(200);
      expect(Date.now() - started).toBeLessThan(2_000);
      expect(during.headers['ratelimit-remaining']).toBe('2');
      expect((await post(app, user.apiKey)).status).toBe(200);
      expect((await post(app, user.apiKey)).status).toBe(200);
      expect((await post(app, user.apiKey)).status).toBe(429);

      // Redis back on the same port: the client reconnects and counting moves back to Redis.
      const restarted = await startPrivateRedis(server.port);
      try {
        const other = await createTestUser(database);
        // The store retries Redis a few seconds after a failure; ask until counting lands there.
        const statuses: number[] = [];
        const shared = await eventually(
          async () => {
            statuses.push((await post(app, other.apiKey)).status);
            return redis.isReady && (await redis.keys(`${prefix}rl:mcp:*`)).length > 0;
          },
          { timeoutMs: 10_000, intervalMs: 100 },
        );
        expect(statuses).not.toContain(500);
        expect(shared).toBe(true);
      } finally {
        await restarted.stop();
      }
    } finally {
      await app.close();
      await redis.close().catch(() => undefined);
      await database.drop();
    }
  }, 30_000);
});
