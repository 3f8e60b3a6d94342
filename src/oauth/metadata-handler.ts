import express, { type RequestHandler, type Router } from 'express';
import { baseUrlFor, isLoopbackBase } from '../http/loopback-origin';
import { oauthUrls, type OAuthUrls } from './oauth-urls';
import { SUPPORTED_SCOPES } from './scopes';

/**
 * Discovery documents:
 * - RFC 9728 protected resource metadata, at the path-suffixed well-known URI of /api/mcp
 *   (section 3.1) and at the root form that MCP clients also probe. `resource` is the MCP
 *   URL byte for byte (section 3.3: clients compare it with the URL they called).
 * - RFC 8414 authorization server metadata (issuer = BASE_URL, so the well-known URI has no
 *   suffix, section 3.1), also under the OpenID Connect name that some clients probe first.
 * Public, cacheable for a few minutes, readable from browser-based clients (CORS).
 */
export function protectedResourceMetadata(urls: OAuthUrls) {
  return {
    resource: urls.resource,
    authorization_servers: [urls.issuer],
    scopes_supported: [...SUPPORTED_SCOPES],
    bearer_methods_supported: ['header'],
    resource_name: 'Quiz service MCP endpoint',
    resource_documentation: `${urls.issuer}/en/docs/api-reference`,
  };
}

export function authorizationServerMetadata(urls: OAuthUrls) {
  return {
    issuer: urls.issuer,
    authorization_endpoint: urls.authorizationEndpoint,
    token_endpoint: urls.tokenEndpoint,
    registration_endpoint: urls.registrationEndpoint,
    revocation_endpoint: urls.revocationEndpoint,
    scopes_supported: [...SUPPORTED_SCOPES],
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: ['authorization_code', 'refresh_token'],
    token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    revocation_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
    // OAuth 2.1 and MCP: PKCE with S256; `plain` is never accepted.
    code_challenge_methods_supported: ['S256'],
    // MCP 2025-11-25: an https client_id naming a Client ID Metadata Document.
    client_id_metadata_document_supported: true,
    // RFC 9207: the authorization response carries `iss`.
    authorization_response_iss_parameter_supported: true,
    service_documentation: `${urls.issuer}/en/docs/api-reference`,
  };
}

/** A document for the base URL the request used (see http/loopback-origin.ts), each built once. */
function sendJson(baseUrl: string, build: (urls: OAuthUrls) => object): RequestHandler {
  const bodies = new Map<string, string>();
  const loopback = isLoopbackBase(baseUrl);
  return (req, res) => {
    const base = baseUrlFor(req, baseUrl);
    let body = bodies.get(base);
    if (body === undefined) bodies.set(base, (body = JSON.stringify(build(oauthUrls(base)))));
    // Caches must keep one copy per Host on loopback, where the document follows the name used.
    if (loopback) res.vary('Host');
    res.set('Cache-Control', 'public, max-age=300').type('application/json').send(body);
  };
}

export function metadataHandler({ baseUrl }: { baseUrl: string }): Router {
  const router = express.Router();
  const resource = sendJson(baseUrl, protectedResourceMetadata);
  const server = sendJson(baseUrl, authorizationServerMetadata);
  router.get(
    ['/.well-known/oauth-protected-resource/api/mcp', '/.well-known/oauth-protected-resource'],
    resource,
  );
  router.get(['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration'], server);
  return router;
}
