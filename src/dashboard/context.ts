import type { Config, PublicLimits } from '../config';
import type { RedisCommander } from '../http/rate-limit-store';
import { createMemoryLoginDelay, createRedisLoginDelay, type LoginDelay } from './login-delay';
import type { DomainDeps } from '../domain/deps';
import type { Logger } from '../logger';
import type { Store } from 'express-rate-limit';
import { createInMemoryLimiter, createStoreLimiter, type AttemptLimiter } from './attempt-limiter';
import type { ConnectedAppsProvider } from '../identity/connected-apps';
import type { WebhookSettings, WebhookWorker } from '../domain/webhooks/worker';
import { LINK_LIFETIME_MS } from '../domain/links/signed-links';
import { createMemoryUploadBudget, createRedisUploadBudget, type UploadBudget } from './upload-budget';

/** What every dashboard route module receives from dashboardRouter(). */
export interface DashboardContext {
  config: Config;
  deps: DomainDeps;
  logger: Logger;
  limiters: DashboardLimiters;
  connectedApps: ConnectedAppsProvider;
  /** Webhook settings (sealing key, loopback rule) and the worker that sends test events. */
  webhooks: DashboardWebhooks;
}

export interface DashboardWebhooks {
  settings: WebhookSettings;
  worker: Pick<WebhookWorker, 'deliver'>;
}

export interface DashboardLimiters {
  /** Log-in attempts per account (email): a growing delay after repeated failures. */
  loginAccount: LoginDelay;
  /** Log-in attempts per client address: one source trying many accounts. */
  loginClient: AttemptLimiter;
  /** Accounts created per client address (each costs a scrypt hash and a row). */
  signupClient: AttemptLimiter;
  /** "Send test event" per endpoint: each is a signed POST to a URL of the owner's choosing. */
  webhookTest: AttemptLimiter;
  /** Files sent to upload links per client address (a link needs no credential). */
  uploadAddress: AttemptLimiter;
  /** Files and bytes each upload link stores while it lives. */
  uploadLink: UploadBudget;
}

/** Test events per endpoint per minute. */
export const TEST_EVENTS_PER_MINUTE = 5;

/** Where the throttles keep their counts when several instances share them (Redis). */
export interface SharedCounters {
  store(name: string): Store;
  redis: RedisCommander;
  logger: Logger;
  prefix: string;
}

const MINUTE = 60_000;

/**
 * The throttles of the account forms, sized by configuration: in memory per instance, or
 * through Redis when it is configured, one count across every instance.
 */
export function defaultLimiters(
  limits: PublicLimits,
  shared?: SharedCounters,
  now?: () => number,
): DashboardLimiters {
  const limiter = (name: string, limit: number, windowMs: number) =>
    shared
      ? createStoreLimiter(shared.store(name), { limit, windowMs })
      : createInMemoryLimiter({ limit, windowMs, ...(now ? { now } : {}) });
  const linkRule = {
    files: limits.uploads.linkFiles,
    bytes: limits.uploads.linkBytes,
    windowMs: LINK_LIFETIME_MS.upload,
  };
  return {
    loginAccount: shared
      ? createRedisLoginDelay(shared.redis, shared.logger, `${shared.prefix}login-delay:`, limits.loginDelay)
      : createMemoryLoginDelay(limits.loginDelay, now ? { now } : {}),
    loginClient: limiter('login-client', limits.loginsPerMinute, MINUTE),
    signupClient: limiter('signup-client', limits.signupsPerHour, 60 * MINUTE),
    webhookTest: limiter('webhook-test', TEST_EVENTS_PER_MINUTE, MINUTE),
    uploadAddress: limiter('upload-address', limits.uploads.perAddressPerMinute, MINUTE),
    uploadLink: shared
      ? createRedisUploadBudget(shared.redis, shared.logger, `${shared.prefix}upload-link:`, linkRule)
      : createMemoryUploadBudget(linkRule, now ? { now } : {}),
  };
}
