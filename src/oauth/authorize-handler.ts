import OAuth2Server from '@node-oauth/oauth2-server';
import express, { type RequestHandler, type Router } from 'express';
import type { OAuthConfig } from '../config';
import { pageErrorHandler } from '../web/error-pages';
import type { Repositories } from '../db/repositories';
import type { Logger } from '../logger';
import { parseForm, verifyCsrf } from '../web/csrf';
import { pageSecurity } from '../web/security';
import { currentSession, loadSession, requireLogin } from '../web/session';
import {
  checkAuthorizationRequest,
  redirectWith,
  type ValidAuthorizationRequest,
} from './authorization-request';
import { sendAuthorizationErrorPage, sendConsentPage } from './consent-page';
import { toOAuthProblem } from './oauth-errors';
import { createAuthorizeModel } from './oauth-model';
import { baseUrlFor } from '../http/loopback-origin';
import { AUTHORIZE_PATH, oauthUrls, type OAuthUrls } from './oauth-urls';
import type { ClientResolver } from './resolve-client';

/**
 * GET /oauth/authorize shows the consent page, POST records the decision (RFC 6749 section
 * 4.1.1-4.1.2). Not logged in: the dashboard login, and back to the same request. The form
 * is CSRF-checked (session token and Origin); every parameter is checked again on POST.
 * After the POST: 303 to the client (RFC 9110 15.4.4: the browser follows with a GET), with
 * `iss` (RFC 9207) so a client talking to several servers can tell whose answer it is.
 */
export interface AuthorizeHandlerOptions {
  repos: Repositories;
  clients: ClientResolver;
  config: { baseUrl: string; sessionSecret: string | undefined; oauth: OAuthConfig };
  logger: Logger;
  /** Run first on every request: the rate limit per client address. */
  guards?: RequestHandler[];
}

const STATE_KEY = 'oauthAuthorization';

function authorizationOf(res: express.Response): ValidAuthorizationRequest {
  return res.locals[STATE_KEY] as ValidAuthorizationRequest;
}

export function authorizeHandler(options: AuthorizeHandlerOptions): Router {
  const { repos, clients, config, logger } = options;
  // The addresses under the name this request used (loopback aliases; else BASE_URL's).
  const urlsFor = (req: express.Request): OAuthUrls => oauthUrls(baseUrlFor(req, config.baseUrl));
  const router = express.Router();

  const checkRequest =
    (source: 'query' | 'body'): RequestHandler =>
    async (req, res, next) => {
      const urls = urlsFor(req);
      const params = (source === 'query' ? req.query : req.body) as Record<string, unknown>;
      const check = await checkAuthorizationRequest(params ?? {}, { clients, resource: urls.resource });
      if (check.kind === 'page') return sendAuthorizationErrorPage(res, check.message);
      if (check.kind === 'redirect') {
        const { error, description, state } = check;
        // Authenticate the person before sending anyone to a redirect URI (RFC 9700 4.11.2):
        // anyone may register a client, so an error redirect would make this an open redirector.
        if (!currentSession(res)) {
          return sendAuthorizationErrorPage(res, `This request cannot be completed: ${description}.`);
        }
        res.set('Cache-Control', 'no-store');
        return res.redirect(
          303,
          redirectWith(check.redirectUri, { error, error_description: description, state, iss: urls.issuer }),
        );
      }
      res.locals[STATE_KEY] = check.request;
      next();
    };

  const showConsent: RequestHandler = (_req, res) => sendConsentPage(res, authorizationOf(res));

  /** The approved request's code, through the OAuth library (it stores the code via the model). */
  const issueCode = async (request: ValidAuthorizationRequest, userId: string) => {
    const model = createAuthorizeModel(
      { repos, clients },
      { client: request.client, redirectUriSent: request.redirectUriSent, resource: request.resource },
    );
    const libraryRequest = new OAuth2Server.Request({
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      query: {},
      body: {
        response_type: 'code',
        client_id: request.client.id,
        redirect_uri: request.redirectUri,
        scope: request.scopes.join(' '),
        code_challenge: request.codeChallenge,
        code_challenge_method: 'S256',
        ...(request.state ? { state: request.state } : {}),
      },
    });
    const code = await new OAuth2Server({ model }).authorize(libraryRequest, new OAuth2Server.Response(), {
      authenticateHandler: { handle: async () => ({ id: userId }) },
      authorizationCodeLifetime: config.oauth.authorizationCodeTtlSeconds,
      allowEmptyState: true,
    });
    return code.authorizationCode;
  };

  const decide: RequestHandler = async (req, res, next) => {
    const urls = urlsFor(req);
    const request = authorizationOf(res);
    const decision = (req.body as Record<string, unknown>).decision;
    const { state } = request;
    if (decision === 'deny') {
      const description = 'The person did not allow access';
      return res.redirect(
        303,
        redirectWith(request.redirectUri, {
          error: 'access_denied',
          error_description: description,
          state,
          iss: urls.issuer,
        }),
      );
    }
    if (decision !== 'approve') return sendAuthorizationErrorPage(res, 'Choose Allow or Deny.');

    try {
      const code = await issueCode(request, currentSession(res)!.userId);
      res.redirect(303, redirectWith(request.redirectUri, { code, state, iss: urls.issuer }));
    } catch (error) {
      const problem = toOAuthProblem(error);
      if (!problem) return next(error);
      res.redirect(
        303,
        redirectWith(request.redirectUri, {
          error: problem.code,
          error_description: problem.description,
          state,
          iss: urls.issuer,
        }),
      );
    }
  };

  router.use(
    AUTHORIZE_PATH,
    pageSecurity({ https: config.baseUrl.startsWith('https:') }),
    ...(options.guards ?? []),
    loadSession({ repos, config }),
  );
  router.get(AUTHORIZE_PATH, checkRequest('query'), requireLogin(), showConsent);
  router.post(AUTHORIZE_PATH, parseForm(), requireLogin(), verifyCsrf(), checkRequest('body'), decide);
  router.all(AUTHORIZE_PATH, (_req, res) => {
    res.set('Allow', 'GET, POST');
    sendAuthorizationErrorPage(
      res,
      'Open this address with GET (the link from the app) or POST (the consent form).',
      405,
    );
  });
  router.use(AUTHORIZE_PATH, pageErrorHandler(logger));
  return router;
}
