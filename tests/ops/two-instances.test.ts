// Several stateless instances behind a load balancer, on one PostgreSQL and one Redis:
// what one writes the other reads, one rate-limit budget, parallel writes through both lose nothing.
import request from 'supertest';
import { connectApp, loggedInAgent, mcp as oauthMcp, refresh } from '../oauth/oauth-helpers';
import { createApiKey, MAX_ACTIVE_KEYS } from '../../src/domain/api-keys';
import { clearPrefix, connectRedis, describeWithRedis, uniquePrefix, type TestRedis } from '../helpers/redis';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '../helpers/test-database';
import {
  ACCEPT_BOTH,
  createTestUser,
  startTwoInstances,
  toolCall,
  type TestApp,
  type TwoInstances,
} from '../helpers/test-app';
import { callTool, payload, type AnyClient } from '../helpers/mcp-clients';

describeWithPostgres('two instances on one PostgreSQL', () => {
  describeWithRedis('and one Redis', () => {
    let database: TestDatabase;
    let redis: TestRedis[];
    let prefix: string;
    let instances: TwoInstances;
    let one: TestApp;
    let two: TestApp;
    let viaOne: AnyClient;
    let viaTwo: AnyClient;

    beforeAll(async () => {
      database = await createTestDatabase('postgresql');
      redis = await Promise.all([connectRedis(), connectRedis()]);
      prefix = uniquePrefix();
      // Each instance has its own connection pool and Redis client, as separate processes would.
      instances = await startTwoInstances(database, {
        config: { rateLimit: { max: 400, windowSeconds: 60 }, redisKeyPrefix: prefix },
        redis: [redis[0], redis[1]],
      });
      ({ one, two, viaOne, viaTwo } = instances);
    });
    afterAll(async () => {
      await instances.close();
      await clearPrefix(redis[0]!, prefix);
      await Promise.all(redis.map((client) => client.close()));
      await database.drop();
    });

    test('a quiz written through one instance is read through the other', async () => {
      const created = payload(
        await callTool(viaOne, 'create_quiz', {
          title: 'Shared state',
          questions: [{ type: 'yes_no', text: 'Here?', points: 1 }],
        }),
      );
      const read = payload(await callTool(viaTwo, 'get_quiz_questions', { quiz_id: 'Shared state' }));
      expect(read.quiz_id).toBe(created.quiz_id);
      payload(await callTool(viaTwo, 'publish_quiz', { quiz_id: created.quiz_id }));
      expect(payload(await callTool(viaOne, 'get_quiz_settings', { quiz_id: created.slug })).status).toBe(
        'published',
      );
    });

    test('an OAuth token issued by one instance works on the other, and revoking it on one ends it on both', async () => {
      const { agent } = await loggedInAgent(one, 'oauth-two');
      const { client, tokens } = await connectApp(one, agent);
      expect((await oauthMcp(two, tokens.access_token)).status).toBe(200);
      const refreshed = await refresh(two, client, tokens.refresh_token);
      expect(refreshed.status).toBe(200);
      expect((await oauthMcp(one, refreshed.body.access_token)).status).toBe(200);
      await request(one.app)
        .post('/oauth/revoke')
        .type('form')
        .send({ token: refreshed.body.access_token, client_id: client.clientId })
        .expect(200);
      expect((await oauthMcp(two, refreshed.body.access_token)).status).toBe(401);
    });

    test('one rate-limit budget per credential across both instances', async () => {
      const other = await createTestUser(database, 'budget');
      const post = (app: TestApp) =>
        request(app.app)
          .post('/api/mcp')
          .set('Authorization', `Bearer ${other.apiKey}`)
          .set('Accept', ACCEPT_BOTH)
          .send(toolCall('list_quizzes'));
      const first = await post(one);
      const second = await post(two);
      expect(first.headers['ratelimit-remaining']).toBe('399');
      expect(second.headers['ratelimit-remaining']).toBe('398');
    });

    test('50 parallel update_quiz calls through both instances end with one complete question set', async () => {
      const quiz = payload(
        await callTool(viaOne, 'create_quiz', { title: 'Contended twice', questions: [] }),
      );
      const setFor = (writer: number) =>
        Array.from({ length: 4 }, (_, i) => ({
          type: 'yes_no',
          text: `writer ${writer} question ${i}`,
          points: writer,
        }));
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, writer) =>
          callTool(writer % 2 === 0 ? viaOne : viaTwo, 'update_quiz', {
            quiz_id: quiz.quiz_id,
            questions: setFor(writer),
          }),
        ),
      );
      for (const result of results) payload(result);
      const final = payload(await callTool(viaTwo, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
      const winner = Number(/writer (\d+)/.exec(final.questions[0].text)![1]);
      expect(final.questions.map((q: { text: string }) => q.text)).toEqual(setFor(winner).map((q) => q.text));
      expect(await database.prisma.question.count({ where: { quizId: quiz.quiz_id } })).toBe(4);
      const settings = payload(await callTool(viaOne, 'get_quiz_settings', { quiz_id: quiz.quiz_id }));
      expect(settings.question_count).toBe(4);
    }, 60_000);

    test(`parallel key creations through both instances never exceed ${MAX_ACTIVE_KEYS} keys`, async () => {
      const owner = await createTestUser(database, 'keys');
      const attempts = await Promise.allSettled(
        Array.from({ length: 14 }, (_, i) =>
          createApiKey((i % 2 === 0 ? one : two).database.repos, owner.id, `parallel ${i}`),
        ),
      );
      expect(attempts.filter((a) => a.status === 'fulfilled')).toHaveLength(MAX_ACTIVE_KEYS - 1);
      expect(await database.prisma.apiKey.count({ where: { userId: owner.id, revokedAt: null } })).toBe(
        MAX_ACTIVE_KEYS,
      );
    });
  });
});
