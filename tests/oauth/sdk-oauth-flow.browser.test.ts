// The MCP SDK's own OAuth client end to end, as an assistant would run it: discovery from the
// 401, dynamic registration, a person logging in and approving in a real Chromium, the code
// captured by a loopback callback server (RFC 8252), tool calls, a refresh forced by a short
// access-token lifetime, revocation, and a 401 after it. The consent page is kept as a
// screenshot in test-artifacts/.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { describeWithBrowser, launchBrowser, screenshot } from '../helpers/browser';
import { movableClock } from '../helpers/clock';
import { eventually } from '../helpers/eventually';
import { createTestUser, sampleQuestions, type TestApp, type TestUser } from '../helpers/test-app';
import { payload, type ToolResult } from '../helpers/mcp-clients';
import {
  authorizationParams,
  authorizePath,
  mcp,
  oauthConfig,
  registerPublicClient,
  startOAuthTestApp,
} from './oauth-helpers';

jest.setTimeout(90_000);

/** An assistant's token store, in memory: what the SDK saves, it reads back unchanged. */
class MemoryProvider implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens[] = [];
  verifier = '';
  authorizationUrl: URL | undefined;

  constructor(readonly redirectUrl: string) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'SDK test assistant',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state() {
    return 'sdk-state-123';
  }
  clientInformation() {
    return this.client;
  }
  saveClientInformation(info: OAuthClientInformationMixed) {
    this.client = info;
  }
  tokens() {
    return this.saved.at(-1);
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved.push(tokens);
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
  invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    if (scope === 'all' || scope === 'tokens') this.saved = [];
  }
}

/** The native app's side of RFC 8252: a loopback server that receives the redirect. */
async function startCallbackServer() {
  const received: URLSearchParams[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/frame') {
      res
        .writeHead(200, { 'Content-Type': 'text/html' })
        .end(`<iframe id="victim" src="${url.searchParams.get('src')}"></iframe>`);
      return;
    }
    received.push(url.searchParams);
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<p>You can close this window.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, received, origin, redirectUrl: `${origin}/callback` };
}

/** This file drives v1's Client itself, through its own OAuth provider. */
async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<ToolResult> {
  return (await client.callTool({ name, arguments: args })) as ToolResult;
}

describeWithBrowser('the MCP SDK OAuth client with a person in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let user: TestUser;
  let callback: Awaited<ReturnType<typeof startCallbackServer>>;

  beforeAll(async () => {
    app = await startOAuthTestApp({ config: { oauth: oauthConfig({ accessTokenTtlSeconds: 2 }) } });
    browser = await launchBrowser();
    callback = await startCallbackServer();
    user = await createTestUser(app, 'sdk-browser');
  });
  afterAll(async () => {
    await browser?.close();
    callback?.server.closeAllConnections();
    await new Promise((resolve) => callback?.server.close(resolve));
    await app?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    page = await context.newPage();
  });
  afterEach(async () => {
    await context.close();
  });

  const mcpUrl = () => new URL(`${app.baseUrl}/api/mcp`);

  /** The person's part: open the URL the SDK handed over, log in, look, approve; returns the code. */
  async function approveInBrowser(authorizationUrl: URL): Promise<string> {
    const before = callback.received.length;
    await page.goto(authorizationUrl.href);
    await page.waitForURL(/\/login\?returnTo=/);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page
      .getByRole('heading', { name: 'Allow “SDK test assistant” to use your quiz account?' })
      .waitFor();
    await page.getByText('That address is on your own computer.').waitFor();
    await screenshot(page, 'oauth-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL(`${callback.redirectUrl}?*`);
    const query = callback.received[before]!;
    expect(query.get('state')).toBe('sdk-state-123');
    expect(query.get('iss')).toBe(app.baseUrl);
    return query.get('code')!;
  }

  test('discovery, registration, consent, tools, refresh, revocation, 401', async () => {
    const provider = new MemoryProvider(callback.redirectUrl);
    const first = new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider });
    const client = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await expect(client.connect(first)).rejects.toThrow(UnauthorizedError);

    // The SDK registered itself and built the authorization URL from the discovered metadata.
    expect(provider.client?.client_id).toMatch(/^qci_/);
    const authorizationUrl = provider.authorizationUrl!;
    expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(`${app.baseUrl}/oauth/authorize`);
    expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizationUrl.searchParams.get('resource')).toBe(`${app.baseUrl}/api/mcp`);
    expect(authorizationUrl.searchParams.get('scope')).toBe('quizzes:read quizzes:write');

    const code = await approveInBrowser(authorizationUrl);
    await first.finishAuth(code);
    expect(provider.saved).toHaveLength(1);
    expect(provider.saved[0]!.access_token).toMatch(/^qat_/);

    const connected = new Client({ name: 'sdk-oauth-test', version: '1.0.0' });
    await connected.connect(new StreamableHTTPClientTransport(mcpUrl(), { authProvider: provider }));
    const created = payload(
      await callTool(connected, 'create_quiz', { title: 'Made over OAuth', questions: sampleQuestions() }),
    );
    expect(created.status).toBe('draft');

    // The access token lives 2 s here: past that, the next call gets a 401 and the SDK
    // refreshes by itself.
    const clock = movableClock();
    let listed;
    try {
      clock.advance(2_200);
      listed = payload(await callTool(connected, 'list_quizzes'));
    } finally {
      clock.restore();
    }
    expect(listed.quizzes.map((quiz: { title: string }) => quiz.title)).toContain('Made over OAuth');
    expect(provider.saved).toHaveLength(2);
    expect(provider.saved[1]!.refresh_token).not.toBe(provider.saved[0]!.refresh_token);

    // The assistant disconnects itself (RFC 7009); its tokens stop working at once.
    const current = provider.tokens()!;
    const revoked = await request(app.app).post('/oauth/revoke').type('form').send({
      token: current.refresh_token!,
      token_type_hint: 'refresh_token',
      client_id: provider.client!.client_id,
    });
    expect(revoked.status).toBe(200);
    expect((await mcp(app, current.access_token)).status).toBe(401);
    // The SDK's refresh now fails with invalid_grant, so it can only send the person back to consent.
    provider.authorizationUrl = undefined;
    await expect(callTool(connected, 'list_quizzes')).rejects.toThrow();
    expect(provider.authorizationUrl).toBeDefined();
    await connected.close();
  });

  test('the consent page refuses to render inside a frame on another site (clickjacking)', async () => {
    const client = await registerPublicClient(app, { redirect_uris: [callback.redirectUrl] });
    const { params } = authorizationParams(client);
    const authorize = `${app.baseUrl}${authorizePath(params)}`;
    // Logged in, the page itself shows the consent form...
    await page.goto(authorize);
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('button', { name: 'Allow' }).waitFor();
    // ...but framed by another origin, Chromium refuses to render it (frame-ancestors 'none').
    await page.goto(`${callback.origin}/frame?src=${encodeURIComponent(authorize)}`);
    const frame = await eventually(() => page.frames().find((candidate) => candidate !== page.mainFrame()), {
      until: (found) => /^chrome-error:/.test(found?.url() ?? ''),
    });
    expect(frame?.url()).toMatch(/^chrome-error:/);
    expect(await frame!.getByRole('button', { name: 'Allow' }).count()).toBe(0);
  });
});
