/**
 * The addresses the authorization server publishes, all derived from BASE_URL. The resource
 * identifier must be byte for byte the URL clients call (RFC 9728 section 3.3; RFC 8707
 * section 2), and the issuer the origin with no trailing slash (RFC 8414 section 2).
 */
export interface OAuthUrls {
  issuer: string;
  /** The MCP endpoint: the only protected resource, and the audience of every token. */
  resource: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  registrationEndpoint: string;
  revocationEndpoint: string;
  resourceMetadata: string;
}

export const AUTHORIZE_PATH = '/oauth/authorize';
export const TOKEN_PATH = '/oauth/token';
export const REGISTER_PATH = '/oauth/register';
export const REVOKE_PATH = '/oauth/revoke';

export function oauthUrls(baseUrl: string): OAuthUrls {
  return {
    issuer: baseUrl,
    resource: `${baseUrl}/api/mcp`,
    authorizationEndpoint: `${baseUrl}${AUTHORIZE_PATH}`,
    tokenEndpoint: `${baseUrl}${TOKEN_PATH}`,
    registrationEndpoint: `${baseUrl}${REGISTER_PATH}`,
    revocationEndpoint: `${baseUrl}${REVOKE_PATH}`,
    resourceMetadata: `${baseUrl}/.well-known/oauth-protected-resource/api/mcp`,
  };
}

/**
 * Whether a `resource` parameter (RFC 8707) names the MCP endpoint: its URL byte for byte, or
 * that URL with the connector's `toolsets` query (`/api/mcp?toolsets=grading`), which a client
 * may send as the URL it was given. Both are the one resource: the token is bound to `resource`.
 */
export function namesTheResource(sent: string, resource: string): boolean {
  if (sent === resource) return true;
  if (!sent.startsWith(`${resource}?`)) return false;
  const query = new URLSearchParams(sent.slice(resource.length + 1));
  return [...query.keys()].every((key) => key === 'toolsets') && !sent.includes('#');
}
