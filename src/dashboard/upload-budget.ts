import type { RedisCommander } from '../http/rate-limit-store';
import type { Logger } from '../logger';
import { redisFallback } from '../http/redis-fallback';

/**
 * What one upload link may still store: a count of files and of bytes for as long as the link
 * lives. An upload takes its share before it is stored and gives it back if it is not, so files
 * sent in parallel cannot all pass on the same count.
 */
export interface UploadBudget {
  /** Takes one file of `bytes`, or says which bound it would cross (taking nothing). */
  take(key: string, bytes: number): Promise<BudgetAnswer>;
  /** Gives back what a take took (the file was not stored after all). */
  giveBack(key: string, bytes: number): Promise<void>;
}

export type BudgetAnswer =
  { ok: true } | { ok: false; bound: 'files' | 'bytes'; files: number; bytes: number };

export interface BudgetRule {
  files: number;
  bytes: number;
  /** How long a key's count lasts: the lifetime of what it counts (an upload link). */
  windowMs: number;
}

interface Used {
  files: number;
  bytes: number;
  until: number;
}

export function createMemoryUploadBudget(
  rule: BudgetRule,
  options: { now?: () => number; maxKeys?: number } = {},
): UploadBudget {
  const { now = Date.now, maxKeys = 50_000 } = options;
  const keys = new Map<string, Used>();
  const live = (key: string): Used => {
    const at = now();
    const used = keys.get(key);
    if (used && used.until > at) return used;
    const fresh = { files: 0, bytes: 0, until: at + rule.windowMs };
    keys.delete(key);
    keys.set(key, fresh);
    if (keys.size > maxKeys) keys.delete(keys.keys().next().value!);
    return fresh;
  };
  return {
    async take(key, bytes) {
      const used = live(key);
      if (used.files + 1 > rule.files) return { ok: false, bound: 'files', ...used };
      if (used.bytes + bytes > rule.bytes) return { ok: false, bound: 'bytes', ...used };
      used.files += 1;
      used.bytes += bytes;
      return { ok: true };
    },
    async giveBack(key, bytes) {
      const used = keys.get(key);
      if (!used) return;
      used.files = Math.max(0, used.files - 1);
      used.bytes = Math.max(0, used.bytes - bytes);
    },
  };
}

// One script, so two instances cannot both pass on the same count.
const TAKE_SCRIPT = `
local f = tonumber(redis.call('HGET', KEYS[1], 'f') or '0')
local b = tonumber(redis.call('HGET', KEYS[1], 'b') or '0')
local size = tonumber(ARGV[3])
if f + 1 > tonumber(ARGV[1]) then return {1, f, b} end
if b + size > tonumber(ARGV[2]) then return {2, f, b} end
redis.call('HINCRBY', KEYS[1], 'f', 1)
redis.call('HINCRBY', KEYS[1], 'b', size)
if redis.call('PTTL', KEYS[1]) < 0 then redis.call('PEXPIRE', KEYS[1], ARGV[4]) end
return {0, f + 1, b + size}`;

/**
 * The same budget in Redis, shared by every instance; this instance's memory while Redis does not
 * answer (as the rate limits do), so the bounds hold through an outage, counted per instance.
 */
export function createRedisUploadBudget(
  client: RedisCommander,
  logger: Logger,
  prefix: string,
  rule: BudgetRule,
  timeoutMs = 250,
): UploadBudget {
  const memory = createMemoryUploadBudget(rule);
  const { usable, withTimeout, markDown } = redisFallback(client, logger, 'upload links', timeoutMs);
  return {
    async take(key, bytes) {
      if (usable()) {
        try {
          const answer = (await withTimeout(
            client.sendCommand([
              'EVAL',
              TAKE_SCRIPT,
              '1',
              prefix + key,
              String(rule.files),
              String(rule.bytes),
              String(bytes),
              String(rule.windowMs),
            ]),
          )) as unknown[];
          const [refused, files, used] = answer.map(Number) as [number, number, number];
          if (refused === 0) return { ok: true };
          return { ok: false, bound: refused === 1 ? 'files' : 'bytes', files, bytes: used };
        } catch (error) {
          markDown(error);
        }
      }
      return memory.take(key, bytes);
    },
    async giveBack(key, bytes) {
      await memory.giveBack(key, bytes);
      if (usable()) {
        await withTimeout(
          client
            .sendCommand(['HINCRBY', prefix + key, 'f', '-1'])
            .then(() => client.sendCommand(['HINCRBY', prefix + key, 'b', String(-bytes)])),
        ).catch(markDown);
      }
    },
  };
}
