// The authorization endpoint and its consent page: login round trip, what the page shows
// (escaped), CSRF and framing, deny, and every request that must not yield a code.
import request from 'supertest';
import { csrfFrom, logIn, newAgent, squash } from '../dashboard/dashboard-helpers';
import { createTestUser, raisedLimits, type TestApp } from '../helpers/test-app';
import {
  authorizationParams,
  authorizePath,
  consentFields,
  decide,
  loggedInAgent,
  obtainCode,
  redirectQuery,
  registerClient,
  registerPublicClient,
  startOAuthTestApp,
  tokenRequest,
  type AuthorizationParams,
} from './oauth-helpers';

let app: TestApp;
beforeAll(async () => {
  // Dozens of consent pages from one test address: the limit itself is tested on its own.
  app = await startOAuthTestApp({ config: raisedLimits() });
});
afterAll(async () => {
  await app.close();
});

const codeCount = () => app.database.prisma.oAuthAuthorizationCode.count();

test('not logged in: to the login page, and after logging in back to the same request', async () => {
  const client = await registerPublicClient(app);
  const { params } = authorizationParams(client);
  const path = authorizePath(params);
  const agent = newAgent(app);
  const first = await agent.get(path);
  expect(first.status).toBe(303);
  expect(first.headers.location).toBe(`/login?returnTo=${encodeURIComponent(path)}`);
  const loginPage = await agent.get(first.headers.location!);
  expect(loginPage.text).toContain('Log in to continue connecting your AI assistant.');
  const user = await createTestUser(app, 'login-first');
  const loggedIn = await logIn(agent, user.email, user.password, { returnTo: path });
  expect(loggedIn.status).toBe(303);
  expect(loggedIn.headers.location).toBe(path);
  const consent = await agent.get(path);
  expect(consent.status).toBe(200);
  expect(consent.text).toContain('Allow “Test assistant” to use your quiz account?');
});

test('the consent page names the client (escaped), the redirect host with a loopback warning, and the scopes in words', async () => {
  const { agent } = await loggedInAgent(app);
  const client = await registerPublicClient(app, { client_name: '<script>alert("x")</script> & Co' });
  const { params } = authorizationParams(client);
  const page = await agent.get(authorizePath(params));
  expect(page.status).toBe(200);
  expect(page.headers['cache-control']).toBe('no-store');
  expect(page.text).not.toContain('<script>alert');
  expect(page.text).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
  const text = squash(page.text);
  expect(text).toContain('<code>127.0.0.1:8976</code>');
  expect(text).toContain('That address is on your own computer.');
  expect(text).toContain('See your quizzes and their results');
  expect(text).toContain('Create, change, publish and delete your quizzes');
  expect(text).toContain('This app registered itself, so its name was not checked.');
});

test('the consent page cannot be framed and sends a CSP; it adds no form-action (the 303 to the client must pass)', async () => {
  const { agent } = await loggedInAgent(app);
  const client = await registerPublicClient(app);
  const page = await agent.get(authorizePath(authorizationParams(client).params));
  expect(page.headers['x-frame-options']).toBe('DENY');
  expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
  expect(page.headers['content-security-policy']).not.toContain('form-action');
  expect(page.headers['referrer-policy']).toBe('no-referrer');
});

test('CSRF: the decision needs the session token and a same-origin (or null) Origin', async () => {
  const { agent } = await loggedInAgent(app);
  const client = await registerPublicClient(app);
  const { params } = authorizationParams(client);
  const page = await agent.get(authorizePath(params));
  const fields = consentFields(page.text);
  const before = await codeCount();
  const { _csrf: _token, ...withoutToken } = fields;
  const noToken = await agent
    .post('/oauth/authorize')
    .type('form')
    .send({ ...withoutToken, decision: 'approve' });
  expect(noToken.status).toBe(403);
  const foreign = await agent
    .post('/oauth/authorize')
    .set('Origin', 'https://evil.example')
    .type('form')
    .send({ ...fields, decision: 'approve' });
  expect(foreign.status).toBe(403);
  // Another person's session token does not work either.
  const other = await loggedInAgent(app, 'other');
  const otherToken = csrfFrom((await other.agent.get('/dashboard')).text);
  const wrongToken = await agent
    .post('/oauth/authorize')
    .type('form')
    .send({ ...fields, _csrf: otherToken, decision: 'approve' });
  expect(wrongToken.status).toBe(403);
  expect(await codeCount()).toBe(before);
  // A plain POST without a session goes to the login page, not to the client.
  const anonymous = await request(app.app)
    .post('/oauth/authorize')
    .type('form')
    .send({ ...fields, decision: 'approve' });
  expect(anonymous.status).toBe(303);
  expect(anonymous.headers.location).toBe('/login');
});

test('approve: 303 to the redirect URI with code, state and iss', async () => {
  const { agent } = await loggedInAgent(app);
  const client = await registerPublicClient(app);
  const { params } = authorizationParams(client);
  const res = await decide(agent, params);
  expect(res.status).toBe(303);
  expect(res.headers.location!.startsWith(`${client.redirectUri}?`)).toBe(true);
  const query = redirectQuery(res);
  expect(query.get('code')).toMatch(/^qac_/);
  expect(query.get('state')).toBe(params.state);
  expect(query.get('iss')).toBe(app.baseUrl);
});

test('deny: 303 with error=access_denied and the state, and no code', async () => {
  const { agent } = await loggedInAgent(app);
  const client = await registerPublicClient(app);
  const { params } = authorizationParams(client);
  const before = await codeCount();
  const res = await decide(agent, params, 'deny');
  expect(res.status).toBe(303);
  const query = redirectQuery(res);
  expect(query.get('error')).toBe('access_denied');
  expect(query.get('state')).toBe(params.state);
  expect(query.get('code')).toBeNull();
  expect(await codeCount()).toBe(before);
});

test('a redirect URI with its own query keeps it', async () => {
  const { agent } = await loggedInAgent(app);
  const redirect = 'https://app.example.com/cb?tenant=a%20b';
  const client = await registerPublicClient(app, { redirect_uris: [redirect] });
  const res = await decide(agent, authorizationParams(client).params);
  expect(res.headers.location!.startsWith(`${redirect}&code=qac_`)).toBe(true);
});

describe('requests that get an error at the redirect URI and no code', () => {
  const cases: Array<[string, Partial<AuthorizationParams>, string]> = [
    ['missing PKCE challenge', { code_challenge: undefined }, 'invalid_request'],
    ['plain PKCE', { code_challenge_method: 'plain' }, 'invalid_request'],
    [
      'missing challenge method (RFC 7636 would default to plain)',
      { code_challenge_method: undefined },
      'invalid_request',
    ],
    ['malformed challenge', { code_challenge: 'too-short' }, 'invalid_request'],
    ['challenge with a bad character', { code_challenge: `${'a'.repeat(42)}=` }, 'invalid_request'],
    ['foreign resource', { resource: 'https://evil.example/api/mcp' }, 'invalid_target'],
    ['resource with a trailing slash', { resource: 'RESOURCE/' }, 'invalid_target'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['unknown scopes only', { scope: 'admin' }, 'invalid_scope'],
  ];
  test.each(cases)('%s', async (_label, change, error) => {
    const { agent } = await loggedInAgent(app);
    const client = await registerPublicClient(app);
    const base = authorizationParams(client).params;
    const params = { ...base, ...change } as AuthorizationParams;
    if (params.resource === 'RESOURCE/') params.resource = `${app.baseUrl}/api/mcp/`;
    const before = await codeCount();
    const res = await agent.get(authorizePath(params));
    expect(res.status).toBe(303);
    const query = redirectQuery(res);
    expect(query.get('error')).toBe(error);
    expect(query.get('state')).toBe(base.state);
    expect(query.get('code')).toBeNull();
    // The POST is checked again: forged hidden fields get the same answer.
    const valid = await agent.get(authorizePath(base));
    const forged = await agent
      .post('/oauth/authorize')
      .type('form')
      .send({ ...consentFields(valid.text), ...params, decision: 'approve' });
    expect(forged.status).toBe(303);
    expect(redirectQuery(forged).get('error')).toBe(error);
    expect(await codeCount()).toBe(before);
  });

  test('the canonical resource, sent explicitly, is accepted and bound to the code', async () => {
    const { agent } = await loggedInAgent(app);
    const client = await registerPublicClient(app);
    const code = await obtainCode(
      agent,
      authorizationParams(client, { resource: `${app.baseUrl}/api/mcp` }).params,
    );
    expect(code).toMatch(/^qac_/);
  });
});

describe('errors about the client or the redirect URI: a page, never a redirect', () => {
  const registered = 'https://claude.ai/api/mcp/auth_callback';
  const lookalikes = [
    ['trailing slash', `${registered}/`],
    ['extra query', `${registered}?x=1`],
    ['userinfo', 'https://claude.ai@evil.example/api/mcp/auth_callback'],
    ['sub-domain trick', 'https://claude.ai.evil.example/api/mcp/auth_callback'],
    ['other sub-domain', 'https://evil.claude.ai/api/mcp/auth_callback'],
    ['http instead of https', 'http://claude.ai/api/mcp/auth_callback'],
    ['upper-case host', 'https://CLAUDE.ai/api/mcp/auth_callback'],
    ['path prefix', 'https://claude.ai/api/mcp/auth_callback/../../evil'],
    ['fragment', `${registered}#x`],
    ['javascript', 'javascript:alert(1)'],
  ];
  test.each(lookalikes)('%s', async (_label, redirectUri) => {
    const { agent } = await loggedInAgent(app);
    const client = await registerPublicClient(app, { redirect_uris: [registered] });
    const res = await agent.get(
      authorizePath(authorizationParams(client, { redirect_uri: redirectUri }).params),
    );
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toContain('not one this app registered');
  });

  test('an unknown client_id, and a missing one', async () => {
    const { agent } = await loggedInAgent(app);
    const unknown = await agent.get(
      authorizePath({
        client_id: 'qci_doesnotexist',
        redirect_uri: 'https://evil.example/cb',
        response_type: 'code',
      }),
    );
    expect(unknown.status).toBe(400);
    expect(unknown.headers.location).toBeUndefined();
    expect(unknown.text).toContain('No app is registered with this client_id');
    const missing = await agent.get(
      '/oauth/authorize?response_type=code&redirect_uri=https://evil.example/cb',
    );
    expect(missing.status).toBe(400);
    expect(missing.headers.location).toBeUndefined();
  });

  test('the page shows up before any login (nothing to log in for)', async () => {
    const res = await request(app.app).get(authorizePath({ client_id: 'qci_nope', response_type: 'code' }));
    expect(res.status).toBe(400);
  });

  test('several registered redirect URIs: redirect_uri is required', async () => {
    const { agent } = await loggedInAgent(app);
    const client = await registerPublicClient(app, {
      redirect_uris: ['https://a.example/cb', 'https://b.example/cb'],
    });
    const res = await agent.get(
      authorizePath(authorizationParams(client, { redirect_uri: undefined }).params),
    );
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  test('one registered redirect URI: it may be left out, and then not repeated at the token request', async () => {
    const { agent } = await loggedInAgent(app);
    const client = await registerPublicClient(app, { redirect_uris: ['https://only.example/cb'] });
    const { params, verifier } = authorizationParams(client, { redirect_uri: undefined });
    const res = await decide(agent, params);
    expect(res.headers.location!.startsWith('https://only.example/cb?code=')).toBe(true);
    const code = redirectQuery(res).get('code')!;
    const token = await tokenRequest(app, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      client_id: client.clientId,
    });
    expect(token.status).toBe(200);
  });
});

describe('loopback redirect URIs (RFC 8252 7.3)', () => {
  test('any port is accepted for a registered loopback URI; the path and host must match', async () => {
    const { agent } = await loggedInAgent(app);
    const client = await registerPublicClient(app, {
      redirect_uris: ['http://127.0.0.1/callback', 'http://localhost:3000/cb'],
    });
    for (const redirectUri of [
      'http://127.0.0.1:53124/callback',
      'http://127.0.0.1/callback',
      'http://localhost:61000/cb',
    ]) {
      const res = await decide(agent, authorizationParams(client, { redirect_uri: redirectUri }).params);
      expect(res.headers.location!.startsWith(`${redirectUri}?code=qac_`)).toBe(true);
    }
    for (const redirectUri of [
      'http://127.0.0.1:53124/callback/x',
      'http://localhost:53124/callback',
      'http://[::1]:53124/callback',
      'http://127.0.0.2:53124/callback',
      'https://127.0.0.1:53124/callback',
    ]) {
      const res = await agent.get(
        authorizePath(authorizationParams(client, { redirect_uri: redirectUri }).params),
      );
      expect({ redirectUri, status: res.status }).toEqual({ redirectUri, status: 400 });
    }
  });

  test('a custom-scheme redirect (cursor://) works and the page says an app will open', async () => {
    const { agent } = await loggedInAgent(app);
    const redirect = 'cursor://anysphere.cursor-retrieval/oauth/user-quiz/callback';
    const res = await registerClient(app, {
      client_name: 'Cursor',
      redirect_uris: [redirect],
      token_endpoint_auth_method: 'none',
    });
    const client = { clientId: res.body.client_id as string, redirectUri: redirect };
    const { params } = authorizationParams(client);
    const page = await agent.get(authorizePath(params));
    expect(squash(page.text)).toContain(
      'That opens the app on this device that handles <code>cursor://anysphere.cursor-retrieval</code> links.',
    );
    const approved = await decide(agent, params);
    expect(approved.headers.location!.startsWith(`${redirect}?code=qac_`)).toBe(true);
  });
});
