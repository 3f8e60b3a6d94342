import express, { type Router } from 'express';
import type { Config } from '../config';
import type { DomainDeps } from '../domain/deps';
import type { Logger } from '../logger';
import { pageSecurity } from '../web/security';
import { loadSession } from '../web/session';
import { acceptAnswerRoutes } from './accept-answer-routes';
import { accountRoutes } from './account-routes';
import { gradingRoutes } from './grading-routes';
import { overrideRoutes } from './override-routes';
import { accountSettingsRoutes } from './account-settings';
import { showHomePage } from './home-page';
import { apiKeyRoutes } from './api-key-routes';
import { connectedAppsRoutes } from './connected-apps-routes';
import { noConnectedApps, type ConnectedAppsProvider } from '../identity/connected-apps';
import {
  defaultLimiters,
  type DashboardContext,
  type DashboardLimiters,
  type DashboardWebhooks,
} from './context';
import { domainErrorPages } from './domain-error-pages';
import { pageErrorHandler, sendNotFound } from '../web/error-pages';
import { importRoutes } from './import-routes';
import { ltiRoutes } from './lti-routes';
import { quizEditorRoutes } from './quiz-editor-routes';
import { quizRoutes } from './quiz-routes';
import { quizShareRoutes } from './quiz-share-routes';
import { responseRoutes } from './response-routes';
import { resultsRoutes } from './results-routes';
import { uploadRoutes } from './upload-routes';
import { webhookRoutes } from './webhook-routes';
import { sealingKey } from '../domain/webhooks/secrets';
import { createWebhookWorker } from '../domain/webhooks/worker';

export interface DashboardOptions {
  config: Config;
  deps: DomainDeps;
  logger: Logger;
  /** The OAuth module's list of approved clients; nothing is connected without it. */
  connectedApps?: ConnectedAppsProvider;
  /** Throttles (in memory by default; pass shared ones when several instances run). */
  limiters?: Partial<DashboardLimiters>;
  /** Webhook settings and worker (the app's own); built from the config when not given. */
  webhooks?: DashboardWebhooks;
}

/** Every path the dashboard owns; nothing else reaches its middleware (no session lookup for /api/*). */
const PREFIXES = ['/signup', '/login', '/logout', '/dashboard', '/settings', '/account'];

/** The route modules, each given the same context; their routes throw, and the errors are answered below. */
const ROUTES = [
  accountRoutes,
  // Before quizRoutes and the editor: /dashboard/quizzes/new and /dashboard/quizzes/import are not quiz ids.
  importRoutes,
  quizEditorRoutes,
  quizShareRoutes,
  uploadRoutes,
  quizRoutes,
  resultsRoutes,
  responseRoutes,
  acceptAnswerRoutes,
  overrideRoutes,
  gradingRoutes,
  apiKeyRoutes,
  connectedAppsRoutes,
  webhookRoutes,
  ltiRoutes,
  accountSettingsRoutes,
];

function defaultWebhooks(config: Config, deps: DomainDeps, logger: Logger): DashboardWebhooks {
  const settings = {
    sealingKey: sealingKey(config.webhooks.secretKey, config.sessionSecret),
    allowLoopback: config.webhooks.allowLoopback,
  };
  return { settings, worker: createWebhookWorker({ repos: deps.repos, settings, logger }) };
}

/**
 * The dashboard: accounts, quizzes with results, API keys, connected apps.
 * Server-rendered HTML with helmet's page headers, a database session and CSRF-checked
 * forms; a thin adapter over the same domain functions as the MCP tools.
 */
export function dashboardRouter(options: DashboardOptions): Router {
  const { config, deps, logger } = options;
  const context: DashboardContext = {
    config,
    deps,
    logger,
    limiters: { ...defaultLimiters(config.limits), ...options.limiters },
    connectedApps: options.connectedApps ?? noConnectedApps,
    webhooks: options.webhooks ?? defaultWebhooks(config, deps, logger),
  };
  const router = express.Router();
  const pageBasics = [
    pageSecurity({ https: config.baseUrl.startsWith('https:') }),
    loadSession({ repos: deps.repos, config }),
  ];
  router.use(PREFIXES, ...pageBasics);
  // The home page: exactly `/` (as a prefix it would match every path).
  router.get('/', ...pageBasics, showHomePage(context));
  for (const routes of ROUTES) router.use(routes(context));
  router.use(PREFIXES, (_req, res) => sendNotFound(res));
  // Domain errors as the page each route shows (its form again, or "not found"), then the last resort.
  router.use(PREFIXES, domainErrorPages(), pageErrorHandler(logger));
  return router;
}
