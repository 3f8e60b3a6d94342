// Attacks on the token endpoint: PKCE, code replay and parallel redemption, codes and refresh
// tokens of one client used by another, resource mismatch, confidential client authentication.
import request from 'supertest';
import { mistype, type TestApp } from '../helpers/test-app';
import {
  authorizationParams,
  connectApp,
  exchangeCode,
  loggedInAgent,
  mcp,
  obtainCode,
  pkcePair,
  refresh,
  registerClient,
  registerPublicClient,
  startOAuthTestApp,
  tokenRequest,
  LOOPBACK_REDIRECT,
} from './oauth-helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startOAuthTestApp();
});
afterAll(async () => {
  await app.close();
});

async function freshCode() {
  const { agent } = await loggedInAgent(app);
  const client = await registerPublicClient(app);
  const { params, verifier } = authorizationParams(client);
  const code = await obtainCode(agent, params);
  return { agent, client, code, verifier };
}

describe('PKCE at the token endpoint', () => {
  test('a missing code_verifier is refused', async () => {
    const { client, code } = await freshCode();
    const res = await tokenRequest(app, {
      grant_type: 'authorization_code',
      code,
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  test('a wrong verifier burns the code: the right one no longer works', async () => {
    const { client, code, verifier } = await freshCode();
    const wrong = await exchangeCode(app, client, code, pkcePair().verifier);
    expect(wrong.status).toBe(400);
    expect(wrong.body.error).toBe('invalid_grant');
    const right = await exchangeCode(app, client, code, verifier);
    expect(right.status).toBe(400);
    expect(right.body.error).toBe('invalid_grant');
  });

  test('a malformed verifier is refused', async () => {
    const { client, code } = await freshCode();
    const res = await exchangeCode(app, client, code, 'short');
    expect(res.status).toBe(400);
    expect(['invalid_request', 'invalid_grant']).toContain(res.body.error);
  });
});

describe('authorization codes', () => {
  test('a replayed code is refused and revokes the tokens it gave', async () => {
    const { client, code, verifier } = await freshCode();
    const first = await exchangeCode(app, client, code, verifier);
    expect(first.status).toBe(200);
    expect((await mcp(app, first.body.access_token)).status).toBe(200);
    const replay = await exchangeCode(app, client, code, verifier);
    expect(replay.status).toBe(400);
    expect(replay.body.error).toBe('invalid_grant');
    expect((await mcp(app, first.body.access_token)).status).toBe(401);
    expect((await refresh(app, client, first.body.refresh_token)).body.error).toBe('invalid_grant');
  });

  test('ten parallel redemptions of one code yield exactly one token', async () => {
    const { client, code, verifier } = await freshCode();
    const results = await Promise.all(
      Array.from({ length: 10 }, () => exchangeCode(app, client, code, verifier)),
    );
    const statuses = results.map((res) => res.status).sort();
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 400)).toHaveLength(9);
    const rows = await app.database.prisma.oAuthToken.count({
      where: { clientId: client.clientId, revokedAt: null },
    });
    expect(rows).toBeLessThanOrEqual(1);
  });

  test("client A's code cannot be redeemed by client B", async () => {
    const { client, code, verifier } = await freshCode();
    const other = await registerPublicClient(app);
    const stolen = await tokenRequest(app, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: client.redirectUri,
      client_id: other.clientId,
    });
    expect(stolen.status).toBe(400);
    expect(stolen.body.error).toBe('invalid_grant');
  });

  test('the redirect_uri must repeat the one of the authorization request', async () => {
    const { client, code, verifier } = await freshCode();
    const res = await tokenRequest(app, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: `${client.redirectUri}/other`,
      client_id: client.clientId,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  test('a resource other than the MCP endpoint is invalid_target at the token request', async () => {
    const { client, code, verifier } = await freshCode();
    const res = await tokenRequest(app, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      resource: 'https://evil.example/api/mcp',
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_target');
    // Nothing was spent: the correct request still works.
    expect((await exchangeCode(app, client, code, verifier)).status).toBe(200);
  });
});

describe('refresh tokens', () => {
  test("client A's refresh token cannot be used by client B", async () => {
    const { agent } = await loggedInAgent(app);
    const { tokens } = await connectApp(app, agent);
    const other = await registerPublicClient(app);
    const res = await refresh(app, other, tokens.refresh_token);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_grant');
  });

  test('a refresh with a foreign resource is invalid_target', async () => {
    const { agent } = await loggedInAgent(app);
    const { client, tokens } = await connectApp(app, agent);
    const res = await refresh(app, client, tokens.refresh_token, { resource: `${app.baseUrl}/other` });
    expect(res.body.error).toBe('invalid_target');
  });
});

describe('errors are RFC 6749 JSON, never cached', () => {
  test.each([
    ['no grant_type', {}, 'invalid_request'],
    ['unsupported grant', { grant_type: 'password', client_id: 'x' }, 'unsupported_grant_type'],
    ['client_credentials', { grant_type: 'client_credentials', client_id: 'x' }, 'unsupported_grant_type'],
    [
      'unknown client',
      { grant_type: 'authorization_code', client_id: 'qci_nope', code: 'x' },
      'invalid_client',
    ],
  ])('%s', async (_label, body, error) => {
    const res = await tokenRequest(app, body as Record<string, string>);
    expect(res.status).toBeGreaterThanOrEqual(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.error).toBe(error);
    expect(typeof res.body.error_description).toBe('string');
  });

  test('a JSON body is refused (the token endpoint takes forms)', async () => {
    const res = await request(app.app).post('/oauth/token').send({ grant_type: 'authorization_code' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_request');
  });

  test('a parameter sent twice is refused', async () => {
    const res = await request(app.app)
      .post('/oauth/token')
      .type('form')
      .send('grant_type=refresh_token&refresh_token=a&refresh_token=b');
    expect(res.body.error).toBe('invalid_request');
  });
});

describe('confidential clients', () => {
  async function registerConfidential(method: 'client_secret_basic' | 'client_secret_post' | 'default') {
    const res = await registerClient(app, {
      client_name: 'Server-side app',
      redirect_uris: ['https://app.example.com/callback'],
      ...(method === 'default' ? {} : { token_endpoint_auth_method: method }),
    });
    expect(res.status).toBe(201);
    expect(res.body.client_secret).toMatch(/^qcs_[0-9A-Za-z]{43}$/);
    return {
      clientId: res.body.client_id as string,
      secret: res.body.client_secret as string,
      redirectUri: 'https://app.example.com/callback',
    };
  }

  async function codeFor(client: { clientId: string; redirectUri: string }) {
    const { agent } = await loggedInAgent(app);
    const { params, verifier } = authorizationParams(client);
    return { code: await obtainCode(agent, params), verifier };
  }

  test('client_secret_basic: the secret is required and checked', async () => {
    const client = await registerConfidential('client_secret_basic');
    const { code, verifier } = await codeFor(client);
    const body = {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: client.redirectUri,
    };
    const wrong = await tokenRequest(app, body, [client.clientId, mistype(client.secret)]);
    expect(wrong.status).toBe(401);
    expect(wrong.body.error).toBe('invalid_client');
    expect(wrong.headers['www-authenticate']).toMatch(/^Basic /);
    const missing = await tokenRequest(app, { ...body, client_id: client.clientId });
    expect(missing.body.error).toBe('invalid_client');
    const ok = await tokenRequest(app, body, [client.clientId, client.secret]);
    expect(ok.status).toBe(200);

    // Revocation needs the client's authentication too.
    const unauthenticated = await request(app.app)
      .post('/oauth/revoke')
      .type('form')
      .send({ token: ok.body.access_token, client_id: client.clientId });
    expect(unauthenticated.status).toBe(401);
    expect((await mcp(app, ok.body.access_token)).status).toBe(200);
    const revoked = await request(app.app)
      .post('/oauth/revoke')
      .auth(client.clientId, client.secret)
      .type('form')
      .send({ token: ok.body.access_token, token_type_hint: 'access_token' });
    expect(revoked.status).toBe(200);
    expect((await mcp(app, ok.body.access_token)).status).toBe(401);
  });

  const exchange = (client: { clientId: string; redirectUri: string }, code: string, verifier: string) => ({
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: client.redirectUri,
  });

  test('Basic for one client and a body client_id naming another: refused, and the code still works', async () => {
    const client = await registerConfidential('client_secret_basic');
    const other = await registerConfidential('client_secret_basic');
    const { code, verifier } = await codeFor(client);
    const body = exchange(client, code, verifier);
    for (const basic of [
      [client.clientId, client.secret],
      [other.clientId, other.secret],
    ] as const) {
      const named = basic[0] === client.clientId ? other.clientId : client.clientId;
      const res = await tokenRequest(app, { ...body, client_id: named }, [...basic]);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringMatching(/names another client/),
      });
    }
    // The same client named in both places is one client.
    const ok = await tokenRequest(app, { ...body, client_id: client.clientId }, [
      client.clientId,
      client.secret,
    ]);
    expect(ok.status).toBe(200);
    const revoke = await request(app.app)
      .post('/oauth/revoke')
      .auth(client.clientId, client.secret)
      .type('form')
      .send({ token: ok.body.access_token, client_id: other.clientId });
    expect(revoke.status).toBe(400);
    expect(revoke.body.error).toBe('invalid_request');
    expect((await mcp(app, ok.body.access_token)).status).toBe(200);
  });

  test.each([
    ['client_secret_basic', 'client_secret_post'],
    ['client_secret_post', 'client_secret_basic'],
  ] as const)(
    'registered for %s: %s is refused at the token and revocation endpoints',
    async (declared, used) => {
      const client = await registerConfidential(declared);
      const { code, verifier } = await codeFor(client);
      const body = exchange(client, code, verifier);
      const send = (extra: Record<string, string>, how: typeof declared) =>
        how === 'client_secret_basic'
          ? tokenRequest(app, { ...body, ...extra }, [client.clientId, client.secret])
          : tokenRequest(app, {
              ...body,
              ...extra,
              client_id: client.clientId,
              client_secret: client.secret,
            });
      const wrong = await send({}, used);
      expect(wrong.body.error).toBe('invalid_client');
      const ok = await send({}, declared);
      expect(ok.status).toBe(200);

      const revokeWith = (how: typeof declared) => {
        const req = request(app.app).post('/oauth/revoke').type('form');
        return how === 'client_secret_basic'
          ? req.auth(client.clientId, client.secret).send({ token: ok.body.access_token })
          : req.send({
              token: ok.body.access_token,
              client_id: client.clientId,
              client_secret: client.secret,
            });
      };
      expect((await revokeWith(used)).status).toBe(401);
      expect((await mcp(app, ok.body.access_token)).status).toBe(200);
      expect((await revokeWith(declared)).status).toBe(200);
      expect((await mcp(app, ok.body.access_token)).status).toBe(401);
    },
  );

  test('a client that declared no method (the default) keeps working with either', async () => {
    const client = await registerConfidential('default');
    for (const how of ['basic', 'post'] as const) {
      const { code, verifier } = await codeFor(client);
      const body = exchange(client, code, verifier);
      const res =
        how === 'basic'
          ? await tokenRequest(app, body, [client.clientId, client.secret])
          : await tokenRequest(app, { ...body, client_id: client.clientId, client_secret: client.secret });
      expect({ how, status: res.status }).toEqual({ how, status: 200 });
    }
  });

  test('client_secret_post works; the secret is stored as a hash only', async () => {
    const client = await registerConfidential('client_secret_post');
    const { code, verifier } = await codeFor(client);
    const ok = await tokenRequest(app, {
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: client.redirectUri,
      client_id: client.clientId,
      client_secret: client.secret,
    });
    expect(ok.status).toBe(200);
    const row = await app.database.prisma.oAuthClient.findUniqueOrThrow({ where: { id: client.clientId } });
    expect(row.secretHash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(row)).not.toContain(client.secret);
  });
});

test("revoking another client's token does nothing (and still answers 200)", async () => {
  const { agent } = await loggedInAgent(app);
  const { tokens } = await connectApp(app, agent);
  const other = await registerPublicClient(app, { redirect_uris: [LOOPBACK_REDIRECT] });
  const res = await request(app.app)
    .post('/oauth/revoke')
    .type('form')
    .send({ token: tokens.access_token, client_id: other.clientId });
  expect(res.status).toBe(200);
  expect((await mcp(app, tokens.access_token)).status).toBe(200);
});
