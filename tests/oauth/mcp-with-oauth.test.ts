// OAuth tokens on /api/mcp: per-tool scopes (403 insufficient_scope), no tokens in the query
// string, a revoked connected app is refused at once, and the rate limit counts per grant.
import request from 'supertest';
import { toolCall } from '../helpers/test-app';
import { csrfFrom, squash } from '../dashboard/dashboard-helpers';
import { onlyMessage } from '../helpers/http';
import type { TestApp } from '../helpers/test-app';
import { connectApp, loggedInAgent, mcp, refresh, startOAuthTestApp } from './oauth-helpers';
import { eventually } from '../helpers/eventually';

let app: TestApp;
beforeAll(async () => {
  app = await startOAuthTestApp();
});
afterAll(async () => {
  await app.close();
});

const createQuiz = toolCall('create_quiz', {
  title: 'Scoped quiz',
  questions: [{ type: 'yes_no', text: 'Ready?', points: 1 }],
});

test('a quizzes:read token may read but gets 403 insufficient_scope for a write tool', async () => {
  const { agent } = await loggedInAgent(app);
  const { tokens } = await connectApp(app, agent, { scope: 'quizzes:read' });
  expect(tokens.scope).toBe('quizzes:read');
  const list = await mcp(app, tokens.access_token, toolCall('list_quizzes'));
  expect(list.status).toBe(200);
  expect(onlyMessage(list.text).result.isError).toBeFalsy();

  const write = await mcp(app, tokens.access_token, createQuiz);
  expect(write.status).toBe(403);
  const challenge = write.headers['www-authenticate'];
  // The scope to ask for again: what the token has plus what the tool needs.
  expect(challenge).toMatch(/^Bearer error="insufficient_scope", scope="quizzes:read quizzes:write", /);
  expect(challenge).toContain(
    `resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/api/mcp"`,
  );
  expect(write.body).toEqual({
    error: 'insufficient_scope',
    error_description: expect.stringContaining('quizzes:write'),
  });
  // The rate limit counted it (the limiter runs before the scope check).
  expect(write.headers['ratelimit-policy']).toBeDefined();
  expect(await app.database.prisma.quiz.count({ where: { title: 'Scoped quiz' } })).toBe(0);
});

test('a quizzes:write-only token cannot read; a token with both can do both; API keys keep everything', async () => {
  const { agent, user } = await loggedInAgent(app);
  const writer = await connectApp(app, agent, { scope: 'quizzes:write' });
  expect((await mcp(app, writer.tokens.access_token, createQuiz)).status).toBe(200);
  const read = await mcp(
    app,
    writer.tokens.access_token,
    toolCall('get_results', { quiz_id: 'Scoped quiz' }),
  );
  expect(read.status).toBe(403);
  expect(read.headers['www-authenticate']).toContain('scope="quizzes:read quizzes:write"');

  const both = await connectApp(app, agent);
  expect(
    (await mcp(app, both.tokens.access_token, toolCall('get_quiz_settings', { quiz_id: 'Scoped quiz' })))
      .status,
  ).toBe(200);
  expect(
    (await mcp(app, user.apiKey, toolCall('delete_quiz', { quiz_id: 'Scoped quiz', confirm: true }))).status,
  ).toBe(200);
});

test('an access token in the query string is not a credential (only the Authorization header is)', async () => {
  const { agent } = await loggedInAgent(app);
  const { tokens } = await connectApp(app, agent);
  const res = await request(app.app)
    .post(`/api/mcp?access_token=${tokens.access_token}`)
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json, text/event-stream')
    .send(JSON.stringify(toolCall('list_quizzes')));
  expect(res.status).toBe(401);
  expect(res.headers['www-authenticate']).not.toContain('error=');
  const form = await request(app.app)
    .post('/api/mcp')
    .type('form')
    .send({ access_token: tokens.access_token });
  expect(form.status).toBe(401);
});

test('Connected apps lists the app; disconnecting it ends its access and refresh tokens at once', async () => {
  const { agent } = await loggedInAgent(app);
  const { client, tokens } = await connectApp(app, agent, { scope: 'quizzes:read' });
  expect((await mcp(app, tokens.access_token)).status).toBe(200);
  // last used is written off the request's path, at most once a minute.
  await eventually(
    () => app.database.prisma.oAuthGrant.findFirstOrThrow({ where: { clientId: client.clientId } }),
    { until: (grant) => grant.lastUsedAt !== null, timeoutMs: 3_000 },
  );
  const page = await agent.get('/settings/connected-apps');
  const text = squash(page.text);
  expect(text).toContain('Test assistant');
  expect(text).toContain('<code>127.0.0.1:8976</code>');
  expect(text).toContain('See your quizzes and their results');
  expect(text).not.toContain('Create, change, publish and delete your quizzes');
  expect(text).not.toContain('last used <span class="muted">Never</span>');

  const grant = await app.database.prisma.oAuthGrant.findFirstOrThrow({
    where: { clientId: client.clientId },
  });
  const res = await agent
    .post(`/settings/connected-apps/${grant.id}/revoke`)
    .type('form')
    .send({ _csrf: csrfFrom(page.text) });
  expect(res.status).toBe(303);
  const after = await mcp(app, tokens.access_token);
  expect(after.status).toBe(401);
  expect(after.headers['www-authenticate']).toContain('error="invalid_token"');
  expect((await refresh(app, client, tokens.refresh_token)).body.error).toBe('invalid_grant');
  expect((await agent.get('/settings/connected-apps')).text).toContain('No apps are connected.');
});

test('approving the same client twice keeps one connected app, with the union of scopes', async () => {
  const { agent } = await loggedInAgent(app);
  const first = await connectApp(app, agent, { scope: 'quizzes:read' });
  await connectApp(app, agent, { scope: 'quizzes:write', client: first.client });
  const grants = await app.database.prisma.oAuthGrant.findMany({
    where: { clientId: first.client.clientId },
  });
  expect(grants).toHaveLength(1);
  expect(grants[0]!.scope).toBe('quizzes:read quizzes:write');
  // The first token keeps its own, narrower scope.
  expect((await mcp(app, first.tokens.access_token, createQuiz)).status).toBe(403);
});

test('the rate limit counts per connected app: a refreshed token shares the bucket', async () => {
  const limited = await startOAuthTestApp({ config: { rateLimit: { max: 3, windowSeconds: 60 } } });
  try {
    const { agent } = await loggedInAgent(limited);
    const { client, tokens } = await connectApp(limited, agent);
    expect((await mcp(limited, tokens.access_token)).headers['ratelimit-remaining']).toBe('2');
    expect((await mcp(limited, tokens.access_token)).headers['ratelimit-remaining']).toBe('1');
    const renewed = await refresh(limited, client, tokens.refresh_token);
    expect((await mcp(limited, renewed.body.access_token)).headers['ratelimit-remaining']).toBe('0');
    const refused = await mcp(limited, renewed.body.access_token);
    expect(refused.status).toBe(429);
    expect(refused.body.code).toBe('rate_limited');
    // Another app of the same person has its own bucket.
    const other = await connectApp(limited, agent);
    expect((await mcp(limited, other.tokens.access_token)).status).toBe(200);
  } finally {
    await limited.close();
  }
});
