import express, { type ErrorRequestHandler, type Express, type RequestHandler, type Router } from 'express';
import type { Config } from './config';
import type { Database } from './db/database';
import { defaultLimiters } from './dashboard/context';
import { dashboardRouter } from './dashboard/router';
import type { DomainDeps } from './domain/deps';
import { createApiKeyVerifier } from './http/api-key-verifier';
import { identifyBearer, MCP_PATH, requireBearer } from './http/authenticate';
import { serverCardRouter } from './mcp/server-card';
import { ltiRouter } from './http/lti-router';
import { ltiLaunchRouter } from './http/lti-launch';
import { launchStateKey } from './domain/lti/launch-state';
import { ltiSealingKey } from './domain/lti/tool-keys';
import { chain } from './http/chain';
import { hostGuard, malformedHostGuard, originGuard } from './http/host-guard';
import { createRateLimiter } from './http/rate-limit';
import { ResilientRedisStore, type RedisCommander } from './http/rate-limit-store';
import { clientErrorOf } from './http/client-errors';
import { sendProblem } from './http/problem';
import { refuseBadTextInAddress } from './http/text-guard';
import { requestId } from './http/request-id';
import { noSniff } from './http/no-sniff';
import { strictTransport } from './http/strict-transport';
import { healthRouter, PROBE_PATHS } from './http/health';
import { closeConnectionsWhenClosing, createLifecycle, type Lifecycle } from './http/lifecycle';
import { createMetrics, metricsEndpoint, recordRequests, type Metrics } from './http/metrics';
import { requestLog } from './http/request-log';
import { isDatabaseUnavailable } from './db/errors';
import { respondentRouter, sendTooManySubmissions } from './respondent/respondent-router';
import { submissionLimiters } from './respondent/submission-limiter';
import { saveLimiters } from './respondent/save-routes';
import { attemptTokens } from './respondent/attempt-token';
import { linkSigner } from './domain/links/signed-links';
import type { Logger } from './logger';
import { mcpEndpoint } from './mcp/endpoint';
import { createToolRegistry } from './mcp/registry';
import type { ToolDefinition } from './mcp/tool';
import './http/request-context';
import { TOOLS } from './mcp/tools';
import { assetsRouter } from './web/assets';
import { docsRouter } from './docs/router';
import { createAccessTokenVerifier } from './oauth/access-token-verifier';
import { loadQuizAppHtml, QUIZ_APP_FILE } from './mcp/apps/quiz-app-resource';
import { approvalDeps, sharedMarks } from './mcp/approvals/marks';
import { createConnectedAppsProvider } from './oauth/connected-apps-provider';
import { oauthRouter, type OAuthTestHooks } from './oauth/router';
import type { Resolver } from './domain/webhooks/address';
import { sealingKey } from './domain/webhooks/secrets';
import { createWebhookWorker, type WebhookSettings, type WebhookWorker } from './domain/webhooks/worker';

export interface AppDeps {
  config: Config;
  database: Database;
  logger: Logger;
  /**
   * Tests only, never from configuration: the tools to serve instead of `TOOLS` (for example
   * with a deprecated or a throwaway tool). Every surface that describes the tools follows.
   */
  tools?: readonly ToolDefinition[];
  /** Connected Redis client when REDIS_URL is set: rate-limit counters shared by all instances. */
  redis?: RedisCommander;
  /** Prometheus registry; the entry point passes one with process metrics. */
  metrics?: Metrics;
  /** What GET /metrics answers, when not this registry alone: every worker's sum (cluster-metrics.ts). */
  metricsSource?: () => Promise<string>;
  /** Tests only (e.g. Client ID Metadata Documents served on loopback); never from configuration. */
  oauthTestHooks?: OAuthTestHooks;
  /** The clock of the in-memory throttles; tests move it instead of sleeping. */
  now?: () => number;
  /** Set to draining by the entry point on SIGTERM (readiness fails, connections close). */
  lifecycle?: Lifecycle;
  /** Tests only: the webhook worker's clock, a shorter timeout, a resolver of their own. */
  webhookHooks?: { now?: () => Date; timeoutMs?: number; resolve?: Resolver };
}

/** The app's webhook worker: the entry point starts it, tests run its rounds themselves. */
export function webhookWorkerOf(app: Express): WebhookWorker {
  return app.locals.webhookWorker as WebhookWorker;
}

/** The app's domain dependencies: the entry point's background sweeps use the same. */
export function appDepsOf(app: Express): DomainDeps {
  return app.locals.deps as DomainDeps;
}

const DEFAULT_REGISTRY = createToolRegistry(TOOLS);

/** The composition root: everything the service serves, built from a config and a database. */
export function createApp({
  config,
  database,
  logger,
  tools,
  redis,
  metrics = createMetrics(),
  metricsSource,
  oauthTestHooks,
  now,
  lifecycle = createLifecycle(),
  webhookHooks = {},
}: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('etag', false);

  const deps: DomainDeps = {
    repos: database.repos,
    baseUrl: config.baseUrl,
    links: linkSigner(config.sessionSecret),
    images: config.images,
    logger,
  };
  // Approvals in the client: their key from the server's secret, their marks shared (approvals/).
  const approvals = approvalDeps(
    config.sessionSecret,
    sharedMarks(database.repos, redis, `${config.redisKeyPrefix}approvals:`),
  );
  if (approvals) deps.approvals = approvals;
  if (config.sessionSecret) deps.lti = { sealingKey: ltiSealingKey(config.sessionSecret) };
  const webhookSettings: WebhookSettings = {
    sealingKey: sealingKey(config.webhooks.secretKey, config.sessionSecret),
    allowLoopback: config.webhooks.allowLoopback,
    ...(webhookHooks.timeoutMs ? { timeoutMs: webhookHooks.timeoutMs } : {}),
    ...(webhookHooks.resolve ? { resolve: webhookHooks.resolve } : {}),
  };
  const webhookWorker = createWebhookWorker({
    repos: database.repos,
    settings: webhookSettings,
    logger,
    observe: (outcome) => metrics.observeWebhookAttempt(outcome),
    ...(webhookHooks.now ? { now: webhookHooks.now } : {}),
  });
  app.locals.webhookWorker = webhookWorker;
  app.locals.deps = deps;
  const registry = tools ? createToolRegistry(tools) : DEFAULT_REGISTRY;
  const verifiers = [
    createApiKeyVerifier(database.repos, logger, metrics),
    createAccessTokenVerifier(database.repos, { logger, metrics }),
  ];

  app.use(everyRequest(config, { lifecycle, logger, metrics }));
  const limiterStore = (name: string) =>
    redis ? new ResilientRedisStore(redis, logger, `${config.redisKeyPrefix}rl:${name}:`) : undefined;
  // One counter per name, each with the configured budget (shared across instances in Redis).
  const limiter = (name: string) =>
    createRateLimiter({
      max: config.rateLimit.max,
      windowSeconds: config.rateLimit.windowSeconds,
      baseUrl: config.baseUrl,
      store: limiterStore(name),
    });
  const mcpLimiter = limiter('mcp');

  // The server card is public; its own counter keeps a crawler from spending the MCP budget.
  app.use(
    serverCardRouter({
      baseUrl: config.baseUrl,
      limiter: limiter('card'),
    }),
  );

  app.use(ltiRoutes(config, deps, database, redis, limiter));

  const quizAppHtml = loadQuizAppHtml();
  if (quizAppHtml === undefined) {
    logger.warn(
      { file: QUIZ_APP_FILE },
      'the MCP App view is not built (npm run build); hosts will show text only',
    );
  }
  app.use(
    mcpEndpoint({
      path: MCP_PATH,
      registry,
      deps,
      logger,
      maxBodyBytes: config.maxBodyBytes,
      metrics,
      quizAppHtml,
      // Who is calling, then count it (per credential, or per IP without a valid one), then refuse.
      guards: [
        originGuard({ baseUrl: config.baseUrl, allowedOrigins: config.allowedOrigins }),
        identifyBearer({ verifiers, logger, baseUrl: config.baseUrl }),
        mcpLimiter,
        requireBearer(config.baseUrl),
      ],
    }),
  );

  app.use(healthRouter({ database: database.hot, redis, lifecycle }));
  app.get(
    '/metrics',
    metricsEndpoint(metrics, {
      token: config.metricsToken,
      baseUrl: config.baseUrl,
      ...(metricsSource ? { source: metricsSource } : {}),
    }),
  );
  app.use(assetsRouter());
  app.use(docsRouter(config, registry));

  app.use(respondentLayer(config, deps, logger, limiterStore));

  app.use(
    oauthRouter({
      config,
      repos: database.repos,
      logger,
      limiterStore,
      testHooks: oauthTestHooks,
    }),
  );
  app.use(
    dashboardRouter({
      config,
      deps,
      logger,
      connectedApps: createConnectedAppsProvider(database.repos, now),
      webhooks: { settings: webhookSettings, worker: webhookWorker },
      // Login and sign-up throttles count across instances too when Redis is configured.
      limiters: defaultLimiters(
        config.limits,
        redis
          ? {
              store: (name) => limiterStore(name)!,
              redis,
              logger,
              prefix: `${config.redisKeyPrefix}rl:`,
            }
          : undefined,
        now,
      ),
    }),
  );
  app.use(notFound(config));
  app.use(lastResort(config, logger));
  return app;
}

/** Any other path: a problem that points to the MCP endpoint and the API reference. */
function notFound(config: Config): RequestHandler {
  return (req, res) => {
    sendProblem(res, config.baseUrl, 'not_found', {
      detail: `There is no endpoint at ${req.method} ${req.path}.`,
      hint: `The MCP endpoint is POST ${config.baseUrl}${MCP_PATH}; the API reference is at ${config.baseUrl}/en/docs/api-reference.`,
    });
  };
}

/** The last handler: a database out of reach is a 503, a malformed request a 4xx, anything else a logged 500. */
function lastResort(config: Config, logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const id = String(res.locals.requestId ?? '');
    if (isDatabaseUnavailable(error)) {
      logger.warn({ err: error, requestId: id, method: req.method, path: req.path }, 'database unavailable');
      if (res.headersSent) {
        res.destroy();
        return;
      }
      res.set('Retry-After', '5');
      sendProblem(res, config.baseUrl, 'service_unavailable', {
        detail: 'The service cannot reach its database right now; nothing was changed.',
        hint: 'Retry in a few seconds (Retry-After).',
      });
      return;
    }
    const client = clientErrorOf(error);
    if (client && !res.headersSent) {
      sendProblem(res, config.baseUrl, client.problem, {
        detail: client.reason,
        hint: 'Check the request line and the body against the API reference.',
      });
      return;
    }
    logger.error({ err: error, requestId: id, method: req.method, path: req.path }, 'unhandled error');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendProblem(res, config.baseUrl, 'internal_error', {
      detail: 'The request failed on our side.',
      hint: `Retry in a moment; if it keeps failing, report request id ${id}.`,
    });
  };
}

/** What every request passes, as one layer (Express walks each layer's matching per request). */
function everyRequest(
  config: Config,
  { lifecycle, logger, metrics }: { lifecycle: Lifecycle; logger: Logger; metrics: Metrics },
): RequestHandler {
  return chain([
    requestId(),
    noSniff(),
    strictTransport(config.baseUrl),
    closeConnectionsWhenClosing(lifecycle),
    requestLog(logger),
    recordRequests(metrics),
    refuseBadTextInAddress(config.baseUrl),
    malformedHostGuard({ baseUrl: config.baseUrl, exempt: PROBE_PATHS }),
    ...(config.enforceHost
      ? [
          hostGuard({
            baseUrl: config.baseUrl,
            allowedHosts: config.allowedHosts,
            exempt: PROBE_PATHS,
          }),
        ]
      : []),
  ]);
}

/** The public quiz pages and submissions, behind the submission and save limits. */
function respondentLayer(
  config: Config,
  deps: DomainDeps,
  logger: Logger,
  limiterStore: (name: string) => ResilientRedisStore | undefined,
): Router {
  const tokens = attemptTokens(config.sessionSecret);
  const submissionLimits = submissionLimiters({
    perMinute: config.submissionsPerMinute,
    perAddressPerMinute: config.submissionsPerAddressPerMinute,
    refusalsPerMinute: config.submissionRefusalsPerMinute,
    baseUrl: config.baseUrl,
    tokens,
    store: limiterStore,
    languageOf: async (slug) => {
      const quiz = await deps.repos.quizzes.bySlug(slug);
      return quiz?.status === 'published' ? quiz.language : undefined;
    },
    tooManyPage: sendTooManySubmissions,
  });
  return respondentRouter({
    deps,
    logger,
    maxBodyBytes: config.maxBodyBytes,
    guards: submissionLimits.beforeBody,
    bodyGuards: submissionLimits.afterBody,
    saveGuards: saveLimiters({
      perAddressPerMinute: config.savesPerAddressPerMinute,
      perAttemptPerMinute: config.savesPerAttemptPerMinute,
      baseUrl: config.baseUrl,
      tokens,
      store: limiterStore,
    }),
    tokens,
  });
}

/**
 * The LTI 1.3 routes platforms call, each with a counter of its own: the JWKS and Dynamic
 * Registration, and the launch when there is a secret to sign its state. The tool's signing keys
 * (deps.lti) are sealed under a key from the same secret (domain/lti/tool-keys.ts).
 */
function ltiRoutes(
  config: Config,
  deps: DomainDeps,
  database: Database,
  redis: RedisCommander | undefined,
  limiter: (name: string) => RequestHandler,
): Router {
  // Nonces claimed once across instances: in Redis when configured, else the database's marks.
  const marks = sharedMarks(database.repos, redis, `${config.redisKeyPrefix}lti:`);
  const router = express.Router();
  router.use(
    ltiRouter({ deps, registration: { allowLoopback: config.lti.allowLoopback }, limiter: limiter('lti') }),
  );
  if (config.sessionSecret)
    router.use(
      ltiLaunchRouter({
        deps,
        limiter: limiter('lti-launch'),
        settings: {
          stateKey: launchStateKey(config.sessionSecret),
          marks,
          allowLoopback: config.lti.allowLoopback,
        },
      }),
    );
  return router;
}
