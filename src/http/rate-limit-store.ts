import { MemoryStore, type IncrementResponse, type Options, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Logger } from '../logger';

/** The part of a node-redis client the store uses. */
export interface RedisCommander {
  readonly isReady: boolean;
  sendCommand(args: string[]): Promise<unknown>;
}

const WARN_EVERY_MS = 30_000;
const lastWarning = new WeakMap<RedisCommander, number>();

/** At most one warning per client in WARN_EVERY_MS, however many stores meet the failure. */
function shouldWarn(client: RedisCommander): boolean {
  const now = Date.now();
  if (now - (lastWarning.get(client) ?? -Infinity) < WARN_EVERY_MS) return false;
  lastWarning.set(client, now);
  return true;
}

/**
 * Counters in Redis when it answers, so that every instance shares one budget per credential
 *; in memory otherwise.
 *
 * When Redis is unreachable the service keeps serving and keeps limiting, with per-instance
 * counters in memory (each instance then allows up to the limit on its own), rather than
 * refusing every request (fail closed) or dropping limits altogether (fail open). A request
 * never waits longer than `timeoutMs` on Redis; after a failure Redis is tried again after
 * `retryAfterMs`, and the shared counters resume by themselves once it answers.
 */
export class ResilientRedisStore implements Store {
  readonly localKeys = false;
  readonly prefix: string;
  private readonly redis: RedisStore;
  private readonly memory = new MemoryStore();
  private options: Options | undefined;
  private downUntil = 0;
  private needsInit = false;

  constructor(
    private readonly client: RedisCommander,
    private readonly logger: Logger,
    prefix: string,
    private readonly timeoutMs = 250,
    private readonly retryAfterMs = 5_000,
  ) {
    this.prefix = prefix;
    this.redis = new RedisStore({
      sendCommand: (...args: string[]) => client.sendCommand(args) as never,
      prefix,
    });
  }

  init(options: Options): void {
    this.options = options;
    this.memory.init(options);
    // Stores are made while the client is still connecting: its scripts are loaded at first use
    // instead, so a start-up beside a healthy Redis reports no failure (the client reports its own).
    if (this.client.isReady) this.redis.init(options).catch((error: unknown) => this.markDown(error));
    else this.needsInit = true;
  }

  get usingRedis(): boolean {
    return Date.now() >= this.downUntil && this.client.isReady;
  }

  private markDown(error: unknown): void {
    // While the client is not connected it says so itself (src/redis.ts); a failure of a
    // connected client is said once for all the stores that share it.
    if (this.client.isReady && shouldWarn(this.client)) {
      this.logger.warn(
        { reason: error instanceof Error ? error.message : String(error) },
        'Redis did not answer a rate-limit command: limits fall back to per-instance memory counters for a while',
      );
    }
    this.downUntil = Date.now() + this.retryAfterMs;
    this.needsInit = true;
  }

  private async viaRedis<T>(operation: () => Promise<T>): Promise<T> {
    if (this.needsInit && this.options) {
      // Script SHAs are loaded at init; after an outage load them again before use.
      await this.redis.init(this.options);
      this.needsInit = false;
    }
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`Redis did not answer within ${this.timeoutMs} ms`)),
        this.timeoutMs,
      );
    });
    try {
      return await Promise.race([operation(), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  async increment(key: string): Promise<IncrementResponse> {
    if (this.usingRedis) {
      try {
        return await this.viaRedis(() => this.redis.increment(key));
      } catch (error) {
        this.markDown(error);
      }
    }
    return this.memory.increment(key);
  }

  async decrement(key: string): Promise<void> {
    if (this.usingRedis) {
      try {
        await this.viaRedis(() => this.redis.decrement(key));
        return;
      } catch (error) {
        this.markDown(error);
      }
    }
    this.memory.decrement(key);
  }

  async resetKey(key: string): Promise<void> {
    this.memory.resetKey(key);
    if (this.usingRedis)
      await this.viaRedis(() => this.redis.resetKey(key)).catch((error: unknown) => this.markDown(error));
  }

  shutdown(): void {
    this.memory.shutdown();
  }
}
