// The authorization code and refresh token grants end to end through the real endpoints, on
// SQLite and PostgreSQL: tokens work on /api/mcp, are opaque, prefixed and hashed at rest,
// rotate on refresh, expire, and end with revocation (RFC 6749, RFC 7009, RFC 9700 4.14.2).
import { createHash } from 'node:crypto';
import request from 'supertest';
import { movableClock } from '../helpers/clock';
import { createConnectedAppsProvider } from '../../src/oauth/connected-apps-provider';
import { onlyMessage } from '../helpers/http';
import { DEFAULT_TOOLS, describeEachDatabase, type TestApp } from '../helpers/test-app';
import {
  authorizationParams,
  connectApp,
  exchangeCode,
  loggedInAgent,
  mcp,
  oauthConfig,
  obtainCode,
  refresh,
  registerPublicClient,
  startOAuthTestApp,
} from './oauth-helpers';

describeEachDatabase('token lifecycle', (provider) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startOAuthTestApp({ provider });
  });
  afterAll(async () => {
    await app?.close();
  });

  test('code -> tokens (prefixed, no-store) -> tools/list on /api/mcp, acting as the user who approved', async () => {
    const { agent, user } = await loggedInAgent(app);
    const client = await registerPublicClient(app);
    const { params, verifier } = authorizationParams(client);
    const code = await obtainCode(agent, params);
    const res = await exchangeCode(app, client, code, verifier);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body).toEqual({
      access_token: expect.stringMatching(/^qat_[0-9A-Za-z]{43}$/),
      refresh_token: expect.stringMatching(/^qrt_[0-9A-Za-z]{43}$/),
      token_type: 'Bearer',
      expires_in: expect.any(Number),
      scope: 'quizzes:read quizzes:write',
    });
    expect(res.body.expires_in).toBeGreaterThan(3500);

    const listed = await mcp(app, res.body.access_token);
    expect(listed.status).toBe(200);
    expect(onlyMessage(listed.text).result.tools).toHaveLength(DEFAULT_TOOLS.length);

    // Hashes only at rest: neither the code nor the tokens appear in the database.
    const sha = (value: string) => createHash('sha256').update(value).digest('hex');
    const row = await app.database.prisma.oAuthToken.findFirstOrThrow({ where: { userId: user.id } });
    expect(row.accessTokenHash).toBe(sha(res.body.access_token));
    expect(row.refreshTokenHash).toBe(sha(res.body.refresh_token));
    expect(JSON.stringify(row)).not.toContain(res.body.access_token);
    const codeRow = await app.database.prisma.oAuthAuthorizationCode.findFirstOrThrow({
      where: { userId: user.id },
    });
    expect(codeRow.codeHash).toBe(sha(code));
    expect(row.resource).toBe(`${app.baseUrl}/api/mcp`);
  });

  /** Whether the grant the person approved is still there: every token of it works or none does. */
  const grantRevoked = async (userId: string, clientId: string) =>
    (await app.database.prisma.oAuthGrant.findFirstOrThrow({ where: { userId, clientId } })).revokedAt !==
    null;

  test('refresh rotates; a client that lost the answer may retry once within 60 s, which revokes the lost replacement', async () => {
    const { agent, user } = await loggedInAgent(app);
    const { client, tokens } = await connectApp(app, agent);
    const lost = await refresh(app, client, tokens.refresh_token);
    expect(lost.status).toBe(200);
    expect(lost.body.refresh_token).not.toBe(tokens.refresh_token);
    const retry = await refresh(app, client, tokens.refresh_token);
    expect(retry.status).toBe(200);
    // The replacement the client never received is dead; the retry's works.
    expect((await refresh(app, client, lost.body.refresh_token)).body.error).toBe('invalid_grant');
    expect((await mcp(app, lost.body.access_token)).status).toBe(401);
    expect((await mcp(app, retry.body.access_token)).status).toBe(200);
    const next = await refresh(app, client, retry.body.refresh_token);
    expect(next.status).toBe(200);
    expect(await grantRevoked(user.id, client.clientId)).toBe(false);
  });

  test('reusing a rotated refresh token after its replacement was used revokes the whole grant', async () => {
    const { agent, user } = await loggedInAgent(app);
    const { client, tokens } = await connectApp(app, agent);
    const first = await refresh(app, client, tokens.refresh_token);
    const second = await refresh(app, client, first.body.refresh_token);
    expect(second.status).toBe(200);
    const stolen = await refresh(app, client, tokens.refresh_token);
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
    expect(stolen.headers['cache-control']).toBe('no-store');
    // RFC 9700 4.14.2: the server cannot tell the client from the thief; everything ends.
    expect(await grantRevoked(user.id, client.clientId)).toBe(true);
    expect((await mcp(app, second.body.access_token)).status).toBe(401);
    expect((await refresh(app, client, second.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  test('a second retry of the same refresh token revokes the whole grant', async () => {
    const { agent, user } = await loggedInAgent(app);
    const { client, tokens } = await connectApp(app, agent);
    expect((await refresh(app, client, tokens.refresh_token)).status).toBe(200);
    const retry = await refresh(app, client, tokens.refresh_token);
    expect(retry.status).toBe(200);
    const again = await refresh(app, client, tokens.refresh_token);
    expect(again.body.error).toBe('invalid_grant');
    expect(again.body.error_description).toMatch(/approved again/);
    expect(await grantRevoked(user.id, client.clientId)).toBe(true);
    expect((await mcp(app, retry.body.access_token)).status).toBe(401);
  });

  test('a retry more than 60 s after the rotation revokes the whole grant; at 59 s it is allowed', async () => {
    const clock = movableClock();
    try {
      const { agent, user } = await loggedInAgent(app);
      const { client, tokens } = await connectApp(app, agent);
      expect((await refresh(app, client, tokens.refresh_token)).status).toBe(200);
      clock.advance(59_000);
      expect((await refresh(app, client, tokens.refresh_token)).status).toBe(200);

      const late = await connectApp(app, agent);
      const rotated = await refresh(app, late.client, late.tokens.refresh_token);
      expect(rotated.status).toBe(200);
      clock.advance(61_000);
      expect((await refresh(app, late.client, late.tokens.refresh_token)).body.error).toBe('invalid_grant');
      expect(await grantRevoked(user.id, late.client.clientId)).toBe(true);
      expect((await mcp(app, rotated.body.access_token)).status).toBe(401);
    } finally {
      clock.restore();
    }
  });

  test('scope may be narrowed on refresh, never widened', async () => {
    const { agent } = await loggedInAgent(app);
    const { client, tokens } = await connectApp(app, agent, { scope: 'quizzes:read' });
    const wider = await refresh(app, client, tokens.refresh_token, { scope: 'quizzes:read quizzes:write' });
    expect(wider.status).toBe(400);
    expect(wider.body.error).toBe('invalid_scope');

    const both = await connectApp(app, agent);
    const narrower = await refresh(app, both.client, both.tokens.refresh_token, { scope: 'quizzes:read' });
    expect(narrower.status).toBe(200);
    expect(narrower.body.scope).toBe('quizzes:read');
    const widerAgain = await refresh(app, both.client, narrower.body.refresh_token, {
      scope: 'quizzes:read quizzes:write',
    });
    expect(widerAgain.body.error).toBe('invalid_scope');
  });

  test('RFC 7009: revoking the refresh token ends the access token too; unknown tokens still get 200', async () => {
    const { agent } = await loggedInAgent(app);
    const { client, tokens } = await connectApp(app, agent);
    const revoke = (token: string) =>
      request(app.app).post('/oauth/revoke').type('form').send({ token, client_id: client.clientId });
    expect((await revoke(tokens.refresh_token)).status).toBe(200);
    expect((await mcp(app, tokens.access_token)).status).toBe(401);
    expect((await refresh(app, client, tokens.refresh_token)).body.error).toBe('invalid_grant');
    expect((await revoke(tokens.refresh_token)).status).toBe(200);
    expect((await revoke('qat_unknown')).status).toBe(200);
    expect((await revoke('anything at all')).status).toBe(200);
  });

  test('parallel redemptions of one code yield exactly one token', async () => {
    const { agent } = await loggedInAgent(app);
    const client = await registerPublicClient(app);
    const { params, verifier } = authorizationParams(client);
    const code = await obtainCode(agent, params);
    const results = await Promise.all(
      Array.from({ length: 8 }, () => exchangeCode(app, client, code, verifier)),
    );
    expect(results.filter((res) => res.status === 200)).toHaveLength(1);
    expect(results.filter((res) => res.body.error === 'invalid_grant')).toHaveLength(7);
  });

  test('disconnecting the app (Connected apps) refuses its tokens from the next request', async () => {
    const { agent, user } = await loggedInAgent(app);
    const { client, tokens } = await connectApp(app, agent);
    const provider = createConnectedAppsProvider(app.database.repos);
    const [connected] = await provider.list(user.id);
    expect(connected).toMatchObject({ name: 'Test assistant', redirectHost: '127.0.0.1:8976' });
    expect(await provider.revoke(user.id, connected!.id)).toBe(true);
    expect((await mcp(app, tokens.access_token)).status).toBe(401);
    expect((await refresh(app, client, tokens.refresh_token)).body.error).toBe('invalid_grant');
    expect(await provider.revoke(user.id, connected!.id)).toBe(false);
    expect(await provider.list(user.id)).toEqual([]);
  });

  test('an expired access token is refused; the refresh token gets a new one', async () => {
    const clock = movableClock();
    const short = await startOAuthTestApp({
      provider,
      config: { oauth: oauthConfig({ accessTokenTtlSeconds: 1 }) },
    });
    try {
      const { agent } = await loggedInAgent(short);
      const { client, tokens } = await connectApp(short, agent);
      expect((await mcp(short, tokens.access_token)).status).toBe(200);
      clock.advance(1_100);
      const expired = await mcp(short, tokens.access_token);
      expect(expired.status).toBe(401);
      expect(expired.headers['www-authenticate']).toContain('error="invalid_token"');
      const renewed = await refresh(short, client, tokens.refresh_token);
      expect(renewed.status).toBe(200);
      expect((await mcp(short, renewed.body.access_token)).status).toBe(200);
    } finally {
      clock.restore();
      await short.close();
    }
  });

  test('an expired refresh token and an expired code are invalid_grant', async () => {
    const clock = movableClock();
    const short = await startOAuthTestApp({
      provider,
      config: { oauth: oauthConfig({ refreshTokenTtlSeconds: 1, authorizationCodeTtlSeconds: 1 }) },
    });
    try {
      const { agent } = await loggedInAgent(short);
      const { client, tokens } = await connectApp(short, agent);
      const { params, verifier } = authorizationParams(client);
      const code = await obtainCode(agent, params);
      clock.advance(1_100);
      expect((await refresh(short, client, tokens.refresh_token)).body.error).toBe('invalid_grant');
      expect((await exchangeCode(short, client, code, verifier)).body.error).toBe('invalid_grant');
    } finally {
      clock.restore();
      await short.close();
    }
  });
});
