import cluster from 'node:cluster';
import { appDepsOf, createApp, webhookWorkerOf } from './app';
import { scheduleTimeUps } from './domain/taking/saved-answers';
import { ConfigError, listenAddress, loadConfig, type Config } from './config';
import { applyMigrations } from './db/migrate';
import { describeDatabaseUrl, openDatabase } from './db/database';
import { setPasswordHashCost } from './domain/passwords';
import { purgeAndLog, schedulePurge } from './domain/purge-expired';
import { scheduleClosings } from './domain/webhooks/scheduled-closes';
import { createLifecycle } from './http/lifecycle';
import { clusterMetricsSource, gatherWorkerMetrics } from './http/cluster-metrics';
import { createMetrics } from './http/metrics';
import { createLogger, type Logger } from './logger';
import { createRedis, startRedis } from './redis';
import { ensureSessionSecret } from './session-secret';
import { startServer } from './server';
import { listenErrorMessage, startupBanner, wantsColour } from './startup-banner';

/** One serving process: database, Redis, app, HTTP server, graceful stop on SIGTERM. */
async function serve(config: Config, logger: Logger): Promise<void> {
  // With several workers the primary has migrated already.
  const database = await openDatabase(config.databaseUrl, {
    migrate: cluster.isPrimary,
    poolSize: config.databasePoolSize,
    // The crash test's stop: as abrupt as a power cut, with the transaction still open.
    ...(config.crashAfterClaim ? { hooks: { afterClaim: () => process.kill(process.pid, 'SIGKILL') } } : {}),
  });
  const redis = config.redisUrl ? createRedis(config.redisUrl, logger) : undefined;
  const lifecycle = createLifecycle();
  const metrics = createMetrics({ defaultMetrics: true });
  const app = createApp({
    config,
    database,
    logger,
    lifecycle,
    metrics,
    // A scrape lands on one worker: it answers the sum over all of them, gathered by the primary.
    ...(cluster.isWorker ? { metricsSource: clusterMetricsSource(metrics.registry) } : {}),
    ...(redis ? { redis } : {}),
  });
  // The first purge also has Prisma compile its three queries, which blocks the event loop:
  // done before the server accepts connections, not under load a while later.
  const retention = { deliveryRetentionDays: config.webhookDeliveryRetentionDays };
  await purgeAndLog(database.repos, logger, retention);
  // Connected only now: building the app and the first purge block the loop, which would spend
  // the connect timeout of a connection started before them (a healthy Redis reported unreachable).
  if (redis) startRedis(redis);
  const running = await startServer(app, { port: config.port, host: config.host, logger }).catch(
    async (error: unknown) => {
      await database.close();
      if (redis?.isOpen) await redis.close().catch(() => undefined);
      throw error;
    },
  );
  const purge = schedulePurge(database.repos, logger, retention);
  // Every instance looks for closing times passed; each closing's quiz.closed is written once.
  const closings = scheduleClosings(database.repos, logger);
  // Every instance submits timed attempts' saved answers at time-up; the claim keeps each to one response.
  const timeUps = scheduleTimeUps(appDepsOf(app), logger);
  // Every instance delivers webhooks; claims keep each delivery with one of them at a time.
  const webhooks = webhookWorkerOf(app);
  webhooks.start();
  logger.info(
    {
      url: config.baseUrl,
      listen: `${config.host}:${running.port}`,
      database: describeDatabaseUrl(config.databaseUrl),
      redis: Boolean(redis),
    },
    `quiz service listening: MCP endpoint ${config.baseUrl}/api/mcp`,
  );
  // One banner per machine: by the single process, or by the first of several workers.
  if (cluster.isPrimary || cluster.worker?.id === 1) {
    process.stderr.write(startupBanner(config, { colour: wantsColour(process.stderr, config) }));
  }
  const stop = (signal: string) => {
    logger.info(
      { signal, drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs },
      'shutting down: /readyz fails now; serving on until the drain period ends, then finishing requests in flight',
    );
    purge.stop();
    closings.stop();
    timeUps.stop();
    const webhooksStopped = webhooks.stop();
    void running
      .stop({ drainMs: config.shutdownDrainMs, timeoutMs: config.shutdownTimeoutMs, lifecycle }, () =>
        webhooksStopped.then(() =>
          Promise.all([database.close(), redis?.isOpen ? redis.close() : undefined]),
        ),
      )
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/** With WORKERS > 1: migrate once, then fork workers that share the port; replace any that dies. */
async function supervise(config: Config, logger: Logger): Promise<void> {
  await applyMigrations(config.databaseUrl);
  gatherWorkerMetrics();
  let stopping = false;
  for (let i = 0; i < config.workers; i += 1) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) {
      if (Object.keys(cluster.workers ?? {}).length === 0) process.exit(0);
      return;
    }
    logger.error({ pid: worker.process.pid, code, signal }, 'worker died; starting another');
    cluster.fork();
  });
  const stop = (signal: NodeJS.Signals) => {
    stopping = true;
    logger.info({ signal }, 'stopping workers');
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

async function main(): Promise<void> {
  const loaded = loadConfig();
  const config: Config = { ...loaded, sessionSecret: ensureSessionSecret(loaded.sessionSecret) };
  const logger = createLogger(config.logLevel);
  setPasswordHashCost(config.passwordHashCost);
  if (config.workers > 1 && cluster.isPrimary) await supervise(config, logger);
  else await serve(config, logger);
}

main().catch((error: unknown) => {
  const listen = error instanceof ConfigError ? undefined : listenErrorMessage(error, listenAddress());
  console.error(
    error instanceof ConfigError
      ? error.message
      : (listen ??
          `The quiz service could not start: ${error instanceof Error ? error.message : String(error)}`),
  );
  process.exit(1);
});
