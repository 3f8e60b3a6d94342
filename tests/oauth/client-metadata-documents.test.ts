// Client ID Metadata Documents: a valid document works end to end; documents that lie about
// their client_id, are too large, too slow or redirect are refused; URLs that resolve to
// private, loopback or metadata-service addresses are refused before any connection.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { squash } from '../dashboard/dashboard-helpers';
import { createLogger } from '../../src/logger';
import { memoryLog } from '../helpers/memory-log';
import type { TestApp } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { fetchClientMetadata, MetadataFetchError } from '../../src/oauth/fetch-client-metadata';
import { createClientResolver } from '../../src/oauth/resolve-client';
import {
  authorizationParams,
  authorizePath,
  decide,
  exchangeCode,
  loggedInAgent,
  LOOPBACK_REDIRECT,
  mcp,
  redirectQuery,
  startOAuthTestApp,
} from './oauth-helpers';

let docs: http.Server;
let docBase: string;
const fetches = new Map<string, number>();

function documentFor(path: string, extra: Record<string, unknown> = {}) {
  return {
    client_id: `${docBase}${path}`,
    client_name: 'Doc App',
    redirect_uris: [LOOPBACK_REDIRECT],
    token_endpoint_auth_method: 'none',
    ...extra,
  };
}

beforeAll(async () => {
  docs = http.createServer((req, res) => {
    const path = req.url ?? '/';
    fetches.set(path, (fetches.get(path) ?? 0) + 1);
    const json = (body: unknown, headers: Record<string, string> = {}) => {
      res.writeHead(200, { 'Content-Type': 'application/json', ...headers }).end(JSON.stringify(body));
    };
    if (path === '/valid.json' || path === '/cached.json')
      return json(documentFor(path), { 'Cache-Control': 'max-age=3600' });
    if (path === '/host.json') return json({ host: req.headers.host });
    if (path === '/mismatch.json') return json(documentFor(path, { client_id: `${docBase}/other.json` }));
    if (path === '/large.json') return json(documentFor(path, { padding: 'x'.repeat(6 * 1024) }));
    if (path === '/secret.json')
      return json(documentFor(path, { token_endpoint_auth_method: 'client_secret_basic' }));
    if (path === '/bad-redirect.json')
      return json(documentFor(path, { redirect_uris: ['javascript:alert(1)'] }));
    if (path === '/redirect.json') return res.writeHead(302, { Location: '/valid.json' }).end();
    if (path === '/slow.json') {
      const timer = setTimeout(() => json(documentFor(path)), 5_000);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => docs.listen(0, '127.0.0.1', resolve));
  docBase = `http://127.0.0.1:${(docs.address() as AddressInfo).port}`;
});
afterAll(async () => {
  docs.closeAllConnections();
  await new Promise((resolve) => docs.close(resolve));
});

/** What the person sees when the document could not be fetched, whatever the reason. */
const NOT_FETCHED = 'could not be fetched';

describe('through the authorization endpoint (loopback allowed for the test server)', () => {
  let app: TestApp;
  const log = memoryLog();
  beforeAll(async () => {
    app = await startOAuthTestApp({
      oauthTestHooks: { clientMetadataFetch: { allowLoopbackForTests: true } },
      logger: createLogger('info', log.stream),
    });
  });
  afterAll(async () => {
    await app.close();
  });

  test('a valid document: consent names the app and its publisher, then code, token and tools/list', async () => {
    const { agent } = await loggedInAgent(app);
    const client = { clientId: `${docBase}/valid.json`, redirectUri: LOOPBACK_REDIRECT };
    const { params, verifier } = authorizationParams(client);
    const page = await agent.get(authorizePath(params));
    expect(page.status).toBe(200);
    const text = squash(page.text);
    expect(text).toContain('Allow “Doc App” to use your quiz account?');
    expect(text).toContain(`published by <strong>${new URL(docBase).host}</strong>`);
    const approved = await decide(agent, params);
    const code = redirectQuery(approved).get('code')!;
    const tokens = await exchangeCode(app, client, code, verifier);
    expect(tokens.status).toBe(200);
    expect((await mcp(app, tokens.body.access_token)).status).toBe(200);
    expect(squash((await agent.get('/settings/connected-apps')).text)).toContain('Doc App');
  });

  test('a redirect URI not in the document is refused with a page', async () => {
    const { agent } = await loggedInAgent(app);
    const client = { clientId: `${docBase}/valid.json`, redirectUri: 'https://evil.example/cb' };
    const res = await agent.get(authorizePath(authorizationParams(client).params));
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
  });

  test.each([
    ['client_id differs from the URL', '/mismatch.json', 'its client_id must be exactly that URL'],
    ['a shared-secret method', '/secret.json', 'token_endpoint_auth_method must be'],
    ['an unsafe redirect URI', '/bad-redirect.json', 'redirect_uris[0]'],
  ])('refused, with what is wrong in the document named: %s', async (_label, path, reason) => {
    const { agent } = await loggedInAgent(app);
    const client = { clientId: `${docBase}${path}`, redirectUri: LOOPBACK_REDIRECT };
    const started = Date.now();
    const res = await agent.get(authorizePath(authorizationParams(client).params));
    expect(Date.now() - started).toBeLessThan(4_500);
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    expect(res.text).toContain(reason);
  });

  test.each([
    ['too large', '/large.json', 'larger than 5120 bytes'],
    ['a redirect', '/redirect.json', 'answered with a redirect'],
    ['missing', '/missing.json', 'HTTP 404'],
    ['too slow', '/slow.json', 'did not answer within 3 s'],
  ])(
    'a failed fetch (%s) gets one generic message; the reason is only logged',
    async (_label, path, reason) => {
      const { agent } = await loggedInAgent(app);
      const client = { clientId: `${docBase}${path}`, redirectUri: LOOPBACK_REDIRECT };
      const started = Date.now();
      const res = await agent.get(authorizePath(authorizationParams(client).params));
      expect(Date.now() - started).toBeLessThan(4_500);
      expect(res.status).toBe(400);
      expect(res.headers.location).toBeUndefined();
      expect(res.text).toContain(NOT_FETCHED);
      expect(res.text).not.toContain(reason);
      const logged = log.lines().find((line) => line.clientId === client.clientId);
      expect(String(logged?.reason)).toContain(reason);
    },
  );
});

describe('SSRF guards (no test allowance)', () => {
  let app: TestApp;
  let trap: net.Server;
  let trapPort: number;
  let connections = 0;
  beforeAll(async () => {
    app = await startOAuthTestApp();
    trap = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => trap.listen(0, '127.0.0.1', resolve));
    trapPort = (trap.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await new Promise((resolve) => trap.close(resolve));
    await app.close();
  });

  test.each([
    ['the cloud metadata service', 'https://169.254.169.254/latest/meta-data/client.json'],
    ['a private address', 'https://10.0.0.1/client.json'],
    ['another private range', 'https://192.168.1.1/client.json'],
    ['CGNAT', 'https://100.64.0.1/client.json'],
    ['IPv6 loopback', 'https://[::1]/client.json'],
    ['IPv6 unique-local', 'https://[fd00::1]/client.json'],
    ['IPv4-mapped IPv6', 'https://[::ffff:a9fe:a9fe]/client.json'],
    ['127.x without the test allowance', 'https://127.0.0.1:TRAP/client.json'],
    ['a host name resolving to 127.0.0.1', 'https://localhost:TRAP/client.json'],
  ])('%s is refused before connecting', async (_label, raw) => {
    const url = raw.replace('TRAP', String(trapPort));
    const { agent } = await loggedInAgent(app);
    const res = await agent.get(
      authorizePath(authorizationParams({ clientId: url, redirectUri: LOOPBACK_REDIRECT }).params),
    );
    expect(res.status).toBe(400);
    expect(res.headers.location).toBeUndefined();
    // Which step failed (DNS, a private address, a timeout) is not told: no scanning through us.
    expect(res.text).toContain(NOT_FETCHED);
    expect(res.text).not.toContain('non-public');
    expect(connections).toBe(0);
  });

  test('http is refused without the allowance', async () => {
    const { agent } = await loggedInAgent(app);
    const client = { clientId: `${docBase}/valid.json`, redirectUri: LOOPBACK_REDIRECT };
    const res = await agent.get(authorizePath(authorizationParams(client).params));
    expect(res.status).toBe(400);
    expect(res.text).toContain('must use https');
  });

  test('a name whose DNS answers include a private address is refused, even next to a public one', async () => {
    const resolve = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '169.254.169.254', family: 4 },
    ];
    await expect(
      fetchClientMetadata(new URL('https://app.example.com/client.json'), { resolve }),
    ).rejects.toThrow(MetadataFetchError);
    const onlyPrivate = async () => [{ address: '10.1.2.3', family: 4 }];
    await expect(
      fetchClientMetadata(new URL('https://app.example.com/client.json'), { resolve: onlyPrivate }),
    ).rejects.toThrow(/non-public/);
  });
});

describe('fetching and caching', () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterAll(async () => {
    await database.drop();
  });

  test('the connection goes to the vetted address, not to a second DNS answer', async () => {
    const port = new URL(docBase).port;
    const resolve = async () => [{ address: '127.0.0.1', family: 4 }];
    const fetched = await fetchClientMetadata(new URL(`http://quiz-docs.invalid:${port}/host.json`), {
      resolve,
      allowLoopbackForTests: true,
    });
    expect(fetched.body).toEqual({ host: `quiz-docs.invalid:${port}` });
  });

  test('documents are cached per Cache-Control max-age', async () => {
    const resolver = createClientResolver({ repos: database.repos, fetch: { allowLoopbackForTests: true } });
    const id = `${docBase}/cached.json`;
    const before = fetches.get('/cached.json') ?? 0;
    const first = await resolver.resolveForAuthorization(id);
    const second = await resolver.resolveForAuthorization(id);
    expect(first.name).toBe('Doc App');
    expect(second.redirectUris).toEqual([LOOPBACK_REDIRECT]);
    expect(fetches.get('/cached.json')).toBe(before + 1);
    // The token endpoint finds the stored copy without fetching.
    expect((await resolver.findKnownClient(id))?.source).toBe('metadata_document');
  });
});
