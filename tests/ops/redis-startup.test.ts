// Start-up says Redis is unreachable only when it is: with a healthy Redis no warning at all
// (the rate-limit stores wait for the connection instead of failing before it), with nothing
// listening one warning, however many stores and requests meet it.
import type { Express } from 'express';
import request from 'supertest';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { createRedis, startRedis } from '../../src/redis';
import { eventually } from '../helpers/eventually';
import { memoryLog } from '../helpers/memory-log';
import { clearPrefix, connectRedis, describeWithRedis, TEST_REDIS_URL, uniquePrefix } from '../helpers/redis';
import { freePort } from '../helpers/service-process';
import { createTestDatabase } from '../helpers/test-database';

/**
 * As main.ts does it: the client made, the app (and its rate-limit stores) built in the same turn,
 * the first purge (`stallMs` of a blocked loop stands for a slow one), then the connection started.
 */
async function startWithRedis(url: string, stallMs = 0) {
  const database = await createTestDatabase('sqlite');
  const log = memoryLog();
  const logger = createLogger('info', log.stream);
  const prefix = uniquePrefix();
  const redis = createRedis(url, logger);
  const app = createApp({ config: testConfig({ redisKeyPrefix: prefix }), database, logger, redis });
  stall(stallMs);
  startRedis(redis);
  const warnings = () => log.lines().filter((line) => line.level === 40);
  return { app, redis, prefix, log, warnings, database };
}

/** Blocks the event loop, as a loaded host building the app or compiling queries does. */
function stall(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until);
}

/** Requests that go through rate limiters: the MCP endpoint, the log-in form, a respondent's submission. */
async function exercise(app: Express) {
  await request(app).post('/api/mcp').send({ jsonrpc: '2.0', id: 1, method: 'ping' });
  await request(app).get('/login');
  await request(app).post('/login').type('form').send({ email: 'x@example.com', password: 'y' });
  await request(app).post('/api/quizzes/no-such-quiz/responses').send({ answers: [] });
}

describeWithRedis('Redis at start-up', () => {
  test.each([
    ['a slow first purge, before the connection starts', 2_500, 0],
    ['a stall right after the connection starts, longer than its timeout', 0, 2_500],
  ])('%s: no warning, and the counters are in Redis', async (_, beforeMs, afterMs) => {
    const { app, redis, prefix, log, warnings, database } = await startWithRedis(TEST_REDIS_URL, beforeMs);
    stall(afterMs);
    const inspect = await connectRedis();
    try {
      await eventually(() => log.lines().some((line) => line.msg === 'Redis connected'));
      await exercise(app);
      expect(warnings()).toEqual([]);
      const keys: string[] = [];
      for await (const batch of inspect.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 }))
        keys.push(...batch);
      expect(keys.length).toBeGreaterThan(0);
    } finally {
      await redis.close();
      await database.drop();
      await clearPrefix(inspect, prefix);
      await inspect.close();
    }
  });

  test('healthy: "Redis connected", no warning, and the counters are in Redis', async () => {
    const { app, redis, prefix, log, warnings, database } = await startWithRedis(TEST_REDIS_URL);
    const inspect = await connectRedis();
    try {
      await exercise(app);
      await eventually(() => log.lines().some((line) => line.msg === 'Redis connected'));
      await exercise(app);
      expect(log.lines().filter((line) => line.msg === 'Redis connected')).toHaveLength(1);
      // A loaded machine may make one command slow (said as such), never "unreachable".
      expect(warnings().filter((line) => /unreachable/i.test(String(line.msg)))).toEqual([]);
      const keys: string[] = [];
      for await (const batch of inspect.scanIterator({ MATCH: `${prefix}*`, COUNT: 500 }))
        keys.push(...batch);
      expect(keys.length).toBeGreaterThan(0);
    } finally {
      await redis.close();
      await database.drop();
      await clearPrefix(inspect, prefix);
      await inspect.close();
    }
  });
});

describe('Redis at start-up, nothing listening', () => {
  test('one warning that says so, and the service serves with counters in memory', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const { app, redis, warnings, database } = await startWithRedis(url);
    try {
      await exercise(app);
      await eventually(() => warnings().length > 0);
      await exercise(app);
      expect((await request(app).get('/login')).status).toBe(200);
      expect(warnings()).toHaveLength(1);
      expect(warnings()[0]!.msg).toMatch(/Redis unreachable/);
    } finally {
      redis.destroy();
      await database.drop();
    }
  });
});
