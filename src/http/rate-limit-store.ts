import { MemoryStore, type IncrementResponse, type Options, type Store } from 'express-rate-limit';
import { RedisStore } from 'rate-limit-redis';
import type { Logger } from '../logger';

/** The part of a node-redis client the store uses. */
export interface RedisCommander {
  readonly isReady: boolean;
  sendCommand(args: string[]): Promise<unknown>;
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
    this.redis.init(options).catch((error: unknown) => this.markDown(error));
  }

  get usingRedis(): boolean {
    return Date.now() >= this.downUntil && this.client.isReady;
  }

  private markDown(error: unknown): void {
    if (Date.now() >= this.downUntil) {
      this.logger.warn(
        { err: error },
        'Redis unreachable: rate limits fall back to per-instance memory counters',
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
