import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Logger } from '../logger';
import { baseUrlFor } from './loopback-origin';
import { ALL_SCOPES, type Principal } from '../identity/principal';

/**
 * Bearer authentication for /api/mcp: an API key or an OAuth access token.
 * Each verifier recognises its own credential kind by prefix (API keys `svc_`, OAuth tokens
 * their own); a credential none of them accepts, a malformed header, and a revoked key all
 * get one and the same 401 body.
 */
export interface CredentialVerifier {
  /** True when the credential has this verifier's shape (prefix); cheap, no I/O. */
  recognises(credential: string): boolean;
  /**
   * The principal, or null when the credential is unknown, revoked or expired, or (an OAuth
   * token) was issued for another resource than `request.resource`.
   */
  verify(credential: string, request: { resource: string }): Promise<Principal | null>;
}

export interface BearerAuthOptions {
  verifiers: CredentialVerifier[];
  baseUrl: string;
  logger: Logger;
}

export const MCP_PATH = '/api/mcp';
export const RESOURCE_METADATA_PATH = '/.well-known/oauth-protected-resource/api/mcp';

/** RFC 6750 section 3 challenge, with RFC 9728 `resource_metadata` for OAuth discovery. */
export function bearerChallenge(baseUrl: string, error?: { code: string; description: string }): string {
  const parts = [
    `resource_metadata="${baseUrl}${RESOURCE_METADATA_PATH}"`,
    `scope="${ALL_SCOPES.join(' ')}"`,
  ];
  if (error) parts.push(`error="${error.code}"`, `error_description="${error.description}"`);
  return `Bearer ${parts.join(', ')}`;
}

const INVALID = 'The access token is missing, malformed, unknown, expired or revoked.';

export function sendUnauthorized(res: Response, baseUrl: string, credentialSent: boolean): void {
  // RFC 6750 section 3.1: without any credential the challenge carries no error code;
  // the body is the same OAuth error object either way.
  const description = credentialSent
    ? INVALID
    : 'No credential: send "Authorization: Bearer <API key or OAuth access token>".';
  res
    .status(401)
    .set(
      'WWW-Authenticate',
      bearerChallenge(baseUrl, credentialSent ? { code: 'invalid_token', description: INVALID } : undefined),
    )
    .set('Cache-Control', 'no-store')
    .json({ error: 'invalid_token', error_description: description, hint: credentialHint(baseUrl) });
}

/** Where a credential comes from: an extra member of the RFC 6750 body, which clients ignore. */
function credentialHint(baseUrl: string): string {
  return (
    `Scripts: create an API key on ${baseUrl}/settings/security/api-keys (sign up at ${baseUrl}/signup), ` +
    'or with the operator CLI: npm run --silent cli -- keys create --email EMAIL --name NAME. ' +
    `Assistants: connect with OAuth, starting from ${baseUrl}${RESOURCE_METADATA_PATH}.`
  );
}

/** The raw bearer credential from the Authorization header, '' if malformed, undefined if absent. */
export function bearerCredential(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (header === undefined) return undefined;
  const match = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i.exec(header);
  return match?.[1] ?? '';
}

/**
 * Finds who is calling, without answering yet: sets `res.locals.principal` for a valid
 * credential, or `res.locals.credentialSent` for a bad one. The rate limiter runs next (so
 * refused requests are counted too, per IP), then `requireBearer` sends the 401.
 */
export function identifyBearer({ verifiers, logger, baseUrl }: BearerAuthOptions): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const credential = bearerCredential(req);
    if (credential === undefined) {
      next();
      return;
    }
    res.locals.credentialSent = true;
    const verifier = credential ? verifiers.find((candidate) => candidate.recognises(credential)) : undefined;
    if (!verifier) {
      next();
      return;
    }
    // The endpoint's URL under the name the client called (a loopback alias, or BASE_URL's).
    verifier.verify(credential, { resource: `${baseUrlFor(req, baseUrl)}${MCP_PATH}` }).then(
      (principal) => {
        if (principal) res.locals.principal = principal;
        next();
      },
      (error: unknown) => {
        logger.error({ err: error }, 'credential check failed');
        next(error);
      },
    );
  };
}

/** Answers 401 with WWW-Authenticate unless `identifyBearer` found a principal. */
export function requireBearer(baseUrl: string): RequestHandler {
  return (req, res, next) => {
    if (res.locals.principal) {
      next();
      return;
    }
    // Discovery starts again under the name the client used (see loopback-origin.ts).
    sendUnauthorized(res, baseUrlFor(req, baseUrl), res.locals.credentialSent === true);
  };
}
