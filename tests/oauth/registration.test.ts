// Dynamic client registration (RFC 7591): public and confidential clients, the redirect URI
// rules (src/oauth/redirect-uris.ts), size bounds, and a per-IP limit loose enough for a platform.
import request from 'supertest';
import type { TestApp } from '../helpers/test-app';
import { oauthConfig, registerClient, startOAuthTestApp } from './oauth-helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startOAuthTestApp();
});
afterAll(async () => {
  await app.close();
});

test('a public client: 201, no secret, the registered metadata echoed', async () => {
  const res = await registerClient(app, {
    client_name: 'Claude',
    redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
    token_endpoint_auth_method: 'none',
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope: 'quizzes:read quizzes:write offline_access',
    logo_uri: 'https://claude.ai/logo.png',
  });
  expect(res.status).toBe(201);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.body).toEqual({
    client_id: expect.stringMatching(/^qci_[0-9A-Za-z]{22}$/),
    client_id_issued_at: expect.any(Number),
    client_name: 'Claude',
    redirect_uris: ['https://claude.ai/api/mcp/auth_callback'],
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    scope: 'quizzes:read quizzes:write',
  });
});

test('a confidential client gets its secret once; the default method is client_secret_basic (RFC 7591 2)', async () => {
  const res = await registerClient(app, { redirect_uris: ['https://app.example.com/cb'] });
  expect(res.status).toBe(201);
  expect(res.body.token_endpoint_auth_method).toBe('client_secret_basic');
  expect(res.body.client_secret).toMatch(/^qcs_[0-9A-Za-z]{43}$/);
  expect(res.body.client_secret_expires_at).toBe(0);
  const row = await app.database.prisma.oAuthClient.findUniqueOrThrow({ where: { id: res.body.client_id } });
  expect(JSON.stringify(row)).not.toContain(res.body.client_secret);
});

describe('redirect URIs', () => {
  const accepted = [
    'https://claude.ai/api/mcp/auth_callback',
    'https://claude.com/api/mcp/auth_callback',
    'https://chatgpt.com/connector/oauth/abc123',
    'https://vscode.dev/redirect',
    'https://insiders.vscode.dev/redirect',
    'http://127.0.0.1:33418/',
    'http://127.0.0.1/callback',
    'http://localhost:6274/oauth/callback',
    'http://[::1]:8080/cb',
    'cursor://anysphere.cursor-retrieval/oauth/callback',
    'com.example.app:/oauth2redirect',
    'https://app.example.com/cb?tenant=1',
  ];
  test.each(accepted)('accepted: %s', async (uri) => {
    const res = await registerClient(app, { redirect_uris: [uri], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(201);
    expect(res.body.redirect_uris).toEqual([uri]);
  });

  const refused = [
    'javascript:alert(1)',
    'JavaScript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'file:///etc/passwd',
    'http://example.com/cb',
    'http://127.0.0.1.nip.io/cb',
    'http://localhost.evil.example/cb',
    'https://app.example.com/cb#fragment',
    'https://user:pass@app.example.com/cb',
    'https://claude.ai@evil.example/cb',
    'https://app.example.com/ cb',
    'https://xn--e1awd7f.example/cb\u0000',
    'https://сlaude.ai/api/mcp/auth_callback',
    '/relative/path',
    'not a uri',
    `https://app.example.com/${'a'.repeat(2000)}`,
  ];
  test.each(refused)('refused: %s', async (uri) => {
    const res = await registerClient(app, { redirect_uris: [uri], token_endpoint_auth_method: 'none' });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_redirect_uri');
    expect(typeof res.body.error_description).toBe('string');
  });

  test('none at all, or more than 10, are refused', async () => {
    expect((await registerClient(app, { token_endpoint_auth_method: 'none' })).body.error).toBe(
      'invalid_redirect_uri',
    );
    expect((await registerClient(app, { redirect_uris: [] })).body.error).toBe('invalid_redirect_uri');
    const many = Array.from({ length: 11 }, (_, i) => `https://app.example.com/cb${i}`);
    expect((await registerClient(app, { redirect_uris: many })).body.error).toBe('invalid_redirect_uri');
  });
});

describe('other metadata', () => {
  test.each([
    ['client_name too long', { client_name: 'x'.repeat(101) }],
    ['client_name with a text-direction override', { client_name: 'Claude\u202Eevil' }],
    ['client_name not a string', { client_name: 42 }],
    ['implicit response type', { response_types: ['token'] }],
    ['client_credentials grant', { grant_types: ['client_credentials'] }],
    ['no authorization_code grant', { grant_types: ['refresh_token'] }],
    ['private_key_jwt', { token_endpoint_auth_method: 'private_key_jwt' }],
  ])('%s -> invalid_client_metadata', async (_label, extra) => {
    const res = await registerClient(app, { redirect_uris: ['https://app.example.com/cb'], ...extra });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('invalid_client_metadata');
  });

  test('not JSON, or not an object', async () => {
    const form = await request(app.app)
      .post('/oauth/register')
      .type('form')
      .send({ redirect_uris: 'https://a.example/cb' });
    expect(form.body.error).toBe('invalid_client_metadata');
    const broken = await request(app.app)
      .post('/oauth/register')
      .set('Content-Type', 'application/json')
      .send('{"redirect_uris":');
    expect(broken.status).toBe(400);
    expect(broken.body.error).toBe('invalid_client_metadata');
    expect((await registerClient(app, [] as unknown as Record<string, unknown>)).body.error).toBe(
      'invalid_client_metadata',
    );
  });

  test('an oversized registration is refused with 413 before anything is parsed', async () => {
    const res = await registerClient(app, {
      redirect_uris: ['https://app.example.com/cb'],
      padding: 'x'.repeat(20 * 1024),
    });
    expect(res.status).toBe(413);
    expect(res.body.error).toBe('invalid_client_metadata');
  });
});

test('registrations are rate-limited per IP (100 an hour by default; 3 here), with the spec headers', async () => {
  const limited = await startOAuthTestApp({ config: { oauth: oauthConfig({ registrationsPerHour: 3 }) } });
  try {
    const body = { redirect_uris: ['https://app.example.com/cb'], token_endpoint_auth_method: 'none' };
    for (let i = 0; i < 3; i += 1) {
      const res = await registerClient(limited, body);
      expect(res.status).toBe(201);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=3;w=3600');
    }
    const refused = await registerClient(limited, body);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await limited.database.prisma.oAuthClient.count()).toBe(3);
  } finally {
    await limited.close();
  }
});

test('CORS: browser-based clients may register and call the token endpoint', async () => {
  const preflight = await request(app.app)
    .options('/oauth/register')
    .set('Origin', 'http://localhost:6274')
    .set('Access-Control-Request-Method', 'POST');
  expect(preflight.status).toBe(204);
  expect(preflight.headers['access-control-allow-origin']).toBe('*');
  expect(preflight.headers['access-control-allow-headers']).toContain('Content-Type');
  const get = await request(app.app).get('/oauth/token');
  expect(get.status).toBe(405);
  expect(get.headers.allow).toBe('POST');
});
