import type { Config } from '../config';
import type { DomainDeps } from '../domain/deps';
import type { Logger } from '../logger';
import type { Store } from 'express-rate-limit';
import { createInMemoryLimiter, createStoreLimiter, type AttemptLimiter } from './attempt-limiter';
import type { ConnectedAppsProvider } from '../identity/connected-apps';

/** What every dashboard route module receives from dashboardRouter(). */
export interface DashboardContext {
  config: Config;
  deps: DomainDeps;
  logger: Logger;
  limiters: DashboardLimiters;
  connectedApps: ConnectedAppsProvider;
}

export interface DashboardLimiters {
  /** Login attempts per account (email): a password-guessing run against one person. */
  loginAccount: AttemptLimiter;
  /** Login attempts per client address: one source trying many accounts. */
  loginClient: AttemptLimiter;
  /** Accounts created per client address (each costs a scrypt hash and a row). */
  signupClient: AttemptLimiter;
}

const MINUTE = 60_000;

/**
 * Limits: 5 failed logins per account per 15 minutes (a person who mistypes gets several
 * tries; a guesser gets 480 a day at most), 20 per address per 15 minutes, 20 sign-ups
 * per address per hour. In memory per instance, or, given a store per limiter (Redis when
 * REDIS_URL is set), one count across every instance.
 */
export function defaultLimiters(store?: (name: string) => Store | undefined): DashboardLimiters {
  const limiter = (name: string, limit: number, windowMs: number) => {
    const shared = store?.(name);
    return shared
      ? createStoreLimiter(shared, { limit, windowMs })
      : createInMemoryLimiter({ limit, windowMs });
  };
  return {
    loginAccount: limiter('login-account', 5, 15 * MINUTE),
    loginClient: limiter('login-client', 20, 15 * MINUTE),
    signupClient: limiter('signup-client', 20, 60 * MINUTE),
  };
}
