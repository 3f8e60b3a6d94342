import type { Router } from 'express';
import express from 'express';
import type { Lifecycle } from './lifecycle';
import type { RedisCommander } from './rate-limit-store';

const CHECK_TIMEOUT_MS = 1_000;

/** The probes' paths: load balancers call them by address, so the Host guard lets them through. */
const LIVENESS = '/healthz';
const READINESS = '/readyz';
export const PROBE_PATHS = [LIVENESS, READINESS];

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    promise,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('timed out')), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/**
 * GET /healthz: the process is up (liveness). GET /readyz: it can serve (readiness).
 * The database is required: without it /readyz answers 503. Redis is reported but does not
 * fail readiness: while it is away the service keeps working with per-instance rate-limit
 * counters (README "Limits"), and failing readiness would take every instance out of the
 * load balancer at once. `status` then says "degraded". While the instance drains before
 * stopping, /readyz answers 503 `draining` and /healthz still 200: it is alive, only leaving.
 */
export function healthRouter(options: {
  /** Answers when the database does. */
  database: { ping(): Promise<void> };
  redis?: RedisCommander | undefined;
  lifecycle?: Lifecycle;
}): Router {
  const router = express.Router();
  router.get(LIVENESS, (_req, res) => {
    res.set('Cache-Control', 'no-store').json({ status: 'ok' });
  });
  router.get(READINESS, async (_req, res) => {
    // Shutting down: out of the load balancer at once, whatever the checks would say.
    if (options.lifecycle?.draining) {
      res.status(503).set('Cache-Control', 'no-store').json({ status: 'draining', checks: {} });
      return;
    }
    const database = await withTimeout(options.database.ping(), CHECK_TIMEOUT_MS).then(
      () => 'ok' as const,
      () => 'unavailable' as const,
    );
    const checks: Record<string, 'ok' | 'unavailable'> = { database };
    if (options.redis) {
      const redis = options.redis;
      checks.redis = redis.isReady
        ? await withTimeout(redis.sendCommand(['PING']), CHECK_TIMEOUT_MS).then(
            () => 'ok' as const,
            () => 'unavailable' as const,
          )
        : 'unavailable';
    }
    const ready = database === 'ok';
    const status = !ready
      ? 'unavailable'
      : Object.values(checks).every((c) => c === 'ok')
        ? 'ready'
        : 'degraded';
    res
      .status(ready ? 200 : 503)
      .set('Cache-Control', 'no-store')
      .json({ status, checks });
  });
  return router;
}
