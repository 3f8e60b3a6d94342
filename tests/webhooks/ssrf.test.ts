// Where webhooks may go, with the development setting off (as in production): HTTPS to public
// addresses only, checked when an endpoint is saved and again at each delivery, which connects
// to the address it checked. Start-up refuses WEBHOOKS_ALLOW_LOOPBACK in production.
import { ConfigError, loadConfig } from '../../src/config';
import { checkTarget, type Resolver } from '../../src/domain/webhooks/address';
import { createEndpoint } from '../../src/domain/webhooks/endpoints';
import { sealingKey } from '../../src/domain/webhooks/secrets';
import { sendWebhook } from '../../src/domain/webhooks/send';
import { DomainError } from '../../src/domain/errors';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { startReceiver, type Receiver } from './receiver';

const names: Record<string, string[]> = {
  'public.example': ['93.184.216.34'],
  'intranet.example': ['10.1.2.3'],
  'mixed.example': ['93.184.216.34', '192.168.1.10'],
  'metadata.example': ['169.254.169.254'],
  'v6-local.example': ['fe80::1'],
  'mapped.example': ['::ffff:127.0.0.1'],
  'nat.example': ['100.64.0.1'],
};
const resolver: Resolver = async (host) => {
  const addresses = names[host];
  if (!addresses) throw new Error('ENOTFOUND');
  return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};
const production = { allowLoopback: false, resolve: resolver };

describe('webhook targets with loopback not allowed', () => {
  test.each([
    ['http://public.example/hook', /https:\/\//],
    ['https://127.0.0.1/hook', /127\.0\.0\.1.*not a public address/],
    ['https://[::1]/hook', /::1.*not a public address/],
    ['https://10.0.0.5/hook', /not a public address/],
    ['https://172.16.3.4/hook', /not a public address/],
    ['https://192.168.0.1/hook', /not a public address/],
    ['https://169.254.169.254/latest/meta-data', /not a public address/],
    ['https://[fe80::1]/hook', /not a public address/],
    ['https://[fd00::1]/hook', /not a public address/],
    ['https://[::ffff:a00:1]/hook', /not a public address/],
    ['https://0.0.0.0/hook', /not a public address/],
    ['https://intranet.example/hook', /10\.1\.2\.3/],
    ['https://mixed.example/hook', /192\.168\.1\.10/],
    ['https://metadata.example/hook', /169\.254\.169\.254/],
    ['https://v6-local.example/hook', /fe80::1/],
    ['https://mapped.example/hook', /::ffff:127\.0\.0\.1/],
    ['https://nat.example/hook', /100\.64\.0\.1/],
    ['https://nowhere.example/hook', /does not resolve/],
    ['https://user:pw@public.example/hook', /user name and password/],
    ['ftp://public.example/hook', /https:\/\//],
    ['not a url', /full URL/],
  ])('%s is refused', async (url, reason) => {
    const checked = await checkTarget(url, production);
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.reason).toMatch(reason);
  });

  test('a public HTTPS name is accepted, with the address it resolved to', async () => {
    expect(await checkTarget('https://public.example/hook', production)).toMatchObject({
      ok: true,
      address: '93.184.216.34',
    });
  });

  test('the development setting allows loopback over http, and still no private network', async () => {
    const dev = { allowLoopback: true, resolve: resolver };
    expect((await checkTarget('http://127.0.0.1:8080/hook', dev)).ok).toBe(true);
    expect((await checkTarget('http://[::1]:8080/hook', dev)).ok).toBe(true);
    expect((await checkTarget('http://intranet.example/hook', dev)).ok).toBe(false);
    expect((await checkTarget('http://public.example/hook', dev)).ok).toBe(false);
  });

  test('each delivery checks again: a name that now resolves to a private address is not contacted', async () => {
    const receiver = await startReceiver();
    try {
      // The receiver is really on loopback; the name "moved" there after the endpoint was saved.
      const port = new URL(receiver.url).port;
      const moved: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
      const result = await sendWebhook(
        { url: `https://moved.example:${port}/hook`, headers: {}, body: '{}' },
        { allowLoopback: false, timeoutMs: 1_000, resolve: moved },
      );
      expect(result).toMatchObject({ outcome: 'refused_address', status: null });
      expect(result.snippet).toMatch(/127\.0\.0\.1/);
      expect(receiver.received).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  test('start-up refuses WEBHOOKS_ALLOW_LOOPBACK in production, naming it', () => {
    const env = {
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(40),
      WEBHOOKS_ALLOW_LOOPBACK: 'true',
    } as const;
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(/WEBHOOKS_ALLOW_LOOPBACK/);
    expect(loadConfig({ ...env, WEBHOOKS_ALLOW_LOOPBACK: 'false' }).webhooks.allowLoopback).toBe(false);
    expect(
      loadConfig({ NODE_ENV: 'development', WEBHOOKS_ALLOW_LOOPBACK: 'true' }).webhooks.allowLoopback,
    ).toBe(true);
  });
});

describe('saving an endpoint with loopback not allowed', () => {
  let app: TestApp;
  let receiver: Receiver;
  beforeAll(async () => {
    app = await startTestApp();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await receiver.close();
    await app.close();
  });

  test('a loopback receiver is refused with the reason, and nothing is saved', async () => {
    const user = await createTestUser(app, 'ssrf');
    const settings = {
      sealingKey: sealingKey(app.config.webhooks.secretKey, app.config.sessionSecret),
      allowLoopback: app.config.webhooks.allowLoopback,
    };
    expect(settings.allowLoopback).toBe(false);
    for (const url of [receiver.url, receiver.url.replace('http:', 'https:'), 'https://localhost/hook']) {
      const error = await createEndpoint(app.deps.repos, settings, user.id, {
        url,
        events: ['response.submitted'],
        quizIds: null,
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(DomainError);
      expect((error as DomainError).issues[0]).toMatchObject({ field: 'url' });
    }
    expect(await app.deps.repos.webhooks.endpoints(user.id)).toEqual([]);
  });
});
