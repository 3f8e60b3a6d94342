// Sign up, log in, log out: forms, CSRF, sessions, redirects, headers.
import request from 'supertest';
import { sha256Hex } from '../../src/domain/api-keys';
import { startTestApp, type TestApp } from '../helpers/test-app';
import {
  csrfFrom,
  csrfOf,
  errorSummaryText,
  logIn,
  newAgent,
  PASSWORD,
  setCookie,
  signUp,
  squash,
  uniqueEmail,
} from './dashboard-helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

const userCount = (email: string) => app.database.prisma.user.count({ where: { email } });

describe('pages', () => {
  test.each(['/signup', '/login'])(
    '%s: accessible form, CSRF field, security headers, not cacheable',
    async (path) => {
      const res = await request(app.app).get(path);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
      expect(res.headers['content-security-policy']).toMatch(/script-src 'self'/);
      expect(res.headers['x-frame-options']).toBe('DENY');
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.text).toMatch(/<label for="email">Email<\/label>/);
      expect(res.text).toMatch(/<label for="password">Password<\/label>/);
      expect(res.text).toMatch(/<meta name="robots" content="noindex, nofollow" ?\/?>/);
      csrfFrom(res.text);
    },
  );

  test('unknown dashboard paths get an HTML 404; other paths keep the API 404', async () => {
    const agent = newAgent(app);
    await signUp(agent);
    const page = await agent.get('/dashboard/nothing-here');
    expect(page.status).toBe(404);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const api = await request(app.app).get('/not-a-page');
    expect(api.status).toBe(404);
    expect(api.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(api.headers['content-security-policy']).toBeUndefined();
  });
});

describe('sign up', () => {
  test('creates the account, logs in with a hashed server-side session and a safe cookie', async () => {
    const agent = newAgent(app);
    const email = uniqueEmail();
    const token = await csrfOf(agent, '/signup');
    const res = await agent.post('/signup').type('form').send({ _csrf: token, email, password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard');
    const cookie = setCookie(res, 'quiz_session')!;
    expect(cookie).toMatch(/; HttpOnly/);
    expect(cookie).toMatch(/; SameSite=Lax/);
    expect(cookie).toMatch(/; Path=\//);
    expect(cookie).toMatch(/; Max-Age=1209600/); // 14 days
    expect(cookie).not.toMatch(/Secure/); // the test base URL is http
    const raw = decodeURIComponent(/^quiz_session=([^;]+)/.exec(cookie)![1]!);
    const rows = await app.database.prisma.session.findMany({ where: { user: { email } } });
    expect(rows).toHaveLength(1);
    expect(rows[0]!.tokenHash).toBe(sha256Hex(raw));
    expect(JSON.stringify(rows)).not.toContain(raw);

    const dashboard = await agent.get('/dashboard');
    expect(dashboard.status).toBe(200);
    expect(dashboard.text).toContain(email);
    expect(dashboard.text).toContain('Welcome! Your account is ready.');
  });

  test('invalid input: 422 with an error summary, aria-invalid fields, the email kept, the password not', async () => {
    const agent = newAgent(app);
    const token = await csrfOf(agent, '/signup');
    const res = await agent
      .post('/signup')
      .type('form')
      .send({ _csrf: token, email: 'not-an-email', password: 'short' });
    expect(res.status).toBe(422);
    expect(errorSummaryText(res.text)).toMatch(
      /There is a problem.*Enter an email address.*Use a password of 10 to 200 characters/,
    );
    expect(squash(res.text)).toMatch(
      /<input id="email"[^>]*value="not-an-email"[^>]*aria-describedby="email-error"[^>]*aria-invalid="true">/,
    );
    expect(squash(res.text)).toMatch(/<input id="password"[^>]*aria-invalid="true">/);
    expect(res.text).not.toContain('value="short"');
  });

  test('an email already registered is refused with a way forward', async () => {
    const first = await signUp(newAgent(app));
    const agent = newAgent(app);
    const token = await csrfOf(agent, '/signup');
    const res = await agent
      .post('/signup')
      .type('form')
      .send({ _csrf: token, email: first.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(409); // a conflict with an existing account, not a malformed form
    expect(errorSummaryText(res.text)).toContain(
      'An account with this email already exists. Log in instead.',
    );
    // Said once: at the top, not again beside the email field.
    expect(squash(res.text).split('An account with this email already exists.')).toHaveLength(2);
    expect(squash(res.text)).not.toMatch(/<input id="email"[^>]*aria-invalid/);
  });

  test.each([
    ['missing', undefined],
    ['wrong', 'not-the-token'],
  ])('CSRF token %s: 403 page and no account', async (_label, value) => {
    const agent = newAgent(app);
    await csrfOf(agent, '/signup');
    const email = uniqueEmail();
    const res = await agent
      .post('/signup')
      .type('form')
      .send({ ...(value ? { _csrf: value } : {}), email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/nothing was\s+changed/i);
    expect(await userCount(email)).toBe(0);
  });

  test("another browser's token does not work (the token is bound to this browser's cookie)", async () => {
    const theirs = await csrfOf(newAgent(app), '/signup');
    const agent = newAgent(app);
    await csrfOf(agent, '/signup');
    const email = uniqueEmail();
    const res = await agent.post('/signup').type('form').send({ _csrf: theirs, email, password: PASSWORD });
    expect(res.status).toBe(403);
    expect(await userCount(email)).toBe(0);
  });

  test('a post from another origin is refused even with a valid token; our own origin is fine', async () => {
    const agent = newAgent(app);
    const token = await csrfOf(agent, '/signup');
    const email = uniqueEmail();
    for (const origin of ['https://evil.example', `${app.baseUrl}.evil.example`, 'http://127.0.0.1']) {
      const res = await agent
        .post('/signup')
        .set('Origin', origin)
        .type('form')
        .send({ _csrf: token, email, password: PASSWORD });
      expect(res.status).toBe(403);
      expect(res.text).toContain('sent from another site');
    }
    const crossSite = await agent
      .post('/signup')
      .set('Sec-Fetch-Site', 'cross-site')
      .type('form')
      .send({ _csrf: token, email, password: PASSWORD });
    expect(crossSite.status).toBe(403);
    expect(await userCount(email)).toBe(0);
    const ok = await agent
      .post('/signup')
      .set('Origin', app.baseUrl)
      .type('form')
      .send({ _csrf: token, email, password: PASSWORD });
    expect(ok.status).toBe(303);
    expect(await userCount(email)).toBe(1);
  });

  test('Origin: null (what browsers send under Referrer-Policy: no-referrer) leaves the decision to the token', async () => {
    const agent = newAgent(app);
    const token = await csrfOf(agent, '/signup');
    const email = uniqueEmail();
    const forged = await agent
      .post('/signup')
      .set('Origin', 'null')
      .type('form')
      .send({ email, password: PASSWORD });
    expect(forged.status).toBe(403);
    expect(await userCount(email)).toBe(0);
    const ok = await agent
      .post('/signup')
      .set('Origin', 'null')
      .type('form')
      .send({ _csrf: token, email, password: PASSWORD });
    expect(ok.status).toBe(303);
  });
});

describe('log in', () => {
  let email: string;
  beforeAll(async () => {
    ({ email } = await signUp(newAgent(app)));
  });

  test('right password: 303 to the dashboard, with a new session id each time (no fixation)', async () => {
    const agent = newAgent(app);
    const first = await logIn(agent, email, PASSWORD);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/dashboard');
    const firstCookie = setCookie(first, 'quiz_session')!;
    const again = await logIn(newAgent(app), email, PASSWORD);
    expect(setCookie(again, 'quiz_session')).not.toBe(firstCookie);
    // Logging in again from the same browser replaces its session: the old id is dead.
    const before = await app.database.prisma.session.count({ where: { user: { email } } });
    const token = csrfFrom((await agent.get('/dashboard')).text);
    const relog = await agent.post('/login').type('form').send({ _csrf: token, email, password: PASSWORD });
    expect(relog.status).toBe(303);
    expect(await app.database.prisma.session.count({ where: { user: { email } } })).toBe(before);
    const stale = await request(app.app).get('/dashboard').set('Cookie', firstCookie.split(';')[0]!);
    expect(stale.status).toBe(303);
  });

  test('unknown email and wrong password get the same status and the same message', async () => {
    const wrong = await logIn(newAgent(app), email, 'wrong password here');
    const unknown = await logIn(newAgent(app), uniqueEmail('nobody'), 'wrong password here');
    expect(wrong.status).toBe(422);
    expect(unknown.status).toBe(422);
    expect(errorSummaryText(wrong.text)).toBe(errorSummaryText(unknown.text));
    expect(errorSummaryText(wrong.text)).toContain('The email or password is not right.');
    expect(setCookie(wrong, 'quiz_session')).toBeUndefined();
  });

  test('CSRF token missing or wrong: 403 and not logged in', async () => {
    for (const body of [
      { email, password: PASSWORD },
      { _csrf: 'x'.repeat(43), email, password: PASSWORD },
    ]) {
      const agent = newAgent(app);
      await csrfOf(agent, '/login');
      const res = await agent.post('/login').type('form').send(body);
      expect(res.status).toBe(403);
      expect(setCookie(res, 'quiz_session')).toBeUndefined();
      expect((await agent.get('/dashboard')).status).toBe(303);
    }
  });

  test('returnTo: a local path is followed', async () => {
    const agent = newAgent(app);
    const gate = await agent.get('/settings/security/api-keys?tab=1');
    expect(gate.status).toBe(303);
    expect(gate.headers.location).toBe('/login?returnTo=%2Fsettings%2Fsecurity%2Fapi-keys%3Ftab%3D1');
    const page = await agent.get(gate.headers.location!);
    expect(squash(page.text)).toContain(
      '<input type="hidden" name="returnTo" value="/settings/security/api-keys?tab=1">',
    );
    const res = await agent
      .post('/login')
      .type('form')
      .send({
        _csrf: csrfFrom(page.text),
        email,
        password: PASSWORD,
        returnTo: '/settings/security/api-keys?tab=1',
      });
    expect(res.headers.location).toBe('/settings/security/api-keys?tab=1');
  });

  test.each([
    'https://evil.example/',
    '//evil.example/path',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/\t/evil.example',
    'javascript:alert(1)',
    'http:evil.example',
    '  //evil.example',
    '/login?returnTo=//evil.example',
  ])('returnTo %j is refused: the login lands on /dashboard', async (returnTo) => {
    const agent = newAgent(app);
    const page = await agent.get(`/login?returnTo=${encodeURIComponent(returnTo)}`);
    expect(page.text).not.toContain('name="returnTo"');
    const res = await logIn(agent, email, PASSWORD, { returnTo });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard');
  });

  test('already logged in: /login and /signup go straight on', async () => {
    const agent = newAgent(app);
    await logIn(agent, email, PASSWORD);
    expect((await agent.get('/login')).headers.location).toBe('/dashboard');
    expect((await agent.get('/signup?returnTo=/settings/connected-apps')).headers.location).toBe(
      '/settings/connected-apps',
    );
  });

  test('an expired session is gone: back to the login page, and the row is deleted', async () => {
    const agent = newAgent(app);
    const { email } = await signUp(agent);
    await app.database.prisma.session.updateMany({
      where: { user: { email } },
      data: { expiresAt: new Date(Date.now() - 1000) },
    });
    const res = await agent.get('/dashboard');
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login?returnTo=%2Fdashboard');
    expect(await app.database.prisma.session.count({ where: { user: { email } } })).toBe(0);
  });

  test('the idle expiry slides, written at most once a minute', async () => {
    const agent = newAgent(app);
    await logIn(agent, email, PASSWORD);
    const [row] = await app.database.prisma.session.findMany({
      where: { user: { email } },
      orderBy: { createdAt: 'desc' },
      take: 1,
    });
    // Quiet for two minutes: the next page slides the expiry and refreshes the cookie.
    const past = new Date(Date.now() - 120_000);
    await app.database.prisma.session.update({
      where: { id: row!.id },
      data: { lastSeenAt: past, expiresAt: new Date(Date.now() + 1000) },
    });
    const res = await agent.get('/dashboard');
    expect(res.status).toBe(200);
    expect(setCookie(res, 'quiz_session')).toMatch(/Max-Age=\d+/);
    const slid = await app.database.prisma.session.findUniqueOrThrow({ where: { id: row!.id } });
    expect(slid.expiresAt.getTime()).toBeGreaterThan(Date.now() + 13 * 24 * 3600 * 1000);
    // Right after, no write and no new cookie.
    const next = await agent.get('/dashboard');
    expect(setCookie(next, 'quiz_session')).toBeUndefined();
  });
});

describe('log out', () => {
  test('needs the CSRF token; then the session is deleted and the pages are locked', async () => {
    const agent = newAgent(app);
    const { email } = await signUp(agent);
    const cookieRow = await app.database.prisma.session.count({ where: { user: { email } } });
    expect(cookieRow).toBe(1);

    const refused = await agent.post('/logout').type('form').send({});
    expect(refused.status).toBe(403);
    expect((await agent.get('/dashboard')).status).toBe(200);

    const token = csrfFrom((await agent.get('/dashboard')).text);
    const res = await agent.post('/logout').type('form').send({ _csrf: token });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login');
    expect(setCookie(res, 'quiz_session')).toMatch(/Expires=Thu, 01 Jan 1970/);
    expect(await app.database.prisma.session.count({ where: { user: { email } } })).toBe(0);
    const login = await agent.get('/login');
    expect(login.text).toContain('You are logged out.');
    for (const path of ['/dashboard', '/settings/security/api-keys', '/settings/connected-apps']) {
      const locked = await agent.get(path);
      expect(locked.status).toBe(303);
      expect(locked.headers.location).toBe(`/login?returnTo=${encodeURIComponent(path)}`);
    }
  });

  test('GET /logout only shows a button; a POST without a session just goes to the login page', async () => {
    const agent = newAgent(app);
    await signUp(agent);
    const page = await agent.get('/logout');
    expect(page.status).toBe(200);
    expect(page.text).toContain('action="/logout"');
    expect((await agent.get('/dashboard')).status).toBe(200);
    const anonymous = await request(app.app).post('/logout').type('form').send({});
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.location).toBe('/login');
  });

  test('a form post to a protected page without a session changes nothing and asks to log in', async () => {
    const res = await request(app.app)
      .post('/settings/security/api-keys')
      .type('form')
      .send({ name: 'sneaky' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/login');
    expect(await app.database.prisma.apiKey.count({ where: { name: 'sneaky' } })).toBe(0);
  });
});
