import type { RequestHandler } from 'express';

/**
 * `X-Content-Type-Options: nosniff` on every answer, not only on pages: problem bodies and
 * JSON answers echo parts of the request (a path, a field), and a browser must never sniff
 * them into HTML or script.
 */
export function noSniff(): RequestHandler {
  return (_req, res, next) => {
    res.setHeader('X-Content-Type-Options', 'nosniff');
    next();
  };
}
