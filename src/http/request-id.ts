import { randomUUID } from 'node:crypto';
import type { RequestHandler } from 'express';

const ACCEPTABLE = /^[A-Za-z0-9._:-]{8,128}$/;

/** Every response carries X-Request-Id; a well-formed id from a proxy in front is kept. */
export function requestId(): RequestHandler {
  return (req, res, next) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && ACCEPTABLE.test(incoming) ? incoming : randomUUID();
    res.locals.requestId = id;
    res.setHeader('X-Request-Id', id);
    next();
  };
}
