import { refuseBadTextInBody, verifyUtf8 } from '../http/text-guard';
import express, { type ErrorRequestHandler, type RequestHandler, type Router } from 'express';
import type { Repositories } from '../db/repositories';
import { registerOAuthClient } from '../domain/oauth/oauth-clients';
import { clientErrorOf } from '../http/client-errors';
import type { Logger } from '../logger';
import { parseClientMetadata } from './client-metadata';
import { OAuthProblem, sendOAuthError } from './oauth-errors';
import { REGISTER_PATH } from './oauth-urls';

/**
 * POST /oauth/register: dynamic client registration (RFC 7591 section 3). Open, since MCP
 * clients register themselves without any initial access token, and therefore bounded: a
 * 16 kB body, at most 10 redirect URIs of 2000 characters, a name of 100, and a per-IP rate
 * limit generous enough for an assistant platform's shared egress addresses (`guards`).
 * Public clients (`token_endpoint_auth_method: none`) get no secret; confidential ones get
 * theirs once, in this response (section 3.2.1), and it is stored as a SHA-256 only.
 */
export interface RegisterHandlerOptions {
  repos: Repositories;
  logger: Logger;
  /** Runs first: the rate limiter. */
  guards: RequestHandler[];
}

export const MAX_REGISTRATION_BYTES = 16 * 1024;

export function registerHandler({ repos, logger, guards }: RegisterHandlerOptions): Router {
  const router = express.Router();

  const register: RequestHandler = async (req, res) => {
    try {
      if (!req.is('application/json')) {
        throw new OAuthProblem(
          'invalid_client_metadata',
          'Send the client metadata as Content-Type: application/json.',
        );
      }
      const metadata = parseClientMetadata(req.body, 'registration');
      const { client, secret } = await registerOAuthClient(repos, metadata);
      res
        .status(201)
        .set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' })
        .json({
          client_id: client.id,
          client_id_issued_at: Math.floor(client.createdAt.getTime() / 1000),
          ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
          ...(client.name ? { client_name: client.name } : {}),
          redirect_uris: client.redirectUris,
          grant_types: client.grantTypes,
          response_types: ['code'],
          token_endpoint_auth_method: client.tokenEndpointAuthMethod,
          ...(client.scope ? { scope: client.scope.join(' ') } : {}),
        });
    } catch (error) {
      sendOAuthError(res, error, logger);
    }
  };

  const bodyErrors: ErrorRequestHandler = (error: unknown, _req, res, next) => {
    const client = clientErrorOf(error, { limitBytes: MAX_REGISTRATION_BYTES });
    if (!client) return next(error);
    const status = client.kind === 'too_large' ? 413 : 400;
    sendOAuthError(res, new OAuthProblem('invalid_client_metadata', client.reason, status), logger);
  };

  router.post(
    REGISTER_PATH,
    ...guards,
    express.json({ limit: MAX_REGISTRATION_BYTES, verify: verifyUtf8 }),
    // RFC 7591 section 3.2.2: a bad redirect URI has its own error code.
    refuseBadTextInBody((res, field, message) =>
      sendOAuthError(
        res,
        new OAuthProblem(
          field.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata',
          `The field ${field} ${message}.`,
        ),
        logger,
      ),
    ),
    register,
    bodyErrors,
  );
  return router;
}
