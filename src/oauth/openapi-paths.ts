/**
 * The authorization server's endpoints in /openapi.json (src/docs/openapi.ts spreads these
 * into `paths`). Bodies follow the RFCs named in each summary.
 */
type Json = Record<string, unknown>;

const oauthError = (description: string): Json => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/OAuthError' } } },
});

const json = (description: string, properties: Json = {}): Json => ({
  description,
  content: { 'application/json': { schema: { type: 'object', properties } } },
});

const form = (properties: Json, required: string[]): Json => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: { type: 'object', properties, required } } },
});

const str = (description: string): Json => ({ type: 'string', description });
/** /oauth/token and /oauth/revoke share one budget per client address (the API's rule). */
const TOKEN_RATE_LIMITED: Json = {
  description:
    'Too many token and revocation requests from this address (the API rate limit; problem+json, Retry-After)',
};

const AUTHORIZE_PARAMETERS = [
  ['response_type', 'code', true],
  ['client_id', 'Registered client id, or the https URL of a Client ID Metadata Document', true],
  ['redirect_uri', 'One of the registered redirect URIs (loopback: any port)', false],
  ['code_challenge', 'PKCE: BASE64URL(SHA-256(code_verifier))', true],
  ['code_challenge_method', 'S256 (plain is refused)', true],
  ['scope', 'quizzes:read and/or quizzes:write', false],
  ['state', 'Opaque value returned to the client', false],
  ['resource', 'RFC 8707; only {base_url}/api/mcp', false],
].map(([name, description, required]) => ({
  name,
  in: 'query',
  required,
  description,
  schema: { type: 'string' },
}));

export function oauthOpenApiPaths(): Json {
  const metadata = (operationId: string, summary: string): Json => ({
    get: { operationId, summary, tags: ['OAuth'], responses: { '200': json('Metadata document') } },
  });
  return {
    '/.well-known/oauth-protected-resource/api/mcp': metadata(
      'protectedResourceMetadata',
      'RFC 9728 protected resource metadata of /api/mcp',
    ),
    '/.well-known/oauth-protected-resource': metadata(
      'protectedResourceMetadataRoot',
      'RFC 9728 protected resource metadata (root form)',
    ),
    '/.well-known/oauth-authorization-server': metadata(
      'authorizationServerMetadata',
      'RFC 8414 authorization server metadata',
    ),
    '/.well-known/openid-configuration': metadata(
      'authorizationServerMetadataOidcAlias',
      'The same authorization server metadata, under the name some clients probe',
    ),
    '/oauth/register': {
      post: {
        operationId: 'registerClient',
        summary: 'RFC 7591 dynamic client registration (public or confidential clients)',
        tags: ['OAuth'],
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['redirect_uris'],
                properties: {
                  redirect_uris: { type: 'array', items: { type: 'string' }, minItems: 1, maxItems: 10 },
                  client_name: { type: 'string', maxLength: 100 },
                  token_endpoint_auth_method: {
                    type: 'string',
                    enum: ['none', 'client_secret_basic', 'client_secret_post'],
                  },
                  grant_types: {
                    type: 'array',
                    items: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
                  },
                  response_types: { type: 'array', items: { type: 'string', enum: ['code'] } },
                  scope: { type: 'string' },
                },
              },
            },
          },
        },
        responses: {
          '201': json('The registered client; client_secret only for confidential clients, shown once', {
            client_id: { type: 'string' },
            client_secret: { type: 'string' },
          }),
          '400': oauthError('invalid_redirect_uri or invalid_client_metadata'),
          '413': oauthError('Registration larger than 16 kB'),
          '429': { description: 'Too many registrations from this address (problem+json)' },
        },
      },
    },
    '/oauth/authorize': {
      get: {
        operationId: 'authorize',
        summary: 'Authorization endpoint: consent page (HTML) for a logged-in person',
        tags: ['OAuth'],
        parameters: AUTHORIZE_PARAMETERS,
        responses: {
          '200': { description: 'Consent page', content: { 'text/html': { schema: { type: 'string' } } } },
          '303': { description: 'To the login page, or to the client with an error' },
          '400': { description: 'Unknown client or redirect URI (HTML page; never redirected)' },
        },
      },
      post: {
        operationId: 'authorizeDecision',
        summary: 'The consent form (CSRF-protected); 303 to the client with code or error=access_denied',
        tags: ['OAuth'],
        responses: {
          '303': { description: 'To the client redirect URI' },
          '403': { description: 'CSRF check failed' },
        },
      },
    },
    '/oauth/token': {
      post: {
        operationId: 'token',
        summary: 'RFC 6749 token endpoint: authorization_code (PKCE) and refresh_token (rotating)',
        tags: ['OAuth'],
        requestBody: form(
          {
            grant_type: str('authorization_code or refresh_token'),
            code: str('The authorization code'),
            code_verifier: str('PKCE verifier'),
            redirect_uri: str('As in the authorization request'),
            refresh_token: str('A refresh token'),
            client_id: str('The client (public clients)'),
            scope: str('Refresh only: a narrower scope'),
            resource: str('RFC 8707; only {base_url}/api/mcp'),
          },
          ['grant_type'],
        ),
        responses: {
          '200': json('Bearer tokens (Cache-Control: no-store)', {
            access_token: { type: 'string' },
            token_type: { type: 'string' },
            expires_in: { type: 'integer' },
            refresh_token: { type: 'string' },
            scope: { type: 'string' },
          }),
          '400': oauthError('invalid_request, invalid_grant, invalid_scope, invalid_target, ...'),
          '401': oauthError('invalid_client'),
          '429': TOKEN_RATE_LIMITED,
        },
      },
    },
    '/oauth/revoke': {
      post: {
        operationId: 'revoke',
        summary: 'RFC 7009 token revocation (200 for any token, known or not)',
        tags: ['OAuth'],
        requestBody: form(
          { token: str('Access or refresh token'), token_type_hint: str('access_token or refresh_token') },
          ['token'],
        ),
        responses: {
          '200': { description: 'Revoked, or nothing to revoke' },
          '401': oauthError('invalid_client'),
          '429': TOKEN_RATE_LIMITED,
        },
      },
    },
  };
}
