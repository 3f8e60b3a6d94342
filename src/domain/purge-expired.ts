import type { Repositories } from '../db/repositories';
import { GRACE_SECONDS } from './attempts/taking-rules';
import { UNTIMED_ATTEMPT_HOURS } from './attempts/attempts';
import { DELIVERY_LOG_SIZE } from './webhooks/endpoints';

type Stores = Pick<Repositories, 'users' | 'oauth' | 'attempts' | 'webhooks' | 'uploads' | 'lti'>;

/**
 * Removes credentials that can no longer be used, so that the tables of a long-running
 * service stay the size of what is live: dashboard sessions past their expiry, OAuth
 * authorization codes a day after they expired, and OAuth token rows a week after both their
 * access and refresh tokens expired. The margins keep the rows that detect misuse (a code
 * or refresh token presented again revokes what was issued from it) for a while after they
 * could have been used. Idempotent: several instances may run it at once.
 */
export const CODE_RETENTION_MS = 24 * 60 * 60 * 1000;
export const TOKEN_RETENTION_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * Attempts never submitted go a day after they could last have been: until then a late
 * submission is still told that its time ran out, rather than that its token is unknown.
 */
export const ATTEMPT_RETENTION_MS = 24 * 60 * 60 * 1000;
/** A repeated submission's key answers with the first response for a day, then may store anew. */
export const SUBMISSION_KEY_RETENTION_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_DELIVERY_RETENTION_DAYS = 30;
/** Rows per delete statement: short statements, so a large backlog never holds a lock for long. */
export const PURGE_BATCH = 500;

export interface PurgeCounts {
  sessions: number;
  authorizationCodes: number;
  tokens: number;
  attempts: number;
  submissionKeys: number;
  webhookDeliveries: number;
  webhookAttempts: number;
  uploads: number;
  ltiRegistrationLinks: number;
}

export interface PurgeOptions {
  /** Days finished webhook deliveries and logged attempts are kept (each delivery log's latest stay). */
  deliveryRetentionDays?: number;
  batch?: number;
}

/**
 * Also removes attempts that ran out unsubmitted, webhook deliveries (delivered or failed,
 * never waiting ones) and logged attempts past the retention, keeping what each endpoint's
 * delivery log shows, repeated submissions' keys after a day, uploaded files and LTI registration addresses past their expiry, so that nothing grows with time alone.
 */
export async function purgeExpired(
  repos: Stores,
  now = new Date(),
  { deliveryRetentionDays = DEFAULT_DELIVERY_RETENTION_DAYS, batch = PURGE_BATCH }: PurgeOptions = {},
): Promise<PurgeCounts> {
  const at = (ms: number) => new Date(now.getTime() - ms);
  const sessions = await repos.users.deleteExpiredSessions(now);
  const { codes, tokens } = await repos.oauth.deleteExpired(at(CODE_RETENTION_MS), at(TOKEN_RETENTION_MS));
  const attempts = await repos.attempts.deleteUnsubmitted(
    at(GRACE_SECONDS * 1000 + ATTEMPT_RETENTION_MS),
    at(UNTIMED_ATTEMPT_HOURS * 3_600_000 + ATTEMPT_RETENTION_MS),
    batch,
  );
  const submissionKeys = await repos.attempts.deleteSubmissionKeys(at(SUBMISSION_KEY_RETENTION_MS), batch);
  const log = await repos.webhooks.deleteOldLog(
    at(deliveryRetentionDays * 24 * 3_600_000),
    DELIVERY_LOG_SIZE,
    batch,
  );
  const uploads = await repos.uploads.deleteExpired(now, batch);
  // A registration address is no use past its hour, used or not.
  const ltiRegistrationLinks = await repos.lti.deleteExpiredRegistrationLinks(now, batch);
  return {
    sessions,
    authorizationCodes: codes,
    tokens,
    attempts,
    submissionKeys,
    webhookDeliveries: log.deliveries,
    webhookAttempts: log.attempts,
    uploads,
    ltiRegistrationLinks,
  };
}

export interface PurgeSchedule {
  stop(): void;
  /** How many runs have finished, successful or not. */
  readonly finishedRuns: number;
}

type PurgeLogger = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** One run that never throws: what it removed is logged, a failure is logged as a warning. */
export async function purgeAndLog(
  repos: Stores,
  logger: PurgeLogger,
  options: PurgeOptions = {},
): Promise<void> {
  try {
    const purged = await purgeExpired(repos, new Date(), options);
    if (Object.values(purged).some((count) => count > 0)) {
      logger.info({ purged }, 'expired sessions and OAuth credentials removed');
    }
  } catch (error) {
    logger.warn({ err: error }, 'removing expired credentials failed; the next run tries again');
  }
}

/**
 * Runs purgeAndLog every hour, off the request path (the service runs it once itself before it
 * accepts connections: see main.ts). A failure (the database away) is logged and the next run
 * tries again.
 */
export function schedulePurge(
  repos: Stores,
  logger: PurgeLogger,
  { everyMs = 60 * 60 * 1000, ...options }: PurgeOptions & { everyMs?: number } = {},
): PurgeSchedule {
  let finishedRuns = 0;
  const run = async () => {
    await purgeAndLog(repos, logger, options);
    finishedRuns += 1;
  };
  const every = setInterval(() => void run(), everyMs).unref();
  return {
    stop() {
      clearInterval(every);
    },
    get finishedRuns() {
      return finishedRuns;
    },
  };
}
