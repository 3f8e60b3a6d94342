import { refuseBadTextInBody, verifyUtf8 } from '../http/text-guard';
import OAuth2Server from '@node-oauth/oauth2-server';
import express, { type Request, type RequestHandler, type Router } from 'express';
import type { OAuthConfig } from '../config';
import type { Repositories } from '../db/repositories';
import type { Logger } from '../logger';
import { formBodyErrors, OAuthProblem, sendOAuthError } from './oauth-errors';
import { readClientCredentials } from './client-authentication';
import { createTokenModel } from './oauth-model';
import { namesTheResource, TOKEN_PATH } from './oauth-urls';
import type { ClientResolver } from './resolve-client';

/**
 * POST /oauth/token (RFC 6749 section 3.2): the authorization_code grant (PKCE verified by the
 * library after the code is burnt, RFC 7636 4.6) and the refresh_token grant (rotation, see
 * domain/oauth/oauth-tokens.ts). Answers and errors are JSON with `Cache-Control: no-store`
 * (section 5.1). `resource` (RFC 8707 section 2.2) may only name the MCP endpoint, the
 * audience every code and refresh token here is bound to.
 */
export interface TokenHandlerOptions {
  repos: Repositories;
  clients: ClientResolver;
  /** The MCP endpoint's URL under the name this request used (loopback aliases). */
  resourceFor: (req: Request) => string;
  config: OAuthConfig;
  logger: Logger;
  /** Run before the body is read: the rate limit per client address. */
  guards?: RequestHandler[];
  /** Run once the body is read: the rate limit per OAuth client. */
  clientGuards?: RequestHandler[];
}

const GRANT_TYPES = new Set(['authorization_code', 'refresh_token']);

export function tokenHandler({
  repos,
  clients,
  resourceFor,
  config,
  logger,
  guards = [],
  clientGuards = [],
}: TokenHandlerOptions): Router {
  const router = express.Router();

  const issue: RequestHandler = async (req, res) => {
    try {
      const body = (req.body ?? {}) as Record<string, unknown>;
      // RFC 6749 section 3.2: parameters MUST NOT be included more than once.
      const repeated = Object.keys(body).find((name) => Array.isArray(body[name]) && name !== 'resource');
      if (repeated) throw new OAuthProblem('invalid_request', `${repeated} is sent more than once`);
      const resource = resourceFor(req);
      if (
        body.resource !== undefined &&
        (typeof body.resource !== 'string' || !namesTheResource(body.resource, resource))
      ) {
        throw new OAuthProblem('invalid_target', `resource must be ${resource}`);
      }
      if (typeof body.grant_type !== 'string')
        throw new OAuthProblem('invalid_request', 'grant_type is missing');
      if (!GRANT_TYPES.has(body.grant_type)) {
        throw new OAuthProblem(
          'unsupported_grant_type',
          'grant_type must be authorization_code or refresh_token',
        );
      }
      const presented = readClientCredentials(req);
      const server = new OAuth2Server({ model: createTokenModel({ repos, clients, presented }) });
      const response = new OAuth2Server.Response();
      await server.token(
        // The query is left out on purpose: parameters of the token request come in the body only.
        new OAuth2Server.Request({
          method: req.method,
          headers: req.headers as Record<string, string>,
          query: {},
          body,
        }),
        response,
        {
          accessTokenLifetime: config.accessTokenTtlSeconds,
          refreshTokenLifetime: config.refreshTokenTtlSeconds,
          // Public clients authenticate with nothing but client_id and PKCE (OAuth 2.1 2.4);
          // the model still demands the secret of confidential ones.
          requireClientAuthentication: { authorization_code: false, refresh_token: false },
          alwaysIssueNewRefreshToken: true,
        },
      );
      res.status(200).set({ 'Cache-Control': 'no-store', Pragma: 'no-cache' }).json(response.body);
    } catch (error) {
      sendOAuthError(res, error, logger);
    }
  };

  const bodyErrors = formBodyErrors(logger);

  router.post(
    TOKEN_PATH,
    ...guards,
    express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 30, verify: verifyUtf8 }),
    refuseBadTextInBody((res, field, message) =>
      sendOAuthError(res, new OAuthProblem('invalid_request', `The field ${field} ${message}.`), logger),
    ),
    ...clientGuards,
    issue,
    bodyErrors,
  );
  return router;
}
