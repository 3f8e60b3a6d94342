import http from 'node:http';
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

export interface RunningServer {
  server: http.Server;
  port: number;
  /**
   * Graceful stop: no new connections, idle ones closed, requests in flight finish (up to
   * `graceMs`, then their connections are closed), then `cleanup` (pools) runs.
   */
  stop(graceMs: number, cleanup: () => Promise<unknown>): Promise<void>;
}

export async function startServer(
  app: Express,
  options: { port: number; host: string; limits?: ServerLimits; logger: Logger },
): Promise<RunningServer> {
  const limits = options.limits ?? DEFAULT_SERVER_LIMITS;
  // Timeouts are enforced on this interval (Node's default, 30 s, would let them overrun).
  const server = http.createServer(
    { connectionsCheckingInterval: Math.min(1_000, limits.headersTimeoutMs) },
    app,
  );
  // A slow or silent client cannot hold a connection (and its memory) for long.
  server.requestTimeout = limits.requestTimeoutMs;
  server.headersTimeout = limits.headersTimeoutMs;
  server.keepAliveTimeout = limits.keepAliveTimeoutMs;
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
    stop(graceMs, cleanup) {
      stopping ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          options.logger.warn(
            { graceMs },
            'requests still running after the grace period; closing their connections',
          );
          server.closeAllConnections();
        }, graceMs);
        force.unref();
        server.close(() => {
          clearTimeout(force);
          cleanup()
            .catch((error: unknown) => options.logger.error({ err: error }, 'cleanup after shutdown failed'))
            .finally(resolve);
        });
        // Keep-alive connections with no request in flight would otherwise hold close() open.
        server.closeIdleConnections();
      });
      return stopping;
    },
  };
}
