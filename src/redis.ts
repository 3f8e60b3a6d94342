import { createClient } from 'redis';
import type { Logger } from './logger';

export type RedisClient = ReturnType<typeof createClient>;

/**
 * A Redis client for shared state (REDIS_URL). Commands fail at once while disconnected
 * (no offline queue: a request must not wait for Redis to come back) and the client keeps
 * reconnecting in the background; callers fall back while `isReady` is false.
 * Start-up does not wait for Redis either: the service serves with local fallbacks.
 */
export function createRedis(url: string, logger: Logger): RedisClient {
  const client = createClient({
    url,
    disableOfflineQueue: true,
    socket: { connectTimeout: 2_000, reconnectStrategy: (retries) => Math.min(100 * 2 ** retries, 2_000) },
  });
  let lastWarning = 0;
  client.on('error', (error: unknown) => {
    if (Date.now() - lastWarning > 30_000) {
      lastWarning = Date.now();
      logger.warn({ err: error }, 'Redis connection problem; retrying in the background');
    }
  });
  client.on('ready', () => logger.info('Redis connected'));
  client.connect().catch((error: unknown) => logger.warn({ err: error }, 'Redis not reachable at start-up'));
  return client;
}
