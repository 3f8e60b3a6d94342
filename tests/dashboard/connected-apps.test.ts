// Connected apps: the placeholder of the real app, and a provider plugged in the way the
// OAuth module will (dashboardRouter({ connectedApps })), on a bare express app.
import express from 'express';
import request from 'supertest';
import type { ConnectedApp, ConnectedAppsProvider } from '../../src/identity/connected-apps';
import { dashboardRouter } from '../../src/dashboard/router';
import { createLogger } from '../../src/logger';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { csrfFrom, logIn, newAgent, signUp } from './dashboard-helpers';

const PATH = '/settings/connected-apps';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app.close();
});

test('until OAuth is there, the page says that no apps are connected', async () => {
  const agent = newAgent(app);
  await signUp(agent);
  const res = await agent.get(PATH);
  expect(res.status).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.text).toContain('No apps are connected.');
  expect(res.text).toContain('aria-current="page">Connected apps</a>');
});

test('needs a login', async () => {
  const res = await request(app.app).get(PATH);
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe(`/login?returnTo=${encodeURIComponent(PATH)}`);
});

describe('with a provider plugged in', () => {
  const revoked: string[] = [];
  const apps = new Map<string, ConnectedApp[]>();
  const provider: ConnectedAppsProvider = {
    async list(userId) {
      return (apps.get(userId) ?? []).filter((item) => !revoked.includes(item.id));
    },
    async revoke(userId, appId) {
      if (!(apps.get(userId) ?? []).some((item) => item.id === appId) || revoked.includes(appId))
        return false;
      revoked.push(appId);
      return true;
    },
  };
  const bare = () => {
    const server = express();
    server.use(
      dashboardRouter({
        config: app.config,
        deps: app.deps,
        logger: createLogger('silent'),
        connectedApps: provider,
      }),
    );
    return server;
  };

  test('lists the apps (names escaped, scopes in plain words) and revokes one with CSRF', async () => {
    const user = await createTestUser(app, 'connected');
    apps.set(user.id, [
      {
        id: 'grant-1',
        name: 'Claude <img src=x>',
        redirectHost: 'claude.ai',
        scopes: ['quizzes:read', 'quizzes:write'],
        connectedAt: new Date('2026-01-02T03:04:00Z'),
        lastUsedAt: null,
      },
    ]);
    const agent = request.agent(bare());
    expect((await logIn(agent, user.email, user.password)).status).toBe(303);
    const page = await agent.get(PATH);
    expect(page.text).toContain('Claude &lt;img src=x&gt;');
    expect(page.text).not.toContain('<img src=x>');
    expect(page.text).toContain('See your quizzes and their results');
    expect(page.text).toContain('Create, change, publish and delete your quizzes');
    expect(page.text).toContain('<code>claude.ai</code>');

    expect((await agent.post(`${PATH}/grant-1/revoke`).type('form').send({})).status).toBe(403);
    expect(revoked).toEqual([]);
    const res = await agent
      .post(`${PATH}/grant-1/revoke`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text) });
    expect(res.status).toBe(303);
    expect(revoked).toEqual(['grant-1']);
    const after = await agent.get(PATH);
    expect(after.text).toContain('is disconnected');
    expect(after.text).toContain('No apps are connected.');
  });

  test("another user's app id is not revoked", async () => {
    const owner = await createTestUser(app, 'owner');
    apps.set(owner.id, [
      {
        id: 'grant-2',
        name: 'Cursor',
        redirectHost: null,
        scopes: ['quizzes:read'],
        connectedAt: new Date(),
        lastUsedAt: null,
      },
    ]);
    const other = await createTestUser(app, 'other');
    const agent = request.agent(bare());
    await logIn(agent, other.email, other.password);
    const token = csrfFrom((await agent.get(PATH)).text);
    await agent.post(`${PATH}/grant-2/revoke`).type('form').send({ _csrf: token });
    expect(revoked).not.toContain('grant-2');
    expect((await agent.get(PATH)).text).toContain('already disconnected');
  });
});
