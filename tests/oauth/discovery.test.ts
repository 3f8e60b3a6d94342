// Discovery: RFC 9728 protected resource metadata (both forms), RFC 8414 authorization server
// metadata (and its OpenID Connect-named alias), read back with the MCP SDK's own discovery.
import {
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
} from '@modelcontextprotocol/sdk/client/auth.js';
import request from 'supertest';
import type { TestApp } from '../helpers/test-app';
import { startOAuthTestApp } from './oauth-helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startOAuthTestApp();
});
afterAll(async () => {
  await app.close();
});

test.each(['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource'])(
  'protected resource metadata at %s',
  async (path) => {
    const res = await request(app.app).get(path);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.body).toMatchObject({
      resource: `${app.baseUrl}/api/mcp`,
      authorization_servers: [app.baseUrl],
      scopes_supported: ['quizzes:read', 'quizzes:write'],
      bearer_methods_supported: ['header'],
    });
  },
);

test.each(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'])(
  'authorization server metadata at %s',
  async (path) => {
    const res = await request(app.app).get(path);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.objectContaining({
        issuer: app.baseUrl,
        authorization_endpoint: `${app.baseUrl}/oauth/authorize`,
        token_endpoint: `${app.baseUrl}/oauth/token`,
        registration_endpoint: `${app.baseUrl}/oauth/register`,
        revocation_endpoint: `${app.baseUrl}/oauth/revoke`,
        response_types_supported: ['code'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
        client_id_metadata_document_supported: true,
        scopes_supported: ['quizzes:read', 'quizzes:write'],
      }),
    );
  },
);

test('the SDK discovers both documents, starting from the URL in the 401 challenge', async () => {
  const unauthorized = await request(app.app)
    .post('/api/mcp')
    .set('Content-Type', 'application/json')
    .set('Accept', 'application/json, text/event-stream')
    .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
  expect(unauthorized.status).toBe(401);
  const url = /resource_metadata="([^"]+)"/.exec(unauthorized.headers['www-authenticate']!)![1]!;
  expect(url).toBe(`${app.baseUrl}/.well-known/oauth-protected-resource/api/mcp`);
  const resource = await discoverOAuthProtectedResourceMetadata(`${app.baseUrl}/api/mcp`, {
    resourceMetadataUrl: new URL(url),
  });
  expect(resource.resource).toBe(`${app.baseUrl}/api/mcp`);
  const server = await discoverAuthorizationServerMetadata(resource.authorization_servers![0]!);
  expect(server?.issuer).toBe(app.baseUrl);
});

test('an unknown well-known document is a 404 problem, as every unknown path', async () => {
  const res = await request(app.app).get('/.well-known/nothing-here');
  expect(res.status).toBe(404);
  expect(res.body.code).toBe('not_found');
});
