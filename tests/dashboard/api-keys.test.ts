// Settings > Security > API keys: create (shown once), list, revoke, limit, CSRF, escaping.
import request from 'supertest';
import { raisedLimits, startTestApp, type TestApp } from '../helpers/test-app';
import {
  csrfFrom,
  errorSummaryText,
  newAgent,
  setCookie,
  signUp,
  squash,
  type Agent,
} from './dashboard-helpers';

const PATH = '/settings/security/api-keys';
const KEY_PATTERN = /svc_[0-9A-Za-z]{43}/;

let app: TestApp;
beforeAll(async () => {
  // Each test signs up its own owner from the one test address.
  app = await startTestApp({ config: raisedLimits() });
});
afterAll(async () => {
  await app.close();
});

async function loggedIn(): Promise<{ agent: Agent; email: string; userId: string }> {
  const agent = newAgent(app);
  const { email } = await signUp(agent);
  const user = await app.database.prisma.user.findUniqueOrThrow({ where: { email } });
  return { agent, email, userId: user.id };
}

async function createKey(agent: Agent, name: string) {
  const token = csrfFrom((await agent.get(PATH)).text);
  return agent.post(PATH).type('form').send({ _csrf: token, name });
}

function toolsList(key: string) {
  return request(app.app)
    .post('/api/mcp')
    .set('Authorization', `Bearer ${key}`)
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json, text/event-stream')
    .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
}

const activeKeys = (userId: string) =>
  app.database.prisma.apiKey.count({ where: { userId, revokedAt: null } });

test('needs a login', async () => {
  const res = await request(app.app).get(PATH);
  expect(res.status).toBe(303);
  expect(res.headers.location).toBe(`/login?returnTo=${encodeURIComponent(PATH)}`);
});

test('create -> 303 -> the full key once, with a warning and a copy button; a reload never shows it again', async () => {
  const { agent } = await loggedIn();
  const created = await createKey(agent, 'Claude Desktop');
  expect(created.status).toBe(303);
  expect(created.headers.location).toBe(PATH);
  expect(created.text).not.toMatch(KEY_PATTERN);

  const shown = await agent.get(PATH);
  expect(shown.status).toBe(200);
  expect(shown.headers['cache-control']).toBe('no-store');
  const key = KEY_PATTERN.exec(shown.text)![0];
  expect(shown.text).toContain('cannot be shown again');
  expect(shown.text).toContain('data-copy-target="new-key-value"');
  expect(shown.text).toContain('<script src="/assets/copy-button.js" defer></script>');
  expect(shown.text).toContain(`<code class="nowrap">${key.slice(0, 8)}…${key.slice(-4)}</code>`);
  expect(shown.text).toMatch(/<th scope="row"[^>]*>Claude Desktop<\/th>/);
  expect(shown.text).toContain('Never');

  const reload = await agent.get(PATH);
  expect(reload.text).not.toContain(key);
  expect(reload.text).not.toMatch(KEY_PATTERN);
  expect(reload.text).toContain(`${key.slice(0, 8)}…${key.slice(-4)}`);

  const res = await toolsList(key);
  expect(res.status).toBe(200);
  expect(res.text).toContain('create_quiz');
});

test('the one-time value is bound to its session: the flash cookie is useless in another session', async () => {
  const { agent } = await loggedIn();
  const created = await createKey(agent, 'bound');
  const flash = setCookie(created, 'quiz_flash')!.split(';')[0]!;
  const other = await loggedIn();
  const stolen = await other.agent.get(PATH).set('Cookie', flash);
  expect(stolen.status).toBe(200); // the other person's own page, logged in as them...
  expect(stolen.text).toContain(other.email);
  expect(stolen.text).not.toMatch(KEY_PATTERN); // ...without the key sealed for the first session
  const mine = await agent.get(PATH);
  expect(mine.text).toMatch(KEY_PATTERN);
});

test('revoke: the key gets 401 on the next request to /api/mcp', async () => {
  const { agent, userId } = await loggedIn();
  await createKey(agent, 'to revoke');
  const key = KEY_PATTERN.exec((await agent.get(PATH)).text)![0];
  expect((await toolsList(key)).status).toBe(200);
  const row = await app.database.prisma.apiKey.findFirstOrThrow({ where: { userId, name: 'to revoke' } });
  const page = await agent.get(PATH);
  const res = await agent
    .post(`${PATH}/${row.id}/revoke`)
    .type('form')
    .send({ _csrf: csrfFrom(page.text) });
  expect(res.status).toBe(303);
  const after = await agent.get(PATH);
  expect(after.text).toContain('The key “to revoke” is revoked.');
  expect(after.text).not.toMatch(/<th scope="row"[^>]*>to revoke<\/th>/);
  const denied = await toolsList(key);
  expect(denied.status).toBe(401);
  expect(denied.body.error).toBe('invalid_token');
});

test('CSRF: create and revoke without the right token are refused with 403 and change nothing', async () => {
  const { agent, userId } = await loggedIn();
  await createKey(agent, 'keep me');
  const before = await activeKeys(userId);
  for (const body of [{ name: 'sneaky' }, { name: 'sneaky', _csrf: 'forged' }]) {
    const res = await agent.post(PATH).type('form').send(body);
    expect(res.status).toBe(403);
  }
  expect(await activeKeys(userId)).toBe(before);
  const row = await app.database.prisma.apiKey.findFirstOrThrow({ where: { userId, name: 'keep me' } });
  // A token from someone else's session is no good either.
  const foreign = csrfFrom((await (await loggedIn()).agent.get(PATH)).text);
  for (const body of [{}, { _csrf: foreign }]) {
    expect((await agent.post(`${PATH}/${row.id}/revoke`).type('form').send(body)).status).toBe(403);
  }
  expect(
    (await app.database.prisma.apiKey.findUniqueOrThrow({ where: { id: row.id } })).revokedAt,
  ).toBeNull();
});

test("someone else's key cannot be revoked", async () => {
  const owner = await loggedIn();
  await createKey(owner.agent, 'not yours');
  const row = await app.database.prisma.apiKey.findFirstOrThrow({ where: { userId: owner.userId } });
  const { agent } = await loggedIn();
  const token = csrfFrom((await agent.get(PATH)).text);
  const res = await agent.post(`${PATH}/${row.id}/revoke`).type('form').send({ _csrf: token });
  expect(res.status).toBe(303);
  expect((await agent.get(PATH)).text).toContain('already revoked, or it is not one of yours');
  expect(
    (await app.database.prisma.apiKey.findUniqueOrThrow({ where: { id: row.id } })).revokedAt,
  ).toBeNull();
});

test('a name is required: 422 with the field marked', async () => {
  const { agent, userId } = await loggedIn();
  const res = await createKey(agent, '   ');
  expect(res.status).toBe(422);
  expect(errorSummaryText(res.text)).toContain('Give the key a name');
  expect(squash(res.text)).toMatch(/<input id="name"[^>]*aria-invalid="true">/);
  expect(await activeKeys(userId)).toBe(0);
});

test('key names are escaped', async () => {
  const { agent } = await loggedIn();
  await createKey(agent, '<img src=x onerror=alert(1)>');
  const page = await agent.get(PATH);
  expect(page.text).toContain('&lt;img src=x onerror=alert(1)&gt;');
  expect(page.text).not.toContain('<img src=x');
});

test('the 11th key is refused with the clear message, and nothing is created', async () => {
  const { agent, userId } = await loggedIn();
  for (let i = 1; i <= 10; i += 1) expect((await createKey(agent, `key ${i}`)).status).toBe(303);
  const res = await createKey(agent, 'key 11');
  expect(res.status).toBe(409);
  expect(errorSummaryText(res.text)).toContain(
    'You already have 10 API keys, the most allowed. Revoke one you no longer use, then create the new one.',
  );
  expect(squash(res.text)).toContain('10 of 10 keys in use.');
  expect(await activeKeys(userId)).toBe(10);
});

test('/settings and /settings/security lead to the API keys', async () => {
  const { agent } = await loggedIn();
  expect((await agent.get('/settings')).headers.location).toBe(PATH);
  expect((await agent.get('/settings/security')).headers.location).toBe(PATH);
});
