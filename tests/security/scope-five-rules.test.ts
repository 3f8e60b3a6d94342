// Three decided rules: the pre-session CSRF token is refused once a session exists (a planted
// nonce cookie cannot stand in for the session's token); HSTS on every answer over https, the
// JSON API and its description included; "Send test event" is limited per endpoint.
import request from 'supertest';
import { TEST_EVENTS_PER_MINUTE } from '../../src/dashboard/context';
import { HSTS_MAX_AGE_SECONDS } from '../../src/http/strict-transport';
import { csrfFrom, errorSummaryText, logIn, newAgent, squash } from '../dashboard/dashboard-helpers';
import { createTestUser, raisedLimits, startTestApp, type TestApp } from '../helpers/test-app';
import { startReceiver, type Receiver } from '../webhooks/receiver';

describe('the pre-session CSRF token', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({
      config: { ...raisedLimits(), webhooks: { allowLoopback: true, secretKey: undefined } },
    });
  });
  afterAll(async () => {
    await app.close();
  });

  test('is refused once a session exists, even with its nonce cookie planted back', async () => {
    const user = await createTestUser(app, 'csrf');
    const agent = newAgent(app);
    const loginPage = await agent.get('/login');
    const preSession = csrfFrom(loginPage.text);
    const nonce = /quiz_csrf=([^;]+)/.exec(String(loginPage.headers['set-cookie']))![1]!;
    expect((await logIn(agent, user.email, user.password)).status).toBe(303);
    // Cookie tossing: another host on the same name sets the nonce cookie the attacker knows.
    const planted = `quiz_csrf=${nonce}`;
    const forged = await agent
      .post('/settings/webhooks')
      .set('Cookie', planted)
      .type('form')
      .send({ _csrf: preSession, url: 'http://127.0.0.1:9/hook', events: 'quiz.published', scope: 'all' });
    expect(forged.status).toBe(403);
    expect(await app.deps.repos.webhooks.endpoints(user.id)).toEqual([]);
    // The session's own token still works.
    const token = csrfFrom((await agent.get('/settings/webhooks')).text);
    expect(token).not.toBe(preSession);
    const real = await agent
      .post('/settings/webhooks')
      .type('form')
      .send({ _csrf: token, url: 'http://127.0.0.1:9/hook', events: 'quiz.published', scope: 'all' });
    expect(real.status).toBe(303);
  });

  test('still serves the forms before log-in', async () => {
    const user = await createTestUser(app, 'csrf-before');
    expect((await logIn(newAgent(app), user.email, user.password)).status).toBe(303);
  });
});

describe('HSTS', () => {
  test('over https: every answer carries it, pages, /api/*, /openapi.json and errors alike', async () => {
    const app = await startTestApp({ config: { baseUrl: 'https://quiz.example.com', enforceHost: false } });
    try {
      const answers: Array<[string, request.Response]> = [
        ['/', await request(app.app).get('/')],
        ['/openapi.json', await request(app.app).get('/openapi.json')],
        [
          '/api/mcp',
          await request(app.app).post('/api/mcp').set('Content-Type', 'application/json').send('{}'),
        ],
        ['/api/nothing-here', await request(app.app).get('/api/nothing-here')],
        ['/healthz', await request(app.app).get('/healthz')],
      ];
      for (const [path, res] of answers) {
        expect({ path, hsts: res.headers['strict-transport-security'] }).toEqual({
          path,
          hsts: `max-age=${HSTS_MAX_AGE_SECONDS}`,
        });
      }
    } finally {
      await app.close();
    }
  });

  test('over plain http it is never sent', async () => {
    const app = await startTestApp();
    try {
      for (const path of ['/', '/openapi.json', '/healthz']) {
        expect((await request(app.app).get(path)).headers['strict-transport-security']).toBeUndefined();
      }
    } finally {
      await app.close();
    }
  });
});

describe('Send test event', () => {
  let app: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    app = await startTestApp({
      config: { ...raisedLimits(), webhooks: { allowLoopback: true, secretKey: undefined } },
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await app.close();
  });

  test(`at most ${TEST_EVENTS_PER_MINUTE} a minute per endpoint; another endpoint has its own`, async () => {
    const user = await createTestUser(app, 'test-events');
    const agent = newAgent(app);
    expect((await logIn(agent, user.email, user.password)).status).toBe(303);
    const add = async (url: string) => {
      const token = csrfFrom((await agent.get('/settings/webhooks')).text);
      const res = await agent
        .post('/settings/webhooks')
        .type('form')
        .send({ _csrf: token, url, events: 'quiz.published', scope: 'all' });
      expect(res.status).toBe(303);
      return res.headers.location as string;
    };
    const sendTest = async (page: string) => {
      const token = csrfFrom((await agent.get(page)).text);
      expect((await agent.post(`${page}/test`).type('form').send({ _csrf: token })).status).toBe(303);
      return squash((await agent.get(page)).text);
    };
    const first = await add(`${receiver.url}?e=1`);
    for (let i = 0; i < TEST_EVENTS_PER_MINUTE; i += 1) {
      expect(await sendTest(first)).toMatch(/Test event: delivered/);
    }
    const refused = await sendTest(first);
    expect(refused).toContain(`At most ${TEST_EVENTS_PER_MINUTE} test events a minute per endpoint`);
    expect(receiver.received).toHaveLength(TEST_EVENTS_PER_MINUTE);
    const second = await add(`${receiver.url}?e=2`);
    expect(await sendTest(second)).toMatch(/Test event: delivered/);
    expect(receiver.received).toHaveLength(TEST_EVENTS_PER_MINUTE + 1);
    expect(errorSummaryText(refused)).toBe('');
  });
});
