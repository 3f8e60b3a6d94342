import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import type { PrismaClient } from '../generated/sqlite/client';
import { pgTypes, readDate } from './dialect';
import { NO_SNAPSHOT_CACHE, type SnapshotCache } from './snapshot-cache';

/**
 * The few queries on every request's path, sent through the raw driver instead of Prisma's
 * query compiler (docs/decisions/0003-raw-sql-on-the-request-path.md); `prismaHotQueries` at
 * the end is the same contract through Prisma, the reference the contract suite compares with.
 * They ask the database every time (on SQLite, whether anything changed since the last
 * answer: db/snapshot-cache.ts), so nothing here can outlive a revocation.
 */
export interface ApiKeyRow {
  id: string;
  userId: string;
  revokedAt: Date | null;
  lastUsedAt: Date | null;
}

/** An OAuth access token with its grant's state: revoking the grant ends it at once. */
export interface OAuthAccessTokenRow {
  id: string;
  userId: string;
  clientId: string;
  grantId: string;
  scope: string;
  resource: string;
  accessExpiresAt: Date;
  revokedAt: Date | null;
  grantRevokedAt: Date | null;
  grantLastUsedAt: Date | null;
}

/**
 * One statement for both drivers. Its dates are read as every raw read of this layer reads them
 * (dialect.ts): ISO text on SQLite, `pgTypes` on PostgreSQL, whatever the process's time zone
 * (the expiry comparison depends on it).
 */
function oauthAccessTokenSql(param: string): string {
  return (
    `SELECT t."id", t."userId", t."clientId", t."grantId", t."scope", t."resource", ` +
    `t."accessExpiresAt", t."revokedAt", g."revokedAt" AS "grantRevokedAt", g."lastUsedAt" AS "grantLastUsedAt" ` +
    `FROM "oauth_tokens" t JOIN "oauth_grants" g ON g."id" = t."grantId" WHERE t."accessTokenHash" = ${param}`
  );
}

export interface HotQueries {
  apiKeyByHash(keyHash: string): Promise<ApiKeyRow | null>;
  oauthAccessTokenByHash(tokenHash: string): Promise<OAuthAccessTokenRow | null>;
  /** Cheap round trip for readiness checks. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

const toDate = readDate;

/**
 * A read-only connection of its own (in WAL mode it never waits for a writer), opened on first
 * use: the database may be opened before it is migrated, and the schema engine refuses to
 * migrate while another connection is open.
 */
export function sqliteHotQueries(
  open: () => BetterSqlite3.Database,
  snapshot: SnapshotCache = NO_SNAPSHOT_CACHE,
): HotQueries {
  type Row = { id: string; userId: string; revokedAt: string | null; lastUsedAt: string | null };
  let db: BetterSqlite3.Database | undefined;
  let byHash: BetterSqlite3.Statement<[string], Row> | undefined;
  let ping: BetterSqlite3.Statement | undefined;
  let tokenByHash: BetterSqlite3.Statement<[string], Record<string, string | null>> | undefined;
  let closed = false;
  const connection = () => {
    if (closed) throw new Error('The database connection is not open');
    return (db ??= open());
  };
  return {
    async apiKeyByHash(keyHash) {
      return snapshot.read(`k\0${keyHash}`, () => {
        byHash ??= connection().prepare<[string], Row>(
          'SELECT id, userId, revokedAt, lastUsedAt FROM api_keys WHERE keyHash = ?',
        );
        const row = byHash.get(keyHash);
        return row
          ? {
              id: row.id,
              userId: row.userId,
              revokedAt: toDate(row.revokedAt),
              lastUsedAt: toDate(row.lastUsedAt),
            }
          : null;
      });
    },
    async oauthAccessTokenByHash(tokenHash) {
      return snapshot.read(`t\0${tokenHash}`, () => {
        tokenByHash ??= connection().prepare(oauthAccessTokenSql('?'));
        const row = tokenByHash.get(tokenHash);
        if (!row) return null;
        return {
          id: row.id!,
          userId: row.userId!,
          clientId: row.clientId!,
          grantId: row.grantId!,
          scope: row.scope!,
          resource: row.resource!,
          accessExpiresAt: toDate(row.accessExpiresAt)!,
          revokedAt: toDate(row.revokedAt),
          grantRevokedAt: toDate(row.grantRevokedAt),
          grantLastUsedAt: toDate(row.grantLastUsedAt),
        };
      });
    },
    async ping() {
      ping ??= connection().prepare('SELECT 1');
      ping.get();
    },
    async close() {
      closed = true;
      db?.close();
    },
  };
}

export function postgresHotQueries(pool: pg.Pool): HotQueries {
  return {
    async apiKeyByHash(keyHash) {
      const result = await pool.query<ApiKeyRow>({
        name: 'api_key_by_hash',
        text: `SELECT "id", "userId", "revokedAt", "lastUsedAt" FROM "api_keys" WHERE "keyHash" = $1`,
        values: [keyHash],
        types: pgTypes,
      });
      return result.rows[0] ?? null;
    },
    async oauthAccessTokenByHash(tokenHash) {
      const result = await pool.query<OAuthAccessTokenRow>({
        name: 'oauth_access_token_by_hash',
        text: oauthAccessTokenSql('$1'),
        values: [tokenHash],
        types: pgTypes,
      });
      return result.rows[0] ?? null;
    },
    async ping() {
      await pool.query('SELECT 1');
    },
    async close() {
      // The pool belongs to the Database and is ended there.
    },
  };
}

/** The same lookups through Prisma: the readable reference for the raw versions above. */
export function prismaHotQueries(db: PrismaClient): HotQueries {
  return {
    async apiKeyByHash(keyHash) {
      return db.apiKey.findUnique({
        where: { keyHash },
        select: { id: true, userId: true, revokedAt: true, lastUsedAt: true },
      });
    },
    async oauthAccessTokenByHash(tokenHash) {
      const token = await db.oAuthToken.findUnique({
        where: { accessTokenHash: tokenHash },
        include: { grant: { select: { revokedAt: true, lastUsedAt: true } } },
      });
      if (!token) return null;
      return {
        id: token.id,
        userId: token.userId,
        clientId: token.clientId,
        grantId: token.grantId,
        scope: token.scope,
        resource: token.resource,
        accessExpiresAt: token.accessExpiresAt,
        revokedAt: token.revokedAt,
        grantRevokedAt: token.grant.revokedAt,
        grantLastUsedAt: token.grant.lastUsedAt,
      };
    },
    async ping() {
      await db.$queryRaw`SELECT 1`;
    },
    async close() {
      // The client belongs to the Database and is disconnected there.
    },
  };
}
