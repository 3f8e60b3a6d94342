import type { RequestHandler } from 'express';

/**
 * Where this instance is on its way out, for a rolling restart without lost requests:
 * 1. `draining`, from SIGTERM: readiness fails at once so the load balancer stops sending new
 *    work, while everything is still served as before (keep-alive connections stay open, so
 *    clients do not open new connections that could meet a closing listener);
 * 2. `closing`, once the listener has closed: every response asks its client to close the
 *    connection, so each connection ends after a complete answer, never in the middle of one.
 */
export interface Lifecycle {
  readonly draining: boolean;
  readonly closing: boolean;
  startDraining(): void;
  startClosing(): void;
}

export function createLifecycle(): Lifecycle {
  let draining = false;
  let closing = false;
  return {
    get draining() {
      return draining;
    },
    get closing() {
      return closing;
    },
    startDraining() {
      draining = true;
    },
    startClosing() {
      draining = true;
      closing = true;
    },
  };
}

/** `Connection: close` on every response once the listener has closed. */
export function closeConnectionsWhenClosing(lifecycle: Lifecycle): RequestHandler {
  return (_req, res, next) => {
    if (lifecycle.closing) res.setHeader('Connection', 'close');
    next();
  };
}
