import { hkdfSync } from 'node:crypto';
import type { ApprovalDeps, SharedMarks } from '../../domain/deps';
import type { RedisCommander } from '../../http/rate-limit-store';

/** The database's marks (the OAuth repository's). */
interface MarkStore {
  claimMark(key: string, expiresAt: Date, now: Date): Promise<boolean>;
  putMark(key: string, expiresAt: Date): Promise<void>;
  hasMark(key: string, now: Date): Promise<boolean>;
}

/**
 * The marks an approval needs across instances: in Redis when it is configured (SET NX PX, one
 * round trip), else in the database (`short_marks`). With Redis configured but unreachable a
 * claim fails rather than fall back: a mark set in Redis before the outage would not be seen in
 * the database, and a used requestState would pass a second time.
 */
export function sharedMarks(
  repos: { oauth: MarkStore },
  redis: RedisCommander | undefined,
  prefix: string,
  now: () => number = Date.now,
): SharedMarks {
  if (!redis)
    return {
      claim: (key, ttlMs) => repos.oauth.claimMark(key, new Date(now() + ttlMs), new Date(now())),
      put: (key, ttlMs) => repos.oauth.putMark(key, new Date(now() + ttlMs)),
      has: (key) => repos.oauth.hasMark(key, new Date(now())),
    };
  const ready = () => {
    if (!redis.isReady) throw new Error('Redis is unreachable: approvals in the client wait for it');
  };
  return {
    async claim(key, ttlMs) {
      ready();
      return (await redis.sendCommand(['SET', prefix + key, '1', 'NX', 'PX', String(ttlMs)])) === 'OK';
    },
    async put(key, ttlMs) {
      ready();
      await redis.sendCommand(['SET', prefix + key, '1', 'PX', String(ttlMs)]);
    },
    async has(key) {
      ready();
      return Number(await redis.sendCommand(['EXISTS', prefix + key])) > 0;
    },
  };
}

/** The approvals' key, of its own: derived from the server's secret like the other signing keys. */
export function approvalDeps(serverSecret: string | undefined, marks: SharedMarks): ApprovalDeps | undefined {
  if (!serverSecret) return undefined;
  const key = new Uint8Array(
    hkdfSync('sha256', Buffer.from(serverSecret, 'utf8'), 'quiz-service', 'request-state v1', 32),
  );
  return { key, marks };
}
