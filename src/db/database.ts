// Opens the database named by a URL: SQLite (embedded default) or PostgreSQL (production).
// Both use the same schema and a generated client each (decision 0002, note 13).
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { PrismaPg } from '@prisma/adapter-pg';
import type { SqlDriverAdapterFactory } from '@prisma/driver-adapter-utils';
import { PrismaClient } from '../generated/sqlite/client';
import { postgresHotQueries, sqliteHotQueries, type HotQueries } from './hot-queries';
import { postgresQuizReads, sqliteQuizReads, type QuizReads } from './quiz-reads';
import { dialectOf, type Dialect } from './dialect';
import { responseWrites, type ResponseWrites, type WriteHooks } from './response-writes';
import { postgresConnection, sqliteConnection } from './sql-connection';
import { createRepositories, type Repositories } from './repositories';
import { sqliteSnapshotCache } from './snapshot-cache';
import { applyMigrations, parseDatabaseUrl, type Provider } from './migrate';

export type { Provider };
type PostgresClientModule = typeof import('../generated/postgresql/client.js');
/** The PostgreSQL client has the same shape; the SQLite client's type stands for both. */
export type Db = PrismaClient;

export interface Database {
  /** What the domain uses: one repository per aggregate (repositories/). */
  repos: Repositories;
  /** The Prisma client itself, for the operator's tools and for tests that arrange rows. */
  prisma: Db;
  provider: Provider;
  /** What the raw SQL of this layer writes differently on this database (dialect.ts). */
  dialect: Dialect;
  url: string;
  /** Queries on every request's path, through the raw driver (hot-queries.ts). */
  hot: HotQueries;
  /** Quiz reads of every tool call, through the raw driver (quiz-reads.ts). */
  reads: QuizReads;
  /** Submissions, deletions and re-marks with the results' running figures (response-writes.ts). */
  writes: ResponseWrites;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** Apply pending migrations first (default true: idempotent and fast). */
  migrate?: boolean;
  /** PostgreSQL pool size (default 10). SQLite has one connection. */
  poolSize?: number;
  /** Points inside the results' writes where a test stops the process (response-writes.ts). */
  hooks?: WriteHooks;
}

/** How long a SQLite writer waits for another process's write lock before SQLITE_BUSY. */
const SQLITE_BUSY_TIMEOUT_MS = 10_000;

export async function openDatabase(url: string, options: OpenDatabaseOptions = {}): Promise<Database> {
  const { provider, target } = parseDatabaseUrl(url);
  if (provider === 'sqlite') {
    fs.mkdirSync(path.dirname(target), { recursive: true }); // SQLite does not create folders (decision 0002, note 15)
    // WAL lets readers run during a write; the mode is stored in the file, so set it once here.
    const raw = new BetterSqlite3(target, { timeout: SQLITE_BUSY_TIMEOUT_MS });
    try {
      raw.pragma('journal_mode = WAL');
    } finally {
      raw.close();
    }
  }
  if (options.migrate ?? true) await applyMigrations(url);

  if (provider === 'sqlite') {
    // better-sqlite3 enforces foreign keys by default (ON DELETE CASCADE relies on it; tested).
    // `timeout` is SQLite's busy_timeout: a writer waits up to 10 s for another process's write.
    const prisma = new PrismaClient({
      adapter: immediateTransactions(
        new PrismaBetterSqlite3({ url: target, timeout: SQLITE_BUSY_TIMEOUT_MS }),
      ),
    });
    // One read-only connection for the raw-driver reads, opened on first use.
    let reader: BetterSqlite3.Database | undefined;
    const openReader = () =>
      (reader ??= new BetterSqlite3(target, { readonly: true, timeout: SQLITE_BUSY_TIMEOUT_MS }));
    const readerConnection = () => {
      if (reader && !reader.open) throw new Error('The database connection is not open');
      return openReader();
    };
    // Both kinds of reads keep their results while no connection anywhere has written since.
    const snapshot = sqliteSnapshotCache(readerConnection);
    const hot = sqliteHotQueries(openReader, snapshot);
    const reads = sqliteQuizReads(readerConnection, snapshot);
    // One writing connection for the results' writes, opened on first use like the reader.
    const writes = responseWrites(
      sqliteConnection(() => new BetterSqlite3(target, { timeout: SQLITE_BUSY_TIMEOUT_MS })),
      options.hooks,
    );
    const dialect = dialectOf(provider);
    return {
      repos: createRepositories(prisma, { hot, reads, writes, dialect }),
      prisma,
      provider,
      dialect,
      url,
      hot,
      reads,
      writes,
      close: async () => {
        await hot.close();
        await writes.close();
        await prisma.$disconnect();
      },
    };
  }

  const pool = new pg.Pool({
    connectionString: target,
    max: options.poolSize ?? 10,
    // The wait for a connection, counting the time a request queues behind the pool's others:
    // long enough that a class submitting at once is served rather than refused, short enough
    // that an unreachable server answers "try again" instead of queueing requests forever (a
    // refused connection fails at once); the pool reconnects by itself once it answers again.
    connectionTimeoutMillis: 10_000,
    idleTimeoutMillis: 30_000,
    keepAlive: true,
  });
  // A connection dropped while idle is discarded by the pool; the next query reports any real outage.
  pool.on('error', () => undefined);
  // Loaded only when used: each generated client brings its own query compiler (tens of MB).
  // A lazy require: import() would need Jest's ESM mode.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const postgresClient = require('../generated/postgresql/client') as PostgresClientModule;
  const PostgresPrismaClient = postgresClient.PrismaClient;
  const prisma = new PostgresPrismaClient({ adapter: new PrismaPg(pool) }) as unknown as Db;
  const hot = postgresHotQueries(pool);
  const reads = postgresQuizReads(pool);
  const writes = responseWrites(postgresConnection(pool), options.hooks);
  const dialect = dialectOf(provider);
  return {
    repos: createRepositories(prisma, { hot, reads, writes, dialect }),
    prisma,
    provider,
    dialect,
    url,
    hot,
    reads,
    writes,
    close: async () => {
      await prisma.$disconnect();
      await pool.end(); // PrismaPg leaves a pool it was given open
    },
  };
}

/**
 * busy_timeout alone does not make writers from two processes wait: a transaction that reads
 * before it writes started as a plain (deferred) BEGIN, and SQLite answers its first write with
 * SQLITE_BUSY at once (Prisma P1008) when another process wrote meanwhile, since waiting could not
 * help its stale snapshot. BEGIN IMMEDIATE takes the write lock up front, so it waits (up to
 * busy_timeout) instead. adapter-better-sqlite3 7.10 hard-codes "BEGIN": rewrite that one statement.
 */
function immediateTransactions(factory: PrismaBetterSqlite3): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => {
      const adapter = await factory.connect();
      const db = (adapter as unknown as { client?: BetterSqlite3.Database }).client;
      if (typeof db?.prepare !== 'function') {
        throw new Error('Unexpected @prisma/adapter-better-sqlite3 internals: check the pinned version');
      }
      const prepare = db.prepare.bind(db);
      db.prepare = ((sql: string) => prepare(sql === 'BEGIN' ? 'BEGIN IMMEDIATE' : sql)) as typeof db.prepare;
      return adapter;
    },
  };
}

/** The URL with any password masked, for logs. */
export function describeDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (!parsed.password) return url; // keep file:./relative paths as written
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^:/@]*):[^@]*@/, '//$1:***@');
  }
}
