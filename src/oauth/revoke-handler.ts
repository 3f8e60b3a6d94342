import { refuseBadTextInBody, verifyUtf8 } from '../http/text-guard';
import express, { type RequestHandler, type Router } from 'express';
import type { Repositories } from '../db/repositories';
import { ACCESS_TOKEN_PREFIX, hasSecretShape, REFRESH_TOKEN_PREFIX } from '../domain/oauth/oauth-secrets';
import { findTokenByValue, revokeTokenFamily } from '../domain/oauth/oauth-tokens';
import type { Logger } from '../logger';
import { authenticateClient } from './client-authentication';
import { formBodyErrors, OAuthProblem, sendOAuthError } from './oauth-errors';
import { REVOKE_PATH } from './oauth-urls';
import type { ClientResolver } from './resolve-client';

/**
 * POST /oauth/revoke (RFC 7009). The client authenticates as at the token endpoint (2.1);
 * then any token answers 200: unknown, already revoked, or another client's (which is left
 * alone), so the endpoint reveals nothing about tokens (2.2). Revoking either token of an
 * issuance revokes its whole family: the access tokens and refresh tokens that came from the
 * same authorization (2.1: "SHOULD also invalidate all access tokens based on the same grant").
 */
export interface RevokeHandlerOptions {
  repos: Repositories;
  clients: ClientResolver;
  logger: Logger;
  /** Run before the body is read: the rate limit per client address. */
  guards?: RequestHandler[];
  /** Run once the body is read: the rate limit per OAuth client. */
  clientGuards?: RequestHandler[];
}

export function revokeHandler({
  repos,
  clients,
  logger,
  guards = [],
  clientGuards = [],
}: RevokeHandlerOptions): Router {
  const router = express.Router();
  const bodyErrors = formBodyErrors(logger);
  const revoke: RequestHandler = async (req, res) => {
    try {
      const client = await authenticateClient(req, clients);
      const { token, token_type_hint: hint } = (req.body ?? {}) as Record<string, unknown>;
      if (typeof token !== 'string' || token === '')
        throw new OAuthProblem('invalid_request', 'token is required, once.');
      if (hasSecretShape(ACCESS_TOKEN_PREFIX, token) || hasSecretShape(REFRESH_TOKEN_PREFIX, token)) {
        const known = hint === 'access_token' || hint === 'refresh_token' ? hint : undefined;
        const row = await findTokenByValue(repos, token, known);
        if (row && row.clientId === client.id) await revokeTokenFamily(repos, row.familyId);
      }
      res.status(200).set('Cache-Control', 'no-store').end();
    } catch (error) {
      sendOAuthError(res, error, logger);
    }
  };
  router.post(
    REVOKE_PATH,
    ...guards,
    express.urlencoded({ extended: false, limit: '8kb', parameterLimit: 20, verify: verifyUtf8 }),
    refuseBadTextInBody((res, field, message) =>
      sendOAuthError(res, new OAuthProblem('invalid_request', `The field ${field} ${message}.`), logger),
    ),
    ...clientGuards,
    revoke,
    bodyErrors,
  );
  return router;
}
