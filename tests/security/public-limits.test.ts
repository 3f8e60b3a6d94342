// What anyone may do without a credential is limited per address, with a page (HTML) or a
// problem body (API) that says how long to wait; and the authorization endpoint sends nobody
// to a redirect URI before the person has logged in.
import request from 'supertest';
import { testConfig } from '../../src/config';
import { csrfOf, newAgent, PASSWORD, squash, uniqueEmail } from '../dashboard/dashboard-helpers';
import { raisedLimits, startTestApp, type TestApp } from '../helpers/test-app';
import {
  authorizationParams,
  authorizePath,
  loggedInAgent,
  redirectQuery,
  registerPublicClient,
  type AuthorizationParams,
} from '../oauth/oauth-helpers';

async function signUpAttempt(app: TestApp, email = uniqueEmail('limit')) {
  const agent = newAgent(app);
  const token = await csrfOf(agent, '/signup');
  return agent.post('/signup').type('form').send({ _csrf: token, email, password: PASSWORD });
}

describe('sign-up: 10 accounts an hour per address', () => {
  let app: TestApp;
  let clock = Date.parse('2026-11-25T10:00:00Z');
  beforeAll(async () => {
    app = await startTestApp({ now: () => clock });
  });
  afterAll(() => app.close());

  test('the 11th is refused with a page that says how long to wait, and an hour later it works', async () => {
    expect(app.config.limits.signupsPerHour).toBe(10);
    for (let i = 0; i < 10; i += 1) expect((await signUpAttempt(app)).status).toBe(303);
    const refused = await signUpAttempt(app);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(refused.headers['retry-after'])).toBe(3600);
    expect(squash(refused.text)).toContain('wait 60 minutes and try again');
    clock += 60 * 60 * 1000;
    expect((await signUpAttempt(app)).status).toBe(303);
  });

  test('a taken email says so, in any case or padding, and each such answer uses up the budget', async () => {
    clock += 60 * 60 * 1000;
    const taken = uniqueEmail('taken');
    expect((await signUpAttempt(app, taken)).status).toBe(303);
    for (const probe of [taken.toUpperCase(), `  ${taken} `, taken]) {
      const res = await signUpAttempt(app, probe);
      expect(res.status).toBe(409);
      expect(squash(res.text)).toContain('An account with this email already exists. Log in instead.');
    }
    // One account and three probes: six sign-ups or probes left this hour, whatever they are.
    for (let i = 0; i < 6; i += 1) expect((await signUpAttempt(app)).status).toBe(303);
    expect((await signUpAttempt(app, taken)).status).toBe(429);
    expect((await signUpAttempt(app)).status).toBe(429);
  });

  test('forms that fail validation do not use up the budget', async () => {
    clock += 60 * 60 * 1000;
    for (let i = 0; i < 15; i += 1) {
      const agent = newAgent(app);
      const token = await csrfOf(agent, '/signup');
      const short = await agent
        .post('/signup')
        .type('form')
        .send({ _csrf: token, email: uniqueEmail(), password: 'x' });
      expect(short.status).toBe(422);
    }
    for (let i = 0; i < 10; i += 1) expect((await signUpAttempt(app)).status).toBe(303);
  });
});

describe('the authorization endpoint: 60 requests a minute per address', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ config: { limits: { ...testConfig().limits, authorizePerMinute: 3 } } });
  });
  afterAll(() => app.close());

  test('past the limit, a 429 page with Retry-After, before any other check', async () => {
    expect(testConfig().limits.authorizePerMinute).toBe(60);
    for (let i = 0; i < 3; i += 1) expect((await request(app.app).get('/oauth/authorize')).status).toBe(400);
    const refused = await request(app.app).get('/oauth/authorize');
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['content-security-policy']).toBeDefined();
    expect(squash(refused.text)).toContain('too many attempts to open this connection page');
  });
});

describe('authorization errors are never redirected before the person logs in', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ config: raisedLimits() });
  });
  afterAll(() => app.close());

  const errors: Array<[string, Partial<AuthorizationParams>]> = [
    ['an unknown scope', { scope: 'admin' }],
    ['no PKCE challenge', { code_challenge: undefined }],
    ['a foreign resource', { resource: 'https://evil.example/api/mcp' }],
    ['response_type token', { response_type: 'token' }],
  ];

  test.each(errors)(
    '%s: a page without Location when logged out; the redirect once logged in',
    async (_label, change) => {
      // Anyone can register a client with a redirect URI of their choosing (dynamic registration).
      const client = await registerPublicClient(app, { redirect_uris: ['https://phish.example/cb'] });
      const params = { ...authorizationParams(client).params, ...change } as AuthorizationParams;

      const anonymous = await request(app.app).get(authorizePath(params));
      expect(anonymous.status).toBe(400);
      expect(anonymous.headers.location).toBeUndefined();
      expect(anonymous.text).not.toContain('phish.example');
      expect(squash(anonymous.text)).toContain('This app cannot be connected');

      const { agent } = await loggedInAgent(app);
      const signedIn = await agent.get(authorizePath(params));
      expect(signedIn.status).toBe(303);
      expect(signedIn.headers.location).toMatch(/^https:\/\/phish\.example\/cb\?/);
      expect(redirectQuery(signedIn).get('error')).toBeTruthy();
    },
  );
});
