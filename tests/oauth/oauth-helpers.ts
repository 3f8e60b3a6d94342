// OAuth test helpers: an app with the test hooks, PKCE pairs, registration, the consent form
// driven as a browser would (supertest agent with cookies), and token requests.
import { createHash, randomBytes } from 'node:crypto';
import request from 'supertest';
import { testConfig, type Config } from '../../src/config';
import { logIn, newAgent, type Agent } from '../dashboard/dashboard-helpers';
import {
  createTestUser,
  startTestApp,
  type TestApp,
  type TestAppOptions,
  type TestUser,
} from '../helpers/test-app';

export const LOOPBACK_REDIRECT = 'http://127.0.0.1:8976/callback';

export type OAuthTestAppOptions = Pick<TestAppOptions, 'provider' | 'config' | 'oauthTestHooks' | 'logger'>;

/** startTestApp with createApp's OAuth test hooks. */
export function startOAuthTestApp(options: OAuthTestAppOptions = {}): Promise<TestApp> {
  return startTestApp(options);
}

export function oauthConfig(overrides: Partial<Config['oauth']> = {}): Config['oauth'] {
  return { ...testConfig().oauth, ...overrides };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(32).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export async function registerClient(app: TestApp, body: Record<string, unknown>): Promise<request.Response> {
  return request(app.app)
    .post('/oauth/register')
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(body));
}

export interface RegisteredClient {
  clientId: string;
  clientSecret?: string;
  redirectUri: string;
}

export async function registerPublicClient(
  app: TestApp,
  extra: Record<string, unknown> = {},
): Promise<RegisteredClient> {
  const redirectUri = (extra.redirect_uris as string[] | undefined)?.[0] ?? LOOPBACK_REDIRECT;
  const res = await registerClient(app, {
    client_name: 'Test assistant',
    redirect_uris: [redirectUri],
    token_endpoint_auth_method: 'none',
    ...extra,
  });
  expect(res.status).toBe(201);
  return { clientId: res.body.client_id, redirectUri };
}

export interface AuthorizationParams {
  client_id: string;
  redirect_uri?: string;
  code_challenge?: string;
  code_challenge_method?: string;
  response_type?: string;
  scope?: string;
  state?: string;
  resource?: string;
  [name: string]: string | undefined;
}

export function authorizePath(params: AuthorizationParams): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `/oauth/authorize?${query.toString()}`;
}

/** The usual parameters for a client, with a fresh PKCE pair. */
export function authorizationParams(client: RegisteredClient, extra: Partial<AuthorizationParams> = {}) {
  const pkce = pkcePair();
  const params: AuthorizationParams = {
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    code_challenge: pkce.challenge,
    code_challenge_method: 'S256',
    state: `state-${randomBytes(4).toString('hex')}`,
    scope: 'quizzes:read quizzes:write',
    ...extra,
  };
  return { params, verifier: pkce.verifier };
}

const ENTITIES: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
};

/** The hidden fields of the consent form (what the browser would send back). */
export function consentFields(page: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of page.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
    fields[match[1]!] = match[2]!.replace(/&(amp|lt|gt|quot|#39);/g, (entity) => ENTITIES[entity]!);
  }
  return fields;
}

/** A logged-in browser-like agent for a fresh user. */
export async function loggedInAgent(
  app: TestApp,
  label = 'oauth',
): Promise<{ agent: Agent; user: TestUser }> {
  const user = await createTestUser(app, label);
  const agent = newAgent(app);
  expect((await logIn(agent, user.email, user.password)).status).toBe(303);
  return { agent, user };
}

/** GET the consent page, then POST the decision; returns the POST's response (303 to the client). */
export async function decide(
  agent: Agent,
  params: AuthorizationParams,
  decision: 'approve' | 'deny' = 'approve',
): Promise<request.Response> {
  const page = await agent.get(authorizePath(params));
  expect(page.status).toBe(200);
  return agent
    .post('/oauth/authorize')
    .type('form')
    .send({ ...consentFields(page.text), decision });
}

/** The query of a redirect to the client. */
export function redirectQuery(res: request.Response): URLSearchParams {
  expect([302, 303]).toContain(res.status);
  return new URL(res.headers.location!).searchParams;
}

/** Approves and returns the authorization code. */
export async function obtainCode(agent: Agent, params: AuthorizationParams): Promise<string> {
  const res = await decide(agent, params);
  expect(res.status).toBe(303);
  const code = redirectQuery(res).get('code');
  expect(code).toMatch(/^qac_[0-9A-Za-z]{43}$/);
  return code!;
}

export function tokenRequest(
  app: TestApp,
  body: Record<string, string>,
  basic?: [string, string],
): request.Test {
  let req = request(app.app).post('/oauth/token').type('form');
  if (basic) req = req.auth(basic[0], basic[1]);
  return req.send(body);
}

export function exchangeCode(app: TestApp, client: RegisteredClient, code: string, verifier: string) {
  return tokenRequest(app, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: client.redirectUri,
    client_id: client.clientId,
    resource: `${app.baseUrl}/api/mcp`,
  });
}

export function refresh(
  app: TestApp,
  client: RegisteredClient,
  refreshToken: string,
  extra: Record<string, string> = {},
) {
  return tokenRequest(app, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: client.clientId,
    ...extra,
  });
}

export interface Tokens {
  access_token: string;
  refresh_token: string;
  scope: string;
  expires_in: number;
}

/** Registration, consent and code exchange in one go. */
export async function connectApp(
  app: TestApp,
  agent: Agent,
  options: { scope?: string; client?: RegisteredClient } = {},
): Promise<{ client: RegisteredClient; tokens: Tokens }> {
  const client = options.client ?? (await registerPublicClient(app));
  const { params, verifier } = authorizationParams(client, options.scope ? { scope: options.scope } : {});
  const code = await obtainCode(agent, params);
  const res = await exchangeCode(app, client, code, verifier);
  expect(res.status).toBe(200);
  return { client, tokens: res.body as Tokens };
}

/** POST /api/mcp with a bearer token (tools/list by default). */
export function mcp(
  app: TestApp,
  token: string,
  body: object = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
) {
  return request(app.app)
    .post('/api/mcp')
    .set('Authorization', `Bearer ${token}`)
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json, text/event-stream')
    .send(JSON.stringify(body));
}
