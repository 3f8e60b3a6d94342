import type { Logger } from '../logger';
import type { RedisCommander } from './rate-limit-store';

/**
 * How a count kept in Redis falls back to this instance's memory: a call Redis does not answer
 * within `timeoutMs` fails, and after a failure Redis is left alone for 5 s (warned once), so an
 * outage slows no request and the bound holds, counted per instance, until Redis answers again.
 */
export interface RedisFallback {
  /** Whether to ask Redis now: it is connected and not resting after a failure. */
  usable(): boolean;
  /** The operation, or a failure once `timeoutMs` has passed without an answer. */
  withTimeout<T>(operation: Promise<T>): Promise<T>;
  /** Rests Redis for a while after a failure, warning once per outage. */
  markDown(error: unknown): void;
}

const REST_MS = 5_000;

export function redisFallback(
  client: RedisCommander,
  logger: Logger,
  /** What is counted per instance meanwhile, for the warning ("upload links"). */
  what: string,
  timeoutMs: number,
): RedisFallback {
  let downUntil = 0;
  return {
    usable: () => client.isReady && Date.now() >= downUntil,
    async withTimeout<T>(operation: Promise<T>): Promise<T> {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        return await Promise.race([operation, timeout]);
      } finally {
        clearTimeout(timer);
      }
    },
    markDown(error) {
      if (Date.now() >= downUntil) {
        logger.warn({ err: error }, `Redis did not answer: ${what} are counted per instance for a while`);
      }
      downUntil = Date.now() + REST_MS;
    },
  };
}
