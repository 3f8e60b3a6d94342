import express, { type RequestHandler, type Router } from 'express';
import type { Store } from 'express-rate-limit';
import type { Config } from '../config';
import type { Repositories } from '../db/repositories';
import { createRateLimiter, rateLimitKey, type RateLimitOptions } from '../http/rate-limit';
import { sendTooManyAttempts } from '../web/error-pages';
import { claimedClientId } from './client-authentication';
import type { Logger } from '../logger';
import { authorizeHandler } from './authorize-handler';
import type { FetchClientMetadataOptions } from './fetch-client-metadata';
import { metadataHandler } from './metadata-handler';
import { OAuthProblem, sendOAuthError } from './oauth-errors';
import { baseUrlFor } from '../http/loopback-origin';
import { oauthUrls, REGISTER_PATH, REVOKE_PATH, TOKEN_PATH } from './oauth-urls';
import { registerHandler } from './register-handler';
import { createClientResolver } from './resolve-client';
import { revokeHandler } from './revoke-handler';
import { tokenHandler } from './token-handler';

/**
 * The OAuth 2.1 authorization server for AI assistants: one
 * handler factory per endpoint, composed here. The access-token verifier
 * (access-token-verifier.ts) and the Connected apps provider (connected-apps-provider.ts)
 * are wired in app.ts next to the API-key verifier and the dashboard.
 */
export interface OAuthTestHooks {
  /**
   * Client ID Metadata Document fetching, e.g. `{ allowLoopbackForTests: true }` so tests can
   * serve documents on 127.0.0.1. Only test code passes this (createApp's `oauthTestHooks`);
   * nothing in the configuration or environment can.
   */
  clientMetadataFetch?: FetchClientMetadataOptions;
}

export interface OAuthRouterOptions {
  config: Config;
  repos: Repositories;
  logger: Logger;
  /** Shared counters for each named limit (Redis when several instances run; memory otherwise). */
  limiterStore?: (name: string) => Store | undefined;
  testHooks?: OAuthTestHooks;
}

/** Browser-based MCP clients read metadata and call these endpoints cross-origin; no cookies are involved. */
function allowCrossOrigin(): RequestHandler {
  return (req, res, next) => {
    res.set('Access-Control-Allow-Origin', '*');
    if (req.method !== 'OPTIONS') return next();
    res
      .set({
        'Access-Control-Allow-Methods': 'GET, POST, OPTIONS',
        'Access-Control-Allow-Headers': 'Authorization, Content-Type, MCP-Protocol-Version',
        'Access-Control-Max-Age': '86400',
      })
      .status(204)
      .end();
  };
}

export function oauthRouter(options: OAuthRouterOptions): Router {
  const { config, logger } = options;
  const { repos } = options;
  const clients = createClientResolver({ repos, logger, fetch: options.testHooks?.clientMetadataFetch });
  const { limits } = config;
  const limiter = (name: string, max: number, windowSeconds: number, more: Partial<RateLimitOptions> = {}) =>
    createRateLimiter({
      max,
      windowSeconds,
      baseUrl: config.baseUrl,
      store: options.limiterStore?.(name),
      ...more,
    });
  const registrationLimiter = limiter('register', config.oauth.registrationsPerHour, 60 * 60);
  // The consent page is a page: its 429 is a page too.
  const authorizeLimiter = limiter('authorize', limits.authorizePerMinute, 60, {
    onLimited: (_req, res, state) =>
      sendTooManyAttempts(res, state.resetSeconds, 'open this connection page'),
  });
  // Token and revocation requests count per address, under a ceiling high enough for an
  // assistant platform's shared egress, and per OAuth client *from that address*. Never per
  // claimed client_id alone: the budget is charged before the client authenticates, and most
  // assistants are public clients with no secret, so anyone could name a popular client and
  // spend its budget, keeping every one of its users from getting or refreshing tokens.
  const tokenAddressLimiter = limiter('oauth-token-address', limits.tokenPerAddressPerMinute, 60);
  const tokenClientLimiter = limiter('oauth-token-client', limits.tokenPerClientPerMinute, 60, {
    key: (req, res) => {
      const clientId = claimedClientId(req);
      const address = rateLimitKey(req, res);
      return clientId ? `client:${clientId}|${address}` : address;
    },
  });

  const router = express.Router();
  router.use(['/.well-known', TOKEN_PATH, REGISTER_PATH, REVOKE_PATH], allowCrossOrigin());
  router.use(metadataHandler({ baseUrl: config.baseUrl }));
  router.use(registerHandler({ repos, logger, guards: [registrationLimiter] }));
  router.use(authorizeHandler({ repos, clients, config, logger, guards: [authorizeLimiter] }));
  router.use(
    tokenHandler({
      repos,
      clients,
      resourceFor: (req) => oauthUrls(baseUrlFor(req, config.baseUrl)).resource,
      config: config.oauth,
      logger,
      guards: [tokenAddressLimiter],
      clientGuards: [tokenClientLimiter],
    }),
  );
  router.use(
    revokeHandler({
      repos,
      clients,
      logger,
      guards: [tokenAddressLimiter],
      clientGuards: [tokenClientLimiter],
    }),
  );
  router.all([TOKEN_PATH, REGISTER_PATH, REVOKE_PATH], (req, res) => {
    res.set('Allow', 'POST');
    sendOAuthError(res, new OAuthProblem('invalid_request', `${req.path} takes POST only.`, 405), logger);
  });
  return router;
}
