import type { RedisCommander } from '../http/rate-limit-store';
import type { Logger } from '../logger';
import { redisFallback } from '../http/redis-fallback';

/**
 * A growing delay per account after repeated failed log-ins, never a lock-out: a lock-out would
 * let anyone keep an owner out of their own account by typing wrong passwords for their email.
 *
 * The first `freeFailures` attempts are free. After that, each attempt must wait 1, 2, 4, ...
 * seconds after the previous one, up to `maxDelaySeconds`. An attempt is counted as a failure
 * before the (slow) password check and forgotten on success, so a burst of parallel guesses
 * cannot overtake the count. Failures are forgotten an hour after the last attempt.
 */
export interface LoginDelay {
  /** Counts one attempt and returns 0, or returns the seconds to wait (counting nothing). */
  attempt(account: string): Promise<number>;
  /** The right password: the account starts afresh. */
  succeeded(account: string): Promise<void>;
}

export interface LoginDelayRule {
  freeFailures: number;
  maxDelaySeconds: number;
}

const FORGET_AFTER_MS = 60 * 60 * 1000;

/** The wait after `failures` counted attempts, in milliseconds. */
export function delayAfter(failures: number, rule: LoginDelayRule): number {
  if (failures < rule.freeFailures) return 0;
  return Math.min(2 ** (failures - rule.freeFailures), rule.maxDelaySeconds) * 1000;
}

interface Failures {
  count: number;
  lastAt: number;
}

export function createMemoryLoginDelay(
  rule: LoginDelayRule,
  options: { now?: () => number; maxKeys?: number } = {},
): LoginDelay {
  const { now = Date.now, maxKeys = 50_000 } = options;
  const accounts = new Map<string, Failures>();
  return {
    async attempt(account) {
      const at = now();
      const previous = accounts.get(account);
      const failures = previous && at - previous.lastAt < FORGET_AFTER_MS ? previous : undefined;
      if (failures) {
        const readyAt = failures.lastAt + delayAfter(failures.count, rule);
        if (at < readyAt) return Math.ceil((readyAt - at) / 1000);
      }
      accounts.delete(account); // re-insert: Map order then tracks recency for the bound below
      accounts.set(account, { count: (failures?.count ?? 0) + 1, lastAt: at });
      if (accounts.size > maxKeys) accounts.delete(accounts.keys().next().value!);
      return 0;
    },
    async succeeded(account) {
      accounts.delete(account);
    },
  };
}

/**
 * The same rule in Redis, decided in one script so that every instance sees one count and two
 * attempts cannot both pass on the same state. Redis's own clock times the delay, so instances
 * whose clocks disagree still agree on it.
 */
const ATTEMPT_SCRIPT = `
local n = tonumber(redis.call('HGET', KEYS[1], 'n') or '0')
local last = tonumber(redis.call('HGET', KEYS[1], 'at') or '0')
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local free, cap, ttl = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3])
if n >= free then
  local ready = last + math.min(2 ^ (n - free), cap) * 1000
  if now < ready then return math.ceil((ready - now) / 1000) end
end
redis.call('HSET', KEYS[1], 'n', n + 1, 'at', now)
redis.call('PEXPIRE', KEYS[1], ttl)
return 0`;

/**
 * Redis when it answers, this instance's memory while it does not (as the rate limits do): the
 * delay keeps working through an outage, counted per instance.
 */
export function createRedisLoginDelay(
  client: RedisCommander,
  logger: Logger,
  prefix: string,
  rule: LoginDelayRule,
  timeoutMs = 250,
): LoginDelay {
  const memory = createMemoryLoginDelay(rule);
  const { usable, withTimeout, markDown } = redisFallback(client, logger, 'log-in delays', timeoutMs);
  return {
    async attempt(account) {
      if (usable()) {
        try {
          const wait = await withTimeout(
            client.sendCommand([
              'EVAL',
              ATTEMPT_SCRIPT,
              '1',
              prefix + account,
              String(rule.freeFailures),
              String(rule.maxDelaySeconds),
              String(FORGET_AFTER_MS),
            ]),
          );
          return Number(wait);
        } catch (error) {
          markDown(error);
        }
      }
      return memory.attempt(account);
    },
    async succeeded(account) {
      await memory.succeeded(account);
      if (usable()) await withTimeout(client.sendCommand(['DEL', prefix + account])).catch(markDown);
    },
  };
}
