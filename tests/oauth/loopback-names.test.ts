// A service whose BASE_URL is a loopback address answers OAuth under whichever loopback name a
// client uses (localhost, 127.0.0.1, [::1]) on the same port: the metadata, the challenges and
// the token audience follow that name, never a non-loopback one; a token stays bound to the
// name it was issued under. Requests go to the real listening server with the Host header a
// client using that name sends.
import request from 'supertest';
import { startTestApp, type TestApp, createTestUser } from '../helpers/test-app';
import { csrfFrom } from '../dashboard/dashboard-helpers';
import {
  authorizationParams,
  authorizePath,
  consentFields,
  registerPublicClient,
  type Tokens,
} from './oauth-helpers';

let app: TestApp;
let port: string;
beforeAll(async () => {
  app = await startTestApp(); // BASE_URL http://127.0.0.1:<port>
  port = new URL(app.baseUrl).port;
});
afterAll(async () => {
  await app?.close();
});

/** A supertest agent (with cookies) whose every request says `Host: <host>`. */
function clientUsing(host: string) {
  const agent = request.agent(app.baseUrl);
  const withHost = <T extends { set(name: string, value: string): T }>(test: T) => test.set('Host', host);
  return {
    get: (path: string) => withHost(agent.get(path)),
    post: (path: string) => withHost(agent.post(path)),
  };
}

const TOOLS_LIST = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });

function callMcp(host: string, token: string) {
  return request(app.baseUrl)
    .post('/api/mcp')
    .set('Host', host)
    .set('Authorization', `Bearer ${token}`)
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json')
    .send(TOOLS_LIST);
}

describe('discovery under each loopback name', () => {
  test.each(['localhost', '127.0.0.1', '[::1]'])(
    '%s: the metadata and the challenge name it',
    async (name) => {
      const host = `${name}:${port}`;
      const base = `http://${host}`;
      const client = clientUsing(host);
      const resource = await client.get('/.well-known/oauth-protected-resource/api/mcp');
      expect(resource.body).toMatchObject({ resource: `${base}/api/mcp`, authorization_servers: [base] });
      expect(resource.headers.vary).toMatch(/Host/);
      const server = await client.get('/.well-known/oauth-authorization-server');
      expect(server.body).toMatchObject({
        issuer: base,
        authorization_endpoint: `${base}/oauth/authorize`,
        token_endpoint: `${base}/oauth/token`,
        registration_endpoint: `${base}/oauth/register`,
        revocation_endpoint: `${base}/oauth/revoke`,
      });
      const challenge = await client
        .post('/api/mcp')
        .set('Content-Type', 'application/json')
        .send(TOOLS_LIST);
      expect(challenge.status).toBe(401);
      expect(challenge.headers['www-authenticate']).toContain(
        `resource_metadata="${base}/.well-known/oauth-protected-resource/api/mcp"`,
      );
    },
  );

  test.each([
    ['a name that is not loopback', 'evil.example'],
    ['a loopback name on another port', 'localhost:1'],
    ['a loopback-looking subdomain', 'localhost.evil.example'],
  ])('%s gets BASE_URL, never its own name', async (_what, host) => {
    const fullHost = host.includes(':') ? host : `${host}:${port}`;
    const resource = await clientUsing(fullHost).get('/.well-known/oauth-protected-resource/api/mcp');
    expect(resource.body.resource).toBe(`${app.baseUrl}/api/mcp`);
    expect(resource.body.authorization_servers).toEqual([app.baseUrl]);
  });
});

describe('the whole flow through localhost while BASE_URL says 127.0.0.1', () => {
  test('registration, log-in, consent (posted from that origin), code, token, a tool call; the token is refused under the other name', async () => {
    const host = `localhost:${port}`;
    const base = `http://${host}`;
    const browser = clientUsing(host);
    const user = await createTestUser(app, 'loopback');

    const client = await registerPublicClient(app);
    const { params, verifier } = authorizationParams(client, { resource: `${base}/api/mcp` });

    // Not logged in: the consent sends the person to log in, and back.
    const first = await browser.get(authorizePath(params));
    expect(first.status).toBe(303);
    const loginPath = first.headers.location!;
    expect(loginPath).toMatch(/^\/login\?returnTo=/);
    const loginPage = await browser.get(loginPath);
    const loggedIn = await browser
      .post('/login')
      .set('Origin', base)
      .type('form')
      .send({
        _csrf: csrfFrom(loginPage.text),
        email: user.email,
        password: user.password,
        returnTo: authorizePath(params),
      });
    expect(loggedIn.status).toBe(303);

    const consent = await browser.get(authorizePath(params));
    expect(consent.status).toBe(200);
    const decided = await browser
      .post('/oauth/authorize')
      .set('Origin', base)
      .type('form')
      .send({ ...consentFields(consent.text), decision: 'approve' });
    expect(decided.status).toBe(303);
    const redirect = new URL(decided.headers.location!);
    expect(redirect.searchParams.get('iss')).toBe(base);
    const code = redirect.searchParams.get('code')!;

    const exchanged = await browser
      .post('/oauth/token')
      .type('form')
      .send({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: client.redirectUri,
        client_id: client.clientId,
        resource: `${base}/api/mcp`,
      });
    expect(exchanged.status).toBe(200);
    const tokens = exchanged.body as Tokens;

    const called = await callMcp(host, tokens.access_token);
    expect(called.status).toBe(200);
    expect(called.body.result.tools.length).toBeGreaterThan(0);

    // Bound to the resource it was issued for: under 127.0.0.1 it is refused, and the challenge
    // sends the client to start again there.
    const elsewhere = await callMcp(`127.0.0.1:${port}`, tokens.access_token);
    expect(elsewhere.status).toBe(401);
    expect(elsewhere.headers['www-authenticate']).toContain(
      `resource_metadata="${app.baseUrl}/.well-known/oauth-protected-resource/api/mcp"`,
    );
    expect(elsewhere.headers['www-authenticate']).toContain('error="invalid_token"');
  });

  test('asking under localhost for the resource under 127.0.0.1 is refused (invalid_target)', async () => {
    const host = `localhost:${port}`;
    const client = await registerPublicClient(app);
    const { params } = authorizationParams(client, { resource: `${app.baseUrl}/api/mcp` });
    const user = await createTestUser(app, 'loopback-target');
    const browser = clientUsing(host);
    const loginPage = await browser.get('/login');
    await browser
      .post('/login')
      .type('form')
      .send({ _csrf: csrfFrom(loginPage.text), email: user.email, password: user.password });
    const res = await browser.get(authorizePath(params));
    expect(res.status).toBe(303);
    const redirect = new URL(res.headers.location!);
    expect(redirect.searchParams.get('error')).toBe('invalid_target');
    expect(redirect.searchParams.get('error_description')).toContain(`http://localhost:${port}/api/mcp`);
  });
});

describe('with a public BASE_URL nothing follows the Host', () => {
  test('documents name BASE_URL whatever the Host says', async () => {
    const publicApp = await startTestApp({ config: { baseUrl: 'https://quiz.example.com' } });
    try {
      const res = await request(publicApp.app)
        .get('/.well-known/oauth-protected-resource/api/mcp')
        .set('Host', 'localhost');
      expect(res.body.resource).toBe('https://quiz.example.com/api/mcp');
      expect(res.headers.vary ?? '').not.toMatch(/Host/);
    } finally {
      await publicApp.close();
    }
  });
});
