import OAuth2Server from '@node-oauth/oauth2-server';
import type { ErrorRequestHandler, Response } from 'express';
import { clientErrorOf } from '../http/client-errors';
import type { Logger } from '../logger';

/**
 * The OAuth error vocabulary, and the one place it becomes HTTP. Every endpoint throws or
 * returns an `OAuthProblem`; errors from @node-oauth/oauth2-server are translated here too.
 * Anything else is an internal error: the client sees `server_error` with a generic
 * description and the details go to the log. Why these codes stand apart from the domain's
 * error table: docs/architecture.md, "Errors".
 */
export const OAUTH_ERROR_STATUS = {
  // RFC 6749 section 5.2: 400, except invalid_client, which is 401 when the client tried
  // HTTP authentication (the caller decides; 401 is the default here).
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  unauthorized_client: 400,
  unsupported_grant_type: 400,
  invalid_scope: 400,
  // Authorization endpoint (RFC 6749 section 4.1.2.1): sent in the redirect, not as a status.
  access_denied: 400,
  unsupported_response_type: 400,
  // RFC 8707 section 2.
  invalid_target: 400,
  // RFC 7591 section 3.2.2.
  invalid_redirect_uri: 400,
  invalid_client_metadata: 400,
  // RFC 7009 section 2.2.1.
  unsupported_token_type: 400,
  server_error: 500,
} as const;

export type OAuthErrorCode = keyof typeof OAUTH_ERROR_STATUS;

export class OAuthProblem extends Error {
  override readonly name = 'OAuthProblem';

  constructor(
    readonly code: OAuthErrorCode,
    readonly description: string,
    readonly status: number = OAUTH_ERROR_STATUS[code],
  ) {
    super(description);
  }
}

function isOAuthErrorCode(value: unknown): value is OAuthErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(OAUTH_ERROR_STATUS, value);
}

/** Our problems as they are; the library's OAuth errors by their `name` (= RFC error code); else null. */
export function toOAuthProblem(error: unknown): OAuthProblem | null {
  if (error instanceof OAuthProblem) return error;
  if (
    error instanceof OAuth2Server.OAuthError &&
    isOAuthErrorCode(error.name) &&
    error.name !== 'server_error'
  ) {
    return new OAuthProblem(error.name, error.message, error.code);
  }
  return null;
}

/** RFC 6749 section 5.2 error response: JSON, never cached. */
export function sendOAuthError(res: Response, error: unknown, logger: Logger): void {
  let problem = toOAuthProblem(error);
  if (!problem) {
    const requestId = String(res.locals.requestId ?? '');
    logger.error({ err: error, requestId }, 'OAuth endpoint failed');
    problem = new OAuthProblem(
      'server_error',
      `The request failed on our side; report request id ${requestId}.`,
    );
  }
  res.status(problem.status).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' });
  // RFC 6749 section 5.2: a 401 names the authentication scheme the client can use.
  if (problem.status === 401) res.set('WWW-Authenticate', 'Basic realm="oauth"');
  res.json({ error: problem.code, error_description: problem.description });
}

/** After a urlencoded body parser: any client-side body failure (size, encoding) is invalid_request. */
export function formBodyErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    const client = clientErrorOf(error);
    if (!client) return next(error);
    sendOAuthError(
      res,
      new OAuthProblem(
        'invalid_request',
        `${client.reason} The body must be a small application/x-www-form-urlencoded form.`,
      ),
      logger,
    );
  };
}
