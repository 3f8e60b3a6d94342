// Every answer carries `X-Content-Type-Options: nosniff` (problem bodies echo the requested
// path, and a browser must never sniff them into HTML); a malformed Host is a 400 everywhere, in
// every environment, and with host checking on a well-formed foreign one is a 403, as SECURITY.md
// says.
import request from 'supertest';
import { expectProblem } from '../helpers/http';
import { ACCEPT_BOTH, createTestUser, startTestApp, type TestApp } from '../helpers/test-app';

describe('security headers and Host checks', () => {
  let app: TestApp;
  let strict: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    app = await startTestApp();
    strict = await startTestApp({ database: app.database, config: { enforceHost: true } });
    apiKey = (await createTestUser(app, 'headers')).apiKey;
  });
  afterAll(async () => {
    await strict.close();
    await app.close();
  });

  test.each([
    ['a 404 problem echoing the path', () => request(app.app).get('/<script>alert(1)</script>')],
    ['a 400 problem', () => request(app.app).get('/dashboard?x=%00')],
    ['a 401 from the MCP endpoint', () => request(app.app).post('/api/mcp').send({})],
    [
      'a JSON-RPC answer',
      () =>
        request(app.app)
          .post('/api/mcp')
          .set('Accept', ACCEPT_BOTH)
          .set('Authorization', `Bearer ${apiKey}`)
          .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    ],
    ['an OAuth error', () => request(app.app).post('/oauth/token').type('form').send('grant_type=x')],
    ['the OpenAPI document', () => request(app.app).get('/openapi.json')],
    ['a page', () => request(app.app).get('/login')],
  ])('%s carries nosniff', async (_what, send) => {
    const res = await send();
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  test.each(['/', '/api/mcp', '/dashboard', '/oauth/token', '/q/some-quiz', '/nothing-here'])(
    'host checking off (development): a malformed Host at %s is a 400 problem too',
    async (path) => {
      for (const host of ['bad host', '[::1', 'x:99999']) {
        const res = await request(app.app).get(path).set('Host', host);
        expect({ host, status: res.status }).toEqual({ host, status: 400 });
        expectProblem(res, app.baseUrl, 'bad_request');
      }
    },
  );

  test('health probes answer whatever Host a load balancer sends, or none', async () => {
    for (const probe of ['/healthz', '/readyz']) {
      expect((await request(app.app).get(probe).set('Host', 'bad host')).status).toBe(200);
      expect((await request(strict.app).get(probe).set('Host', '10.0.0.7:8080')).status).toBe(200);
    }
  });

  test.each(['/', '/api/mcp', '/dashboard', '/oauth/token', '/nothing-here'])(
    'host checking on: a malformed Host at %s is a 400 problem, a foreign one a 403',
    async (path) => {
      for (const host of ['bad host', '[::1', 'x:99999', 'a..b']) {
        const res = await request(strict.app).post(path).set('Host', host);
        expect({ host, status: res.status }).toEqual({ host, status: 400 });
        expectProblem(res, strict.baseUrl, 'bad_request');
        expect(res.body.detail).toMatch(/is not a host name with an optional port/);
      }
      const foreign = await request(strict.app).post(path).set('Host', 'rebound.example');
      expect(foreign.status).toBe(403);
      expectProblem(foreign, strict.baseUrl, 'forbidden');
    },
  );
});
