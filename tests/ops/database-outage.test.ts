// The database going away: tool calls answer a clear error at once (no hang, no stack trace),
// /readyz fails, and service resumes by itself when the database is back.
import request from 'supertest';
import { openDatabase, type Database } from '../../src/db/database';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '../helpers/test-database';
import { startTcpProxy, type TcpProxy } from '../helpers/tcp-proxy';
import {
  ACCEPT_BOTH,
  createTestUser,
  startTestApp,
  toolCall,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { eventually } from '../helpers/eventually';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

describeWithPostgres('PostgreSQL going away and coming back', () => {
  let backing: TestDatabase;
  let proxy: TcpProxy;
  let viaProxy: Database;
  let app: TestApp;
  let client: AnyClient;
  let user: TestUser;

  beforeAll(async () => {
    backing = await createTestDatabase('postgresql');
    const url = new URL(backing.url);
    proxy = await startTcpProxy(Number(url.port || 5432), url.hostname);
    url.host = `127.0.0.1:${proxy.port}`;
    viaProxy = await openDatabase(url.toString(), { migrate: false, poolSize: 4 });
    app = await startTestApp({ database: { ...viaProxy, drop: async () => undefined } });
    user = await createTestUser(app);
    client = await connectClient(app, user.apiKey);
    payload(await callTool(client, 'create_quiz', { title: 'Survives outages', questions: [] }));
  });
  afterAll(async () => {
    await client.close();
    await app.close();
    await viaProxy.close().catch(() => undefined);
    await proxy.close();
    await backing.drop();
  });

  test('during the outage: a clear, quick, retryable error; after it: served again without a restart', async () => {
    await proxy.cut();

    // The credential cannot be checked without the database: HTTP 503 with Retry-After and a
    // problem body, quickly, which MCP clients show as the error of the call.
    const started = Date.now();
    const res = await request(app.app)
      .post('/api/mcp')
      .set('Authorization', `Bearer ${user.apiKey}`)
      .set('Accept', ACCEPT_BOTH)
      .send(toolCall('list_quizzes'));
    expect(Date.now() - started).toBeLessThan(8_000);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.body).toMatchObject({
      code: 'service_unavailable',
      detail: expect.stringMatching(/cannot reach its database/),
    });
    expect(res.text).not.toMatch(/at \w+ \(|ECONNREFUSED|prisma/i);
    await expect(callTool(client, 'list_quizzes')).rejects.toThrow(
      /cannot reach its database right now; nothing was changed/,
    );

    const ready = await request(app.app).get('/readyz');
    expect(ready.status).toBe(503);
    expect(ready.body.checks.database).toBe('unavailable');

    await proxy.restore();
    const result = await eventually(() => callTool(client, 'list_quizzes'), {
      until: (answer) => !answer.isError,
      timeoutMs: 10_000,
      intervalMs: 250,
    });
    const quizzes: Array<{ title: string }> | undefined = result.isError
      ? undefined
      : payload(result).quizzes;
    expect(quizzes?.map((quiz) => quiz.title)).toEqual(['Survives outages']);
    await request(app.app).get('/readyz').expect(200);
  }, 30_000);
});
