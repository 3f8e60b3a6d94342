import type { Request, RequestHandler, Response } from 'express';

/**
 * Runs handlers in order, as a route's stack would: next(error) stops it, and a rejected
 * promise is an error. Used where Express's router would only add per-layer work on every
 * request: the middlewares every request passes, and the MCP endpoint's own guards.
 */
export function runChain(
  handlers: readonly RequestHandler[],
  req: Request,
  res: Response,
  done: (error?: unknown) => void,
): void {
  let index = 0;
  const next = (error?: unknown): void => {
    if (error !== undefined && error !== null) {
      done(error);
      return;
    }
    const handler = handlers[index++];
    if (!handler) {
      done();
      return;
    }
    try {
      const result: unknown = handler(req, res, next);
      if (result instanceof Promise) result.catch(next);
    } catch (thrown) {
      next(thrown);
    }
  };
  next();
}

/** Several middlewares as one: a single layer in Express's router instead of one each. */
export function chain(handlers: readonly RequestHandler[]): RequestHandler {
  return (req, res, next) => runChain(handlers, req, res, next);
}
