// Operations: liveness, readiness, Prometheus metrics (closed to the public), request ids.
import request from 'supertest';
import { connectRedis, describeWithRedis, startPrivateRedis, uniquePrefix } from '../helpers/redis';
import { ACCEPT_BOTH, createTestUser, startTestApp, toolCall, type TestApp } from '../helpers/test-app';

describe('health and readiness', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  test('/healthz says the process is up; /readyz checks the database', async () => {
    expect((await request(app.app).get('/healthz').expect(200)).body).toEqual({ status: 'ok' });
    expect((await request(app.app).get('/readyz').expect(200)).body).toEqual({
      status: 'ready',
      checks: { database: 'ok' },
    });
  });

  test('/readyz answers 503 when the database is gone', async () => {
    const doomed = await startTestApp();
    await doomed.database.close();
    const res = await request(doomed.app).get('/readyz');
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ status: 'unavailable', checks: { database: 'unavailable' } });
    await doomed.close();
  });
});

describeWithRedis('readiness with Redis', () => {
  test('Redis away is reported as degraded but stays ready (the service works on without it)', async () => {
    const server = await startPrivateRedis();
    const redis = await connectRedis(server.url);
    const app = await startTestApp({ redis, config: { redisKeyPrefix: uniquePrefix() } });
    try {
      expect((await request(app.app).get('/readyz').expect(200)).body).toEqual({
        status: 'ready',
        checks: { database: 'ok', redis: 'ok' },
      });
      await server.stop();
      const res = await request(app.app).get('/readyz');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ status: 'degraded', checks: { database: 'ok', redis: 'unavailable' } });
    } finally {
      await app.close();
      await redis.close().catch(() => undefined);
    }
  });
});

describe('/metrics', () => {
  test('loopback clients read Prometheus metrics by route, tool and status, with latency histograms', async () => {
    const app = await startTestApp();
    try {
      const user = await createTestUser(app);
      const mcp = () =>
        request(app.app)
          .post('/api/mcp')
          .set('Authorization', `Bearer ${user.apiKey}`)
          .set('Accept', ACCEPT_BOTH);
      await mcp().send(toolCall('list_quizzes')).expect(200);
      await mcp()
        .send(toolCall('get_quiz_questions', { quiz_id: 'nope' }))
        .expect(200);
      await request(app.app).post('/api/mcp').send(toolCall('list_quizzes')).expect(401);
      const res = await request(app.app).get('/metrics').expect(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.text).toMatch(/http_requests_total\{method="POST",route="\/api\/mcp",status="200"\} 2/);
      expect(res.text).toMatch(/http_requests_total\{method="POST",route="\/api\/mcp",status="401"\} 1/);
      expect(res.text).toMatch(/mcp_tool_calls_total\{tool="list_quizzes",outcome="ok"\} 1/);
      expect(res.text).toMatch(/mcp_tool_calls_total\{tool="get_quiz_questions",outcome="error"\} 1/);
      expect(res.text).toMatch(
        /http_request_duration_seconds_bucket\{le="0.05",method="POST",route="\/api\/mcp"\} \d+/,
      );
      expect(res.text).not.toContain(user.apiKey);
    } finally {
      await app.close();
    }
  });

  test('closed to everyone else: a client behind a proxy gets 404; with METRICS_TOKEN only that token opens it', async () => {
    const proxied = await startTestApp({ config: { trustProxy: ['127.0.0.1', '::ffff:127.0.0.1'] } });
    const tokened = await startTestApp({ config: { metricsToken: 'metrics-secret-123' } });
    try {
      const outside = await request(proxied.app).get('/metrics').set('X-Forwarded-For', '203.0.113.9');
      expect(outside.status).toBe(404);
      expect(outside.body.code).toBe('not_found');
      await request(tokened.app).get('/metrics').expect(404);
      await request(tokened.app).get('/metrics').set('Authorization', 'Bearer wrong-token-12345').expect(404);
      await request(tokened.app)
        .get('/metrics')
        .set('Authorization', 'Bearer metrics-secret-123')
        .expect(200);
    } finally {
      await proxied.close();
      await tokened.close();
    }
  });
});
