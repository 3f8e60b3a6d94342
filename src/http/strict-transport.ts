import type { RequestHandler } from 'express';

/** Six months, as the pages have always sent it. */
export const HSTS_MAX_AGE_SECONDS = 15_552_000;

/**
 * `Strict-Transport-Security` on every answer when the service is served over https (its
 * BASE_URL), not only on pages: a browser that first meets the service through /api/* or
 * /openapi.json learns to use https too. Over plain http it is never sent (browsers ignore it
 * there, and a development server on http must stay reachable).
 */
export function strictTransport(baseUrl: string): RequestHandler {
  const https = new URL(baseUrl).protocol === 'https:';
  const value = `max-age=${HSTS_MAX_AGE_SECONDS}`;
  return (_req, res, next) => {
    if (https) res.setHeader('Strict-Transport-Security', value);
    next();
  };
}
