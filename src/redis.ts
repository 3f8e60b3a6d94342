import { createClient } from 'redis';
import type { Logger } from './logger';

export type RedisClient = ReturnType<typeof createClient>;

/**
 * A Redis client for shared state (REDIS_URL). Commands fail at once while disconnected
 * (no offline queue: a request must not wait for Redis to come back) and the client keeps
 * reconnecting in the background; callers fall back while `isReady` is false.
 * Start-up does not wait for Redis either: the service serves with local fallbacks.
 *
 * The client is made unconnected: startRedis connects it once the app is built and the first
 * purge has run, since both can block the event loop for longer than the connect timeout.
 */
export function createRedis(url: string, logger: Logger): RedisClient {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000) },
  });
  // One line per outage (at most one every 30 s), without a stack: a refused connection is a
  // state to report, not a bug to trace. The first failure is retried before it is said: a
  // timeout met once may be this process's own stalled loop, not Redis.
  let lastWarning = -Infinity;
  let failures = 0;
  const unreachable = (error: unknown) => {
    failures += 1;
    if (failures === 1) return;
    if (Date.now() - lastWarning < 30_000) return;
    lastWarning = Date.now();
    logger.warn(
      { reason: error instanceof Error ? error.message : String(error) },
      'Redis unreachable: rate limits and log-in delays are counted per instance meanwhile; retrying in the background',
    );
  };
  client.on('error', unreachable);
  client.on('ready', () => {
    lastWarning = -Infinity; // the next outage is reported at once
    failures = 0;
    logger.info('Redis connected');
  });
  return client;
}

/** Starts connecting (and reconnecting in the background); nothing waits for it. */
export function startRedis(client: RedisClient): void {
  client.connect().catch((error: unknown) => client.emit('error', error));
}
