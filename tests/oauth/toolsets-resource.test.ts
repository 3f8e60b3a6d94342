// A connector URL with a toolsets query (/api/mcp?toolsets=grading) is the same OAuth resource
// as /api/mcp: a client that sends it as `resource` gets a code and tokens, bound to /api/mcp,
// that serve every connection; the protected-resource metadata names /api/mcp alone.
import request from 'supertest';
import type { TestApp } from '../helpers/test-app';
import {
  authorizationParams,
  authorizePath,
  loggedInAgent,
  obtainCode,
  redirectQuery,
  refresh,
  registerPublicClient,
  startOAuthTestApp,
  tokenRequest,
} from './oauth-helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startOAuthTestApp();
});
afterAll(async () => {
  await app.close();
});

const listTools = (token: string, query = '') =>
  request(app.app)
    .post(`/api/mcp${query}`)
    .set('Authorization', `Bearer ${token}`)
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json')
    .send(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }));

test('the connector URL with its toolsets is the resource: code, tokens and refresh, bound to /api/mcp', async () => {
  const resource = `${app.baseUrl}/api/mcp?toolsets=grading,import`;
  const { agent } = await loggedInAgent(app);
  const client = await registerPublicClient(app);
  const { params, verifier } = authorizationParams(client, { resource });
  const code = await obtainCode(agent, params);
  const exchanged = await tokenRequest(app, {
    grant_type: 'authorization_code',
    code,
    code_verifier: verifier,
    redirect_uri: client.redirectUri,
    client_id: client.clientId,
    resource,
  });
  expect(exchanged.status).toBe(200);
  const token = exchanged.body.access_token as string;

  // The token serves the connection it was asked for, and the plain endpoint too.
  const withToolsets = await listTools(token, '?toolsets=grading,import');
  expect(withToolsets.status).toBe(200);
  expect(withToolsets.body.result.tools.map((tool: { name: string }) => tool.name)).toContain(
    'import_questions',
  );
  expect((await listTools(token)).status).toBe(200);

  // Stored against /api/mcp: a refresh naming either URL is the same resource.
  const renewed = await refresh(app, client, exchanged.body.refresh_token, { resource });
  expect(renewed.status).toBe(200);
  const again = await refresh(app, client, renewed.body.refresh_token, {
    resource: `${app.baseUrl}/api/mcp`,
  });
  expect(again.status).toBe(200);
  const stored = await app.database.prisma.oAuthToken.findMany({ where: { clientId: client.clientId } });
  expect(stored.length).toBeGreaterThan(0);
  expect(new Set(stored.map((row) => row.resource))).toEqual(new Set([`${app.baseUrl}/api/mcp`]));
});

test('any other query, path or fragment is another resource', async () => {
  const { agent } = await loggedInAgent(app);
  const client = await registerPublicClient(app);
  for (const resource of [
    `${app.baseUrl}/api/mcp?other=1`,
    `${app.baseUrl}/api/mcp?toolsets=grading&other=1`,
    `${app.baseUrl}/api/mcp?toolsets=grading#x`,
    `${app.baseUrl}/api/mcpx?toolsets=grading`,
  ]) {
    const res = await agent.get(authorizePath(authorizationParams(client, { resource }).params));
    expect(res.status).toBe(303);
    expect(redirectQuery(res).get('error')).toBe('invalid_target');
  }
});

test('the protected-resource metadata names /api/mcp alone', async () => {
  const res = await request(app.app).get('/.well-known/oauth-protected-resource/api/mcp');
  expect(res.status).toBe(200);
  expect(res.body.resource).toBe(`${app.baseUrl}/api/mcp`);
});
