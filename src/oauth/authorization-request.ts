import type { OAuthClientRecord } from '../domain/oauth/oauth-clients';
import type { Scope } from '../identity/principal';
import type { OAuthErrorCode } from './oauth-errors';
import { findRegisteredRedirect } from './redirect-uris';
import { ClientResolutionError, type ClientResolver } from './resolve-client';
import { grantableScopes, splitScope } from './scopes';
import { namesTheResource } from './oauth-urls';

/**
 * Checks an authorization request (RFC 6749 section 4.1.1 with OAuth 2.1's rules), for the
 * consent page (GET) and again for the decision (POST: hidden fields are not trusted).
 * Two kinds of failure (RFC 6749 section 4.1.2.1):
 * - about the client or the redirect URI: shown to the person as a page, never redirected,
 *   since the redirect target itself is not trustworthy (open redirector);
 * - anything else: sent back to the client's (now verified) redirect URI as `error=...`.
 */
export interface ValidAuthorizationRequest {
  client: OAuthClientRecord;
  /** Where the code goes: the requested URI (loopback with its actual port), or the only registered one. */
  redirectUri: string;
  redirectUriSent: boolean;
  state: string | undefined;
  scopes: Scope[];
  codeChallenge: string;
  resource: string;
  /** Whether `resource` was sent (then it is passed on through the consent form). */
  resourceSent: boolean;
}

export type AuthorizationCheck =
  | { kind: 'valid'; request: ValidAuthorizationRequest }
  | { kind: 'page'; message: string }
  | {
      kind: 'redirect';
      redirectUri: string;
      state: string | undefined;
      error: OAuthErrorCode;
      description: string;
    };

/** RFC 7636 section 4.2: BASE64URL(SHA-256(verifier)) is always 43 characters. */
const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;
/** RFC 6749 appendix A.5: state is VSCHAR; bounded so the login round trip can carry it. */
const STATE = /^[\x20-\x7e]{1,500}$/;

function single(params: Record<string, unknown>, name: string): string | undefined | null {
  const value = params[name];
  if (value === undefined) return undefined;
  // RFC 6749 section 3.1: parameters MUST NOT be included more than once.
  return typeof value === 'string' ? value : null;
}

export async function checkAuthorizationRequest(
  params: Record<string, unknown>,
  deps: { clients: ClientResolver; resource: string },
): Promise<AuthorizationCheck> {
  const clientId = single(params, 'client_id');
  if (!clientId) return { kind: 'page', message: 'The request names no client_id (or names it twice).' };
  let client: OAuthClientRecord;
  try {
    client = await deps.clients.resolveForAuthorization(clientId);
  } catch (error) {
    if (error instanceof ClientResolutionError) return { kind: 'page', message: error.message };
    throw error;
  }

  const requested = single(params, 'redirect_uri');
  if (requested === null) return { kind: 'page', message: 'The request names redirect_uri twice.' };
  let redirectUri: string;
  if (requested === undefined || requested === '') {
    // RFC 6749 section 3.1.2.3: may be left out only when exactly one is registered.
    if (client.redirectUris.length !== 1) {
      return {
        kind: 'page',
        message: 'The request must name its redirect_uri: this app registered several.',
      };
    }
    redirectUri = client.redirectUris[0]!;
  } else if (findRegisteredRedirect(client.redirectUris, requested) === undefined) {
    return {
      kind: 'page',
      message: 'The redirect_uri in the request is not one this app registered, so nothing is sent there.',
    };
  } else {
    redirectUri = requested;
  }

  const rawState = single(params, 'state');
  const state = typeof rawState === 'string' && STATE.test(rawState) ? rawState : undefined;
  const fail = (error: OAuthErrorCode, description: string): AuthorizationCheck => ({
    kind: 'redirect',
    redirectUri,
    state,
    error,
    description,
  });
  if (rawState === null || (rawState !== undefined && rawState !== '' && state === undefined)) {
    return fail('invalid_request', 'state must be printable ASCII, at most 500 characters, sent once');
  }

  const responseType = single(params, 'response_type');
  if (responseType === undefined) return fail('invalid_request', 'response_type is missing');
  if (responseType !== 'code')
    return fail('unsupported_response_type', 'only response_type=code is supported');

  // PKCE is mandatory, S256 only (OAuth 2.1 section 4.1.1; MCP authorization, PKCE).
  const challenge = single(params, 'code_challenge');
  const method = single(params, 'code_challenge_method');
  if (!challenge) return fail('invalid_request', 'code_challenge is required (PKCE with S256)');
  if (method !== 'S256') return fail('invalid_request', 'code_challenge_method must be S256');
  if (!S256_CHALLENGE.test(challenge)) {
    return fail(
      'invalid_request',
      'code_challenge must be the base64url SHA-256 of the verifier (43 characters)',
    );
  }

  // RFC 8707 section 2: the one resource here is the MCP endpoint; anything else gets no code.
  const resource = params.resource;
  if (
    resource !== undefined &&
    (typeof resource !== 'string' || !namesTheResource(resource, deps.resource))
  ) {
    return fail('invalid_target', `resource must be ${deps.resource}`);
  }

  const rawScope = single(params, 'scope');
  if (rawScope === null) return fail('invalid_scope', 'scope is sent twice');
  const scopes = grantableScopes(splitScope(rawScope), client.scope);
  if (!scopes)
    return fail(
      'invalid_scope',
      'none of the requested scopes exists: use quizzes:read and/or quizzes:write',
    );

  return {
    kind: 'valid',
    request: {
      client,
      redirectUri,
      redirectUriSent: requested !== undefined && requested !== '',
      state,
      scopes,
      codeChallenge: challenge,
      resource: deps.resource,
      resourceSent: resource !== undefined,
    },
  };
}

/**
 * The client's redirect URI with response parameters appended (RFC 6749 section 4.1.2). Its own
 * query is kept byte for byte (section 3.1.2); registered URIs never have a fragment.
 */
export function redirectWith(redirectUri: string, params: Record<string, string | undefined>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) if (value !== undefined) query.set(name, value);
  return `${redirectUri}${redirectUri.includes('?') ? '&' : '?'}${query.toString()}`;
}
