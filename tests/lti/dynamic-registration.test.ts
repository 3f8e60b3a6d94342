// LTI Dynamic Registration through the owner's one-time address, against an emulated platform
// with its own OpenID configuration and registration endpoint.
import request from 'supertest';
import { ConfigError, loadConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { listPlatforms } from '../../src/domain/lti/platforms';
import { createRegistrationLink } from '../../src/domain/lti/registration-links';
import { startLtiPlatform, type LtiPlatformEmulator } from '../helpers/lti-platform';
import { memoryLog } from '../helpers/memory-log';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';

describeEachDatabase('LTI Dynamic Registration', (provider) => {
  let app: TestApp;
  let platform: LtiPlatformEmulator;
  let owner: TestUser;
  let registered: Array<{ authorization: string | undefined; body: any }> = [];
  let answer: () => { status: number; body: unknown };
  const log = memoryLog();

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      config: { lti: { allowLoopback: true } },
      logger: createLogger('trace', log.stream),
    });
    owner = await createTestUser(app, 'dr');
    platform = await startLtiPlatform();
    const base = platform.baseUrl;
    platform.route('GET', '/mod/lti/openid-configuration.php', async () => ({
      status: 200,
      body: {
        issuer: base,
        authorization_endpoint: `${base}/auth`,
        token_endpoint: `${base}/token`,
        jwks_uri: `${base}/jwks`,
        registration_endpoint: `${base}/register`,
        'https://purl.imsglobal.org/spec/lti-platform-configuration': { product_family_code: 'moodle' },
      },
    }));
    platform.route('POST', '/register', async (req, body) => {
      registered.push({ authorization: req.headers.authorization, body: JSON.parse(body) });
      return answer();
    });
  });
  beforeEach(() => {
    registered = [];
    answer = () => ({
      status: 200,
      body: {
        client_id: 'tool-9',
        'https://purl.imsglobal.org/spec/lti-tool-configuration': { deployment_id: '3' },
      },
    });
  });
  afterAll(async () => {
    await platform?.close();
    await app?.close();
  });

  const deps = () => ({ repos: app.database.repos, baseUrl: app.baseUrl });
  const open = async (configuration = `${platform.baseUrl}/mod/lti/openid-configuration.php`) => {
    const { registration_url } = await createRegistrationLink(deps(), owner.id);
    const path = new URL(registration_url).pathname;
    const query = { openid_configuration: configuration, registration_token: 'reg-token-1' };
    return { path, query, res: await request(app.app).get(path).query(query) };
  };
  const clear = async () => {
    for (const p of await listPlatforms(deps(), owner.id))
      await app.database.repos.lti.deletePlatform(owner.id, p.platform_id);
  };

  test('the platform opens the address: the tool registers itself, once, into the owner account', async () => {
    const { path, query, res } = await open();
    expect(res.status).toBe(200);
    expect(res.text).toContain('The quiz service is registered');
    expect(res.text).toContain('/assets/lti-registered.js');
    // Framed by the platform that opened it, and by no one else.
    expect(res.headers['content-security-policy']).toContain(`frame-ancestors ${platform.baseUrl}`);
    expect(res.headers['x-frame-options']).toBeUndefined();

    expect(registered).toHaveLength(1);
    const [sent] = registered;
    expect(sent!.authorization).toBe('Bearer reg-token-1');
    expect(sent!.body).toMatchObject({
      initiate_login_uri: `${app.baseUrl}/lti/login`,
      redirect_uris: [`${app.baseUrl}/lti/launch`],
      jwks_uri: `${app.baseUrl}/lti/jwks`,
      token_endpoint_auth_method: 'private_key_jwt',
      'https://purl.imsglobal.org/spec/lti-tool-configuration': {
        target_link_uri: `${app.baseUrl}/lti/launch`,
        messages: [{ type: 'LtiDeepLinkingRequest' }],
      },
    });
    expect(sent!.body.scope.split(' ')).toContain('https://purl.imsglobal.org/spec/lti-ags/scope/score');

    const [stored] = await listPlatforms(deps(), owner.id);
    expect(stored).toMatchObject({
      name: 'Moodle at ' + new URL(platform.baseUrl).host,
      issuer: platform.baseUrl,
      client_id: 'tool-9',
      deployment_ids: ['3'],
      auth_login_url: `${platform.baseUrl}/auth`,
      auth_token_url: `${platform.baseUrl}/token`,
      jwks_url: `${platform.baseUrl}/jwks`,
      registered_via: 'dynamic',
    });

    // The request log names the route, never the address's token.
    const token = path.split('/').pop()!;
    const logged = log.lines().filter((line) => JSON.stringify(line).includes('/lti/register/'));
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(log.lines())).not.toContain(token);
    expect(JSON.stringify(logged)).toContain('/lti/register/:token');

    // The same address again: refused, nothing sent, nothing stored.
    const again = await request(app.app).get(path).query(query);
    expect(again.status).toBe(400);
    expect(again.text).toMatch(/used already, has expired/);
    expect(registered).toHaveLength(1);
    expect(await listPlatforms(deps(), owner.id)).toHaveLength(1);
    await clear();
  });

  test('a platform that fails the registration is named, and the address works again for a retry', async () => {
    answer = () => ({ status: 500, body: { error: 'server_error' } });
    const { path, query, res } = await open();
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/register answered HTTP 500/);
    expect(await listPlatforms(deps(), owner.id)).toEqual([]);
    answer = () => ({
      status: 200,
      body: {
        client_id: 'tool-10',
        'https://purl.imsglobal.org/spec/lti-tool-configuration': { deployment_id: '4' },
      },
    });
    expect((await request(app.app).get(path).query(query)).status).toBe(200);
    expect((await listPlatforms(deps(), owner.id)).map((p) => p.client_id)).toEqual(['tool-10']);
    await clear();
  });

  test('each refusal says why and stores nothing', async () => {
    // A configuration that names another issuer than where it was read from.
    const elsewhere = await open(
      `${platform.baseUrl}/mod/lti/openid-configuration.php`.replace('127.0.0.1', 'localhost'),
    );
    expect(elsewhere.res.status).toBe(400);
    expect(elsewhere.res.text).toMatch(/names the issuer .* which is not where it was read from/);
    // No openid_configuration at all.
    const { registration_url } = await createRegistrationLink(deps(), owner.id);
    const bare = await request(app.app).get(new URL(registration_url).pathname);
    expect(bare.status).toBe(400);
    expect(bare.text).toMatch(/without its openid_configuration/);
    // No deployment named.
    answer = () => ({ status: 200, body: { client_id: 'tool-11' } });
    expect((await open()).res.text).toMatch(/named no deployment: register it by hand/);
    // An address never made.
    const made = await request(app.app)
      .get('/lti/register/not-a-real-token')
      .query({ openid_configuration: `${platform.baseUrl}/mod/lti/openid-configuration.php` });
    expect(made.status).toBe(400);
    expect(made.text).toMatch(/never made/);
    expect(await listPlatforms(deps(), owner.id)).toEqual([]);
  });

  test('without LTI_ALLOW_LOOPBACK the tool calls no platform on this machine', async () => {
    const strict = await startTestApp({ provider, database: app.database });
    try {
      const { registration_url } = await createRegistrationLink(deps(), owner.id);
      const res = await request(strict.app)
        .get(new URL(registration_url).pathname)
        .query({ openid_configuration: `${platform.baseUrl}/mod/lti/openid-configuration.php` });
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/must be an https:\/\/ address/);
      expect(registered).toEqual([]);
    } finally {
      await strict.close();
    }
  });
});

test('start-up refuses LTI_ALLOW_LOOPBACK in production, naming it', () => {
  const env = { NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(40), LTI_ALLOW_LOOPBACK: 'true' } as const;
  expect(() => loadConfig(env)).toThrow(ConfigError);
  expect(() => loadConfig(env)).toThrow(/LTI_ALLOW_LOOPBACK/);
  expect(loadConfig({ ...env, LTI_ALLOW_LOOPBACK: 'false' }).lti.allowLoopback).toBe(false);
  expect(loadConfig({ NODE_ENV: 'development', LTI_ALLOW_LOOPBACK: 'true' }).lti.allowLoopback).toBe(true);
});
