// Credentials on /api/mcp: the exact 401
// answer, revocation from the next request, and last_used_at written at most once a minute.
import request from 'supertest';
import { createApiKey, generateApiKey, listApiKeys, revokeApiKey } from '../../src/domain/api-keys';
import { onlyMessage, postMcp } from '../helpers/http';
import { createTestUser, DEFAULT_TOOLS, startTestApp, type TestApp } from '../helpers/test-app';
import { eventually } from '../helpers/eventually';

const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

/** Sends tools/list with a raw Authorization header value (or none). */
function withAuthorization(app: TestApp, authorization: string | null): request.Test {
  let req = request(app.app)
    .post('/api/mcp')
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json, text/event-stream');
  if (authorization !== null) req = req.set('Authorization', authorization);
  return req.send(JSON.stringify(TOOLS_LIST));
}

describe('401 on /api/mcp', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  function expectChallenge(res: request.Response, credentialSent: boolean): void {
    expect(res.status).toBe(401);
    const challenge = res.headers['www-authenticate'];
    expect(challenge).toMatch(/^Bearer /);
    expect(challenge).toContain(
      `resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/api/mcp"`,
    );
    expect(challenge).toContain('scope="quizzes:read quizzes:write"');
    if (credentialSent) expect(challenge).toContain('error="invalid_token"');
    else expect(challenge).not.toContain('error=');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(res.body).sort()).toEqual(['error', 'error_description', 'hint']);
    expect(res.body.error).toBe('invalid_token');
    expect(typeof res.body.error_description).toBe('string');
    // Where keys come from, for the person or script that has none.
    expect(res.body.hint).toContain(`${app.baseUrl}/settings/security/api-keys`);
    expect(res.body.hint).toContain('keys create');
  }

  test('no Authorization header -> 401 with a challenge that carries no error code', async () => {
    const res = await withAuthorization(app, null);
    expectChallenge(res, false);
    expect(res.body.error_description).toContain('Authorization: Bearer');
  });

  test('malformed, unknown, wrong-shape and revoked credentials all get the same 401 body, byte for byte', async () => {
    const user = await createTestUser(app, 'revoked');
    const [key] = await listApiKeys(app.database.repos, user.id);
    // The key works, then is revoked; the very next request is refused (spec, Authentication 4).
    expect((await withAuthorization(app, `Bearer ${user.apiKey}`)).status).toBe(200);
    await revokeApiKey(app.database.repos, user.id, key!.id);
    const revoked = await withAuthorization(app, `Bearer ${user.apiKey}`);
    expectChallenge(revoked, true);

    const cases = {
      'Basic scheme': 'Basic abc',
      'Bearer with nothing': 'Bearer',
      'Bearer with two tokens': 'Bearer a b',
      'unknown svc_ key of the right shape': `Bearer ${generateApiKey()}`,
      'token of no known shape': 'Bearer not-a-key-1234',
      'svc_ key of the wrong length': `Bearer ${user.apiKey}x`,
    };
    for (const [label, authorization] of Object.entries(cases)) {
      const res = await withAuthorization(app, authorization);
      expectChallenge(res, true);
      expect({ label, body: res.text }).toEqual({ label, body: revoked.text });
    }
  });

  test('a revoked key fails on the next request while the same user’s other key keeps working', async () => {
    const user = await createTestUser(app, 'two-keys');
    const second = await createApiKey(app.database.repos, user.id, 'second');
    await revokeApiKey(app.database.repos, user.id, second.id);
    expect((await withAuthorization(app, `Bearer ${second.key}`)).status).toBe(401);
    const ok = await withAuthorization(app, `Bearer ${user.apiKey}`);
    expect(ok.status).toBe(200);
    expect(onlyMessage(ok.text).result.tools).toHaveLength(DEFAULT_TOOLS.length);
  });

  test('a revocation holds on every instance that shares the database, from the next request', async () => {
    const other = await startTestApp({ database: app.database });
    try {
      const user = await createTestUser(app, 'instances');
      const [key] = await listApiKeys(app.database.repos, user.id);
      expect((await withAuthorization(app, `Bearer ${user.apiKey}`)).status).toBe(200);
      expect((await withAuthorization(other, `Bearer ${user.apiKey}`)).status).toBe(200);
      await revokeApiKey(app.database.repos, user.id, key!.id);
      expect((await withAuthorization(other, `Bearer ${user.apiKey}`)).status).toBe(401);
      expect((await withAuthorization(app, `Bearer ${user.apiKey}`)).status).toBe(401);
    } finally {
      await other.close();
    }
  });
});

/** The app's count of scheduled "last used" writes for API keys, read from /metrics. */
async function lastUsedWrites(app: TestApp): Promise<number> {
  const text = (await request(app.app).get('/metrics')).text;
  const line = text
    .split('\n')
    .find((l) => l.startsWith('credential_last_used_writes_total{kind="api_key"}'));
  return line ? Number(line.split(' ').pop()) : 0;
}

describe('last_used_at', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  test('a valid key records its use shortly after, and a second use within the minute writes nothing', async () => {
    const user = await createTestUser(app, 'last-used');
    const keys = () => listApiKeys(app.database.repos, user.id);
    expect((await keys())[0]!.last_used_at).toBeNull();

    const before = Date.now();
    expect((await postMcp(app, { credential: user.apiKey, body: TOOLS_LIST })).status).toBe(200);
    const [first] = await eventually(keys, {
      until: ([key]) => key!.last_used_at !== null,
      timeoutMs: 3_000,
    });
    expect(first!.last_used_at).not.toBeNull();
    const recorded = Date.parse(first!.last_used_at!);
    expect(recorded).toBeGreaterThanOrEqual(before - 1_000);
    expect(recorded).toBeLessThanOrEqual(Date.now());

    // The decision to write is taken while the request is served: when the answer is in, a
    // write that was not counted will not come.
    const written = await lastUsedWrites(app);
    expect(written).toBeGreaterThanOrEqual(1);
    expect((await postMcp(app, { credential: user.apiKey, body: TOOLS_LIST })).status).toBe(200);
    expect(await lastUsedWrites(app)).toBe(written);
    expect((await keys())[0]!.last_used_at).toBe(first!.last_used_at);
  });

  test('another instance on the same database does not write it again within the minute either', async () => {
    const other = await startTestApp({ database: app.database });
    try {
      const user = await createTestUser(app, 'last-used-two');
      const keys = () => listApiKeys(app.database.repos, user.id);
      expect((await postMcp(app, { credential: user.apiKey, body: TOOLS_LIST })).status).toBe(200);
      const [first] = await eventually(keys, {
        until: ([key]) => key!.last_used_at !== null,
        timeoutMs: 3_000,
      });
      expect(first!.last_used_at).not.toBeNull();

      // The other instance reads the stored time and schedules no write of its own.
      expect((await postMcp(other, { credential: user.apiKey, body: TOOLS_LIST })).status).toBe(200);
      expect(await lastUsedWrites(other)).toBe(0);
      expect((await keys())[0]!.last_used_at).toBe(first!.last_used_at);
    } finally {
      await other.close();
    }
  });
});
