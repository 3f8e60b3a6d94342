import type { Repositories } from '../db/repositories';

type Stores = Pick<Repositories, 'users' | 'oauth'>;

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

export interface PurgeCounts {
  sessions: number;
  authorizationCodes: number;
  tokens: number;
}

export async function purgeExpired(repos: Stores, now = new Date()): Promise<PurgeCounts> {
  const sessions = await repos.users.deleteExpiredSessions(now);
  const { codes, tokens } = await repos.oauth.deleteExpired(
    new Date(now.getTime() - CODE_RETENTION_MS),
    new Date(now.getTime() - TOKEN_RETENTION_MS),
  );
  return { sessions, authorizationCodes: codes, tokens };
}

export interface PurgeSchedule {
  stop(): void;
  /** How many runs have finished, successful or not. */
  readonly finishedRuns: number;
}

type PurgeLogger = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** One run that never throws: what it removed is logged, a failure is logged as a warning. */
export async function purgeAndLog(repos: Stores, logger: PurgeLogger): Promise<void> {
  try {
    const purged = await purgeExpired(repos);
    if (purged.sessions + purged.authorizationCodes + purged.tokens > 0) {
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
  { everyMs = 60 * 60 * 1000 } = {},
): PurgeSchedule {
  let finishedRuns = 0;
  const run = async () => {
    await purgeAndLog(repos, logger);
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
