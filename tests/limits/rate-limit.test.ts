// Rate limits: counted per credential after
// authentication, per client IP without a valid one, with the exact header set on every response.
import request from 'supertest';
import { testConfig } from '../../src/config';
import { movableClock } from '../helpers/clock';
import { ACCEPT_BOTH, createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import {
  authorizationParams,
  connectApp,
  exchangeCode,
  loggedInAgent,
  obtainCode,
  refresh,
} from '../oauth/oauth-helpers';

const listTools = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

function post(app: TestApp, credential?: string, headers: Record<string, string> = {}) {
  const req = request(app.app).post('/api/mcp').set('Accept', ACCEPT_BOTH).set(headers);
  if (credential !== undefined) req.set('Authorization', `Bearer ${credential}`);
  return req.send(listTools);
}

const RATE_HEADERS = [
  'ratelimit-policy',
  'ratelimit',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
];

describe('rate limit headers and the 121st request (default 120 per 60 s)', () => {
  let app: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    app = await startTestApp();
    user = await createTestUser(app);
  });
  afterAll(() => app.close());

  test('every response carries exactly the spec header set; the 121st gets 429 with Retry-After and a problem body', async () => {
    const first = await post(app, user.apiKey);
    expect(first.status).toBe(200);
    expect(first.headers['ratelimit-policy']).toBe('"default";q=120;w=60');
    expect(first.headers['ratelimit']).toMatch(/^"default";r=119;t=(60|59)$/);
    expect(first.headers['ratelimit-limit']).toBe('120');
    expect(first.headers['ratelimit-remaining']).toBe('119');
    expect(first.headers['ratelimit-reset']).toMatch(/^(60|59)$/);
    expect(first.headers['retry-after']).toBeUndefined();
    expect(first.headers['x-ratelimit-limit']).toBeUndefined();

    for (let i = 2; i <= 120; i += 1) {
      const res = await post(app, user.apiKey);
      expect(res.status).toBe(200);
      expect(res.headers['ratelimit-remaining']).toBe(String(120 - i));
    }
    const refused = await post(app, user.apiKey);
    expect(refused.status).toBe(429);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThanOrEqual(1);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.headers['ratelimit']).toBe(`"default";r=0;t=${wait}`);
    expect(refused.headers['ratelimit-policy']).toBe('"default";q=120;w=60');
    expect(refused.headers['ratelimit-remaining']).toBe('0');
    expect(refused.headers['ratelimit-reset']).toBe(String(wait));
    expect(JSON.parse(refused.text)).toEqual({
      type: `${app.baseUrl}/en/docs/api-reference#error-rate_limited`,
      title: 'Too Many Requests',
      status: 429,
      code: 'rate_limited',
      detail: 'More than 120 requests in 60 seconds.',
      hint: `Wait ${wait} seconds (Retry-After) before retrying.`,
    });
  });

  test('401 responses carry the headers too', async () => {
    const res = await post(app);
    expect(res.status).toBe(401);
    for (const header of RATE_HEADERS) expect(res.headers[header]).toBeDefined();
    expect(res.headers['ratelimit-policy']).toBe('"default";q=120;w=60');
  });
});

describe('buckets', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ config: { rateLimit: { max: 5, windowSeconds: 60 } } });
  });
  afterAll(() => app.close());

  test("two users' budgets are independent", async () => {
    const alice = await createTestUser(app, 'alice');
    const bob = await createTestUser(app, 'bob');
    for (let i = 0; i < 5; i += 1) expect((await post(app, alice.apiKey)).status).toBe(200);
    expect((await post(app, alice.apiKey)).status).toBe(429);
    const res = await post(app, bob.apiKey);
    expect(res.status).toBe(200);
    expect(res.headers['ratelimit-remaining']).toBe('4');
  });

  test('missing and bad credentials share one bucket per client IP, whatever the token', async () => {
    const fresh = await startTestApp({ config: { rateLimit: { max: 5, windowSeconds: 60 } } });
    try {
      const attempts = [undefined, 'svc_' + 'x'.repeat(43), 'random-token-1', 'random-token-2', 'Zm9vYmFy'];
      const remaining: string[] = [];
      for (const token of attempts) {
        const res = await post(fresh, token);
        expect(res.status).toBe(401);
        remaining.push(res.headers['ratelimit-remaining'] ?? '');
      }
      expect(remaining).toEqual(['4', '3', '2', '1', '0']);
      const flooded = await post(fresh, 'yet-another-random-token');
      expect(flooded.status).toBe(429);
      // A valid key still has its own budget: the flood from this address does not lock users out.
      const user = await createTestUser(fresh);
      expect((await post(fresh, user.apiKey)).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });

  test('a spoofed X-Forwarded-For from a client that is not a configured proxy changes nothing', async () => {
    const fresh = await startTestApp({ config: { rateLimit: { max: 3, windowSeconds: 60 } } });
    try {
      for (let i = 0; i < 3; i += 1) {
        expect((await post(fresh, undefined, { 'X-Forwarded-For': `203.0.113.${i}` })).status).toBe(401);
      }
      expect((await post(fresh, undefined, { 'X-Forwarded-For': '198.51.100.7' })).status).toBe(429);
    } finally {
      await fresh.close();
    }
  });

  test('behind a configured proxy, X-Forwarded-For names the client (IPv6 grouped by /56)', async () => {
    const fresh = await startTestApp({
      config: { rateLimit: { max: 2, windowSeconds: 60 }, trustProxy: ['127.0.0.1', '::ffff:127.0.0.1'] },
    });
    try {
      const from = (ip: string) => post(fresh, undefined, { 'X-Forwarded-For': ip });
      expect((await from('203.0.113.1')).status).toBe(401);
      expect((await from('203.0.113.1')).status).toBe(401);
      expect((await from('203.0.113.1')).status).toBe(429);
      expect((await from('203.0.113.2')).status).toBe(401);
      // Two addresses in one /56 count as one client; another /56 is another client.
      expect((await from('2001:db8:0:100::1')).status).toBe(401);
      expect((await from('2001:db8:0:1ff::2')).status).toBe(401);
      expect((await from('2001:db8:0:1aa::3')).status).toBe(429);
      expect((await from('2001:db8:0:200::1')).status).toBe(401);
    } finally {
      await fresh.close();
    }
  });

  test('the window resets: a refused credential is served again after the window', async () => {
    const clock = movableClock();
    const fresh = await startTestApp({ config: { rateLimit: { max: 2, windowSeconds: 1 } } });
    try {
      const user = await createTestUser(fresh);
      expect((await post(fresh, user.apiKey)).headers['ratelimit-policy']).toBe('"default";q=2;w=1');
      expect((await post(fresh, user.apiKey)).status).toBe(200);
      const refused = await post(fresh, user.apiKey);
      expect(refused.status).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(1);
      clock.advance(1_100);
      const again = await post(fresh, user.apiKey);
      expect(again.status).toBe(200);
      expect(again.headers['ratelimit-remaining']).toBe('1');
    } finally {
      clock.restore();
      await fresh.close();
    }
  });
});

describe('the OAuth token and revocation endpoints', () => {
  let app: TestApp;
  beforeAll(async () => {
    const limits = { ...testConfig().limits, tokenPerClientPerMinute: 3, tokenPerAddressPerMinute: 5 };
    app = await startTestApp({ config: { rateLimit: { max: 4, windowSeconds: 60 }, limits } });
  });
  afterAll(() => app.close());

  const token = (clientId: string) =>
    request(app.app)
      .post('/oauth/token')
      .type('form')
      .send({ grant_type: 'refresh_token', refresh_token: 'qrt_guess', client_id: clientId });
  const revoke = (clientId: string) =>
    request(app.app).post('/oauth/revoke').type('form').send({ token: 'qat_guess', client_id: clientId });

  test('count per client and address: past its budget, 429 with Retry-After and a problem body; other clients go on', async () => {
    const answers = [await token('app-a'), await revoke('app-a'), await token('app-a')];
    // Within the budget each is answered on its merits (an unknown client), with the headers.
    for (const res of answers) {
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(429);
      expect(res.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
    }
    expect(answers.map((res) => res.headers['ratelimit-remaining'])).toEqual(['2', '1', '0']);
    const refused = await revoke('app-a');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(refused.body.code).toBe('rate_limited');

    // Another client behind the same address has its own budget...
    const other = await token('app-b');
    expect(other.status).toBeLessThan(429);
    // ...under the address's ceiling, which counts every request (five so far).
    const ceiling = await token('app-c');
    expect(ceiling.status).toBe(429);
    expect(ceiling.headers['ratelimit-policy']).toBe('"default";q=5;w=60');
    // The MCP endpoint keeps its own budget.
    expect((await post(app)).headers['ratelimit-remaining']).toBe('3');
  });
});

describe("flooding a client's client_id from elsewhere does not lock the client out", () => {
  let app: TestApp;
  const ATTACKER = '203.0.113.66';
  beforeAll(async () => {
    // The client's own requests come from 127.0.0.1; the attacker's, through the trusted
    // loopback proxy, from another address.
    const limits = { ...testConfig().limits, tokenPerClientPerMinute: 5, tokenPerAddressPerMinute: 1_000 };
    app = await startTestApp({ config: { limits, trustProxy: ['127.0.0.1', '::ffff:127.0.0.1'] } });
  });
  afterAll(() => app.close());

  test('the real client still exchanges a code, refreshes and revokes', async () => {
    const { agent } = await loggedInAgent(app);
    const { client, tokens } = await connectApp(app, agent);
    const { params, verifier } = authorizationParams(client);
    const code = await obtainCode(agent, params);

    const flood = [];
    for (let i = 0; i < 8; i += 1) {
      flood.push(
        await request(app.app)
          .post('/oauth/token')
          .set('X-Forwarded-For', ATTACKER)
          .auth(client.clientId, 'junk')
          .type('form')
          .send({ grant_type: 'refresh_token', refresh_token: 'qrt_guess' }),
        await request(app.app)
          .post('/oauth/token')
          .set('X-Forwarded-For', ATTACKER)
          .type('form')
          .send({ grant_type: 'refresh_token', refresh_token: 'qrt_guess', client_id: client.clientId }),
        await request(app.app)
          .post('/oauth/revoke')
          .set('X-Forwarded-For', ATTACKER)
          .type('form')
          .send({ token: 'qat_guess', client_id: client.clientId }),
      );
    }
    // The attacker spent the client's budget from its own address, and only there.
    expect(flood.filter((res) => res.status === 429)).toHaveLength(flood.length - 5);

    const exchanged = await exchangeCode(app, client, code, verifier);
    expect(exchanged.status).toBe(200);
    const refreshed = await refresh(app, client, tokens.refresh_token);
    expect(refreshed.status).toBe(200);
    const revoked = await request(app.app)
      .post('/oauth/revoke')
      .type('form')
      .send({ token: refreshed.body.access_token, client_id: client.clientId });
    expect(revoked.status).toBe(200);
  });
});
