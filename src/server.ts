import http from 'node:http';
import net from 'node:net';
import type { Lifecycle } from './http/lifecycle';
import type { Express } from 'express';
import type { Logger } from './logger';

export interface ServerLimits {
  /** Whole request, headers and body, must arrive within this (slow-body clients). */
  requestTimeoutMs: number;
  /** Headers must arrive within this (slowloris). */
  headersTimeoutMs: number;
  /** Idle keep-alive connections are closed after this. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
};

export interface ShutdownTimes {
  /** How long everything is still served after SIGTERM, while readiness already fails. */
  drainMs: number;
  /** From SIGTERM to exit at the latest: requests still running then are cut off. */
  timeoutMs: number;
}

export interface RunningServer {
  server: http.Server;
  port: number;
  /**
   * Graceful stop: serve on for `drainMs` (readiness already fails), then stop accepting and
   * let every open connection end after its next complete response, or by the keep-alive
   * timeout when idle; at `timeoutMs` whatever still runs is cut off. Then `cleanup` (pools).
   */
  stop(times: ShutdownTimes & { lifecycle?: Lifecycle }, cleanup: () => Promise<unknown>): Promise<void>;
}

/**
 * A constructor for Node's server to make requests (or responses) with: it runs Node's own
 * constructor, `Base`, on an object whose prototype is this constructor's `prototype`, which
 * `serve(app)` sets to the Express app's `app.request` (or `app.response`) once the app exists.
 *
 * What it relies on, each checked by tests/http/server.test.ts:
 * - Node's IncomingMessage and ServerResponse are plain functions that can be applied to an
 *   object made elsewhere (`Base.apply(this, args)`), and the objects made so are still
 *   `instanceof` them, since Express's prototypes inherit from Node's;
 * - Express's app.handle gives every request and response the prototypes `app.request` and
 *   `app.response`; when they already have them, that assignment changes nothing.
 *
 * This is the one place where an object we make is handed to a library as its own type (the
 * cast in createHttpServer). Reflect.construct with a new.target would suit classes as well,
 * but made slower objects.
 */
function constructorWithSettablePrototype(Base: { apply(self: unknown, args: unknown[]): unknown }): {
  prototype: object;
} {
  function Made(this: object, ...args: unknown[]): void {
    Base.apply(this, args);
  }
  return Made;
}

/**
 * The HTTP server with the limits set, and `serve(app)` to give it the Express app.
 *
 * Express gives every request and response its app's prototype (Object.setPrototypeOf in
 * app.handle). Done to objects made with another prototype, that left 8-20 MB per
 * young-generation collection to copy and promote under load (a prototype change moves an object
 * to a slow, dictionary-backed shape; see docs/performance.md for the measured gain). Here the
 * server makes its requests and responses with the app's prototypes from the start, so
 * Express's assignment changes nothing.
 */
export function createHttpServer(limits: ServerLimits = DEFAULT_SERVER_LIMITS): {
  server: http.Server;
  serve(app: Express): void;
} {
  const Request = constructorWithSettablePrototype(http.IncomingMessage);
  const Response = constructorWithSettablePrototype(http.ServerResponse);
  // Timeouts are enforced on this interval (Node's default, 30 s, would let them overrun).
  const server = http.createServer({
    connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs),
    IncomingMessage: Request as unknown as typeof http.IncomingMessage,
    ServerResponse: Response as unknown as typeof http.ServerResponse,
  });
  // A slow or silent client cannot hold a connection (and its memory) for long.
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
  return {
    server,
    serve(app) {
      Request.prototype = app.request;
      Response.prototype = app.response;
      server.on('request', app);
    },
  };
}

export async function startServer(
  app: Express,
  options: { port: number; host: string; limits?: ServerLimits; logger: Logger },
): Promise<RunningServer> {
  const { server, serve } = createHttpServer(options.limits);
  serve(app);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;

  let stopping: Promise<void> | undefined;
  return {
    server,
    port,
    stop({ drainMs, timeoutMs, lifecycle }, cleanup) {
      lifecycle?.startDraining();
      stopping ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          options.logger.warn(
            { timeoutMs },
            'requests still running at the shutdown timeout; closing their connections',
          );
          server.closeAllConnections();
        }, timeoutMs);
        force.unref();
        const drained = setTimeout(
          () => {
            // Logged before closing begins: a response its client received before this line's
            // time was produced while draining (tests/ops/drain.test.ts reads it so).
            options.logger.info(
              'drain period over: closing the listener; each connection ends after its next answer',
            );
            lifecycle?.startClosing();
            // net.Server's close stops accepting and waits for open connections to end. http.Server's
            // own close would also destroy every idle keep-alive connection at once, and with it a
            // request the client is sending on one at that moment; here such a request is answered,
            // with Connection: close, and an idle connection ends by the keep-alive timeout.
            net.Server.prototype.close.call(server, () => {
              clearTimeout(force);
              cleanup()
                .catch((error: unknown) =>
                  options.logger.error({ err: error }, 'cleanup after shutdown failed'),
                )
                .finally(resolve);
            });
          },
          Math.min(drainMs, timeoutMs),
        );
        drained.unref();
      });
      return stopping;
    },
  };
}
