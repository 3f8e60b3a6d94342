import type { Options, Store } from 'express-rate-limit';

/**
 * Counts attempts per key (an account's email, a client IP) in a sliding window, for the
 * login and sign-up throttles.
 *
 * Attempts are counted *before* the password is checked and given back on success: a
 * burst of parallel guesses therefore cannot all slip past the check while the first ones
 * are still being hashed. The interface is async so a shared store (Redis: INCR + EXPIRE,
 * DECR to refund) can replace the in-memory one when several instances run.
 */
export interface AttemptLimiter {
  /** Counts one attempt and returns 0, or returns the seconds to wait (and counts nothing). */
  consume(key: string): Promise<number>;
  /** Gives one counted attempt back (a successful login does not count towards the limit). */
  refund(key: string): Promise<void>;
  /** Forgets the key (after a successful login, the account starts afresh). */
  reset(key: string): Promise<void>;
}

export interface InMemoryLimiterOptions {
  limit: number;
  windowMs: number;
  /** Bound on memory: the oldest keys are dropped beyond this many. */
  maxKeys?: number;
  now?: () => number;
}

export function createInMemoryLimiter(options: InMemoryLimiterOptions): AttemptLimiter {
  const { limit, windowMs, maxKeys = 50_000, now = Date.now } = options;
  // key -> timestamps of counted attempts within the window, oldest first.
  const attempts = new Map<string, number[]>();

  function live(key: string, at: number): number[] {
    const list = (attempts.get(key) ?? []).filter((time) => time > at - windowMs);
    if (list.length === 0) attempts.delete(key);
    else attempts.set(key, list);
    return list;
  }

  return {
    async consume(key) {
      const at = now();
      const list = live(key, at);
      if (list.length >= limit) return Math.max(1, Math.ceil((list[0]! + windowMs - at) / 1000));
      list.push(at);
      attempts.delete(key); // re-insert: Map order then tracks recency for the eviction below
      attempts.set(key, list);
      if (attempts.size > maxKeys) attempts.delete(attempts.keys().next().value!);
      return 0;
    },
    async refund(key) {
      const list = attempts.get(key);
      if (!list) return;
      list.pop();
      if (list.length === 0) attempts.delete(key);
    },
    async reset(key) {
      attempts.delete(key);
    },
  };
}

/**
 * The same rules over an express-rate-limit store (ResilientRedisStore: Redis shared by every
 * instance, per-instance memory while Redis is away), so that a guesser spreading attempts
 * over several instances meets one count. The window is fixed rather than sliding: the
 * store's counters expire together at the end of each window.
 */
export function createStoreLimiter(
  store: Store,
  options: { limit: number; windowMs: number },
): AttemptLimiter {
  const { limit, windowMs } = options;
  // Only windowMs is read by the stores; the rest of express-rate-limit's options is theirs.
  void store.init?.({ windowMs } as Options);
  return {
    async consume(key) {
      const { totalHits, resetTime } = await store.increment(key);
      if (totalHits <= limit) return 0;
      await store.decrement(key); // refused attempts count nothing, as in memory
      const resetMs = resetTime ? resetTime.getTime() - Date.now() : windowMs;
      return Math.max(1, Math.ceil(resetMs / 1000));
    },
    async refund(key) {
      await store.decrement(key);
    },
    async reset(key) {
      await store.resetKey(key);
    },
  };
}
