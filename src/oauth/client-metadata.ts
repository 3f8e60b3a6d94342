import type { ClientMetadata, GrantType, TokenEndpointAuthMethod } from '../domain/oauth/oauth-clients';
import { OAuthProblem } from './oauth-errors';
import { redirectUriProblem } from './redirect-uris';
import { canonicalScopes, splitScope } from './scopes';

/**
 * Client metadata (RFC 7591 section 2), as sent to /oauth/register or published in a Client
 * ID Metadata Document. Bounded everywhere: a registration is stored for good and its name is
 * shown on consent pages. Fields not listed are ignored (RFC 7591 section 2: unknown ones are
 * ignored; what is kept is returned in the registration response).
 */
export const MAX_REDIRECT_URIS = 10;
export const MAX_CLIENT_NAME_LENGTH = 100;

const AUTH_METHODS: readonly TokenEndpointAuthMethod[] = [
  'none',
  'client_secret_basic',
  'client_secret_post',
];
const GRANT_TYPES: readonly GrantType[] = ['authorization_code', 'refresh_token'];
/** Control characters, and bidirectional overrides that can make a name read as another. */
// eslint-disable-next-line no-control-regex
const UNSAFE_NAME = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

export type MetadataSource = 'registration' | 'metadata_document';

function invalid(description: string): OAuthProblem {
  return new OAuthProblem('invalid_client_metadata', description);
}

function optionalStringList(body: Record<string, unknown>, field: string): string[] | undefined {
  const value = body[field];
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || !value.every((item) => typeof item === 'string') || value.length > 10) {
    throw invalid(`${field} must be an array of at most 10 strings`);
  }
  return value as string[];
}

function parseRedirectUris(body: Record<string, unknown>): string[] {
  const value = body.redirect_uris;
  if (!Array.isArray(value) || value.length === 0) {
    throw new OAuthProblem('invalid_redirect_uri', 'redirect_uris must be an array of one or more URIs');
  }
  if (value.length > MAX_REDIRECT_URIS) {
    throw new OAuthProblem(
      'invalid_redirect_uri',
      `redirect_uris may hold at most ${MAX_REDIRECT_URIS} URIs`,
    );
  }
  value.forEach((uri, index) => {
    const problem = redirectUriProblem(uri);
    if (problem) throw new OAuthProblem('invalid_redirect_uri', `redirect_uris[${index}] ${problem}`);
  });
  return [...new Set(value as string[])];
}

function parseName(body: Record<string, unknown>): string | null {
  const value = body.client_name;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw invalid('client_name must be a string');
  const name = value.trim();
  if (name.length === 0) return null;
  if (name.length > MAX_CLIENT_NAME_LENGTH) {
    throw invalid(`client_name must be at most ${MAX_CLIENT_NAME_LENGTH} characters`);
  }
  if (UNSAFE_NAME.test(name))
    throw invalid('client_name must not contain control or text-direction characters');
  return name;
}

function parseAuthMethod(body: Record<string, unknown>, source: MetadataSource): TokenEndpointAuthMethod {
  const value = body.token_endpoint_auth_method;
  // RFC 7591 section 2: the default is client_secret_basic. A metadata document has no
  // secret to share (CIMD: shared secrets MUST NOT be used), so it is a public client.
  if (value === undefined) return source === 'registration' ? 'client_secret_basic' : 'none';
  if (source === 'metadata_document' && value !== 'none') {
    throw invalid('token_endpoint_auth_method must be "none" in a client metadata document');
  }
  if (!AUTH_METHODS.includes(value as TokenEndpointAuthMethod)) {
    throw invalid(`token_endpoint_auth_method must be one of ${AUTH_METHODS.join(', ')}`);
  }
  return value as TokenEndpointAuthMethod;
}

function parseGrantTypes(body: Record<string, unknown>): GrantType[] {
  const value = optionalStringList(body, 'grant_types');
  // Without grant_types, refresh is allowed too: assistants rely on it and rarely say so.
  if (value === undefined) return [...GRANT_TYPES];
  const unknown = value.filter((grant) => !GRANT_TYPES.includes(grant as GrantType));
  if (unknown.length > 0) throw invalid(`grant_types may only hold ${GRANT_TYPES.join(' and ')}`);
  if (!value.includes('authorization_code')) throw invalid('grant_types must include authorization_code');
  return GRANT_TYPES.filter((grant) => value.includes(grant));
}

function checkResponseTypes(body: Record<string, unknown>): void {
  const value = optionalStringList(body, 'response_types');
  if (value !== undefined && !value.every((type) => type === 'code')) {
    throw invalid('response_types may only hold "code" (OAuth 2.1 has no implicit flow)');
  }
}

function parseScope(body: Record<string, unknown>): string[] | null {
  const value = body.scope;
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string' || value.length > 1000)
    throw invalid('scope must be a space-separated string');
  // Unknown scopes are left out (RFC 7591 section 2: the server may restrict them).
  const scopes = canonicalScopes(splitScope(value) ?? []);
  return scopes.length > 0 ? scopes : null;
}

/** Validated metadata, or an OAuthProblem (`invalid_redirect_uri` / `invalid_client_metadata`). */
export function parseClientMetadata(input: unknown, source: MetadataSource): ClientMetadata {
  if (input === null || typeof input !== 'object' || Array.isArray(input)) {
    throw invalid('the client metadata must be a JSON object');
  }
  const body = input as Record<string, unknown>;
  const redirectUris = parseRedirectUris(body);
  checkResponseTypes(body);
  return {
    name: parseName(body),
    redirectUris,
    grantTypes: parseGrantTypes(body),
    tokenEndpointAuthMethod: parseAuthMethod(body, source),
    authMethodDeclared: body.token_endpoint_auth_method !== undefined,
    scope: parseScope(body),
  };
}
