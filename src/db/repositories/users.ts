import type { PrismaClient } from '../../generated/sqlite/client';
import { isUniqueViolation } from '../errors';
import type { ApiKeyRow, HotQueries } from '../hot-queries';
import { WRITE_TRANSACTION_OPTIONS } from './transactions';
import { lastUsedBefore } from './where';

/**
 * Users and their credentials: accounts, dashboard sessions and API keys. Rows in, rows out:
 * the rules (password strength, hashing, the ten-key limit's wording) live in the domain.
 */
export interface UserRow {
  id: string;
  email: string;
  passwordHash: string;
  /** IANA zone the account reads and writes times in. */
  timeZone: string;
  createdAt: Date;
}

export interface SessionRow {
  id: string;
  userId: string;
  /** The account's email, read with the session so pages can show it without a second query. */
  email: string;
  /** The account's time zone, read with the session for the same reason. */
  timeZone: string;
  tokenHash: string;
  csrfToken: string;
  createdAt: Date;
  expiresAt: Date;
  lastSeenAt: Date;
}

export interface NewSessionRow {
  userId: string;
  tokenHash: string;
  csrfToken: string;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

export interface ApiKeyListing {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}

export interface NewApiKeyRow {
  name: string;
  keyHash: string;
  prefix: string;
  last4: string;
}

export interface UserRepository {
  /** The new user, or null when the email is already registered. */
  create(email: string, passwordHash: string): Promise<UserRow | null>;
  byEmail(email: string): Promise<UserRow | null>;
  byId(id: string): Promise<UserRow | null>;
  /**
   * Stores a new password hash and, in the same transaction, ends the user's sessions (all of
   * them, or all but `keepSessionId`). Returns how many sessions ended.
   */
  replacePasswordHash(userId: string, passwordHash: string, keepSessionId?: string): Promise<number>;
  /**
   * The same password hashed again under other parameters: stored only while the hash is still
   * `previousHash` (a password changed meanwhile stays changed); sessions stay. False when not stored.
   */
  rehashPassword(userId: string, previousHash: string, passwordHash: string): Promise<boolean>;
  /** False when there is no such user. */
  setTimeZone(userId: string, timeZone: string): Promise<boolean>;
  /** Removes the user; the foreign keys take everything the account owns with it. */
  delete(userId: string): Promise<void>;

  createSession(row: NewSessionRow): Promise<SessionRow>;
  sessionByTokenHash(tokenHash: string): Promise<SessionRow | null>;
  touchSession(sessionId: string, lastSeenAt: Date, expiresAt: Date): Promise<void>;
  deleteSession(sessionId: string): Promise<void>;
  deleteSessionByTokenHash(tokenHash: string): Promise<void>;
  /** True while the session exists and has not expired at `now`. */
  sessionActive(sessionId: string, now: Date): Promise<boolean>;
  /** Removes sessions expired at `now`: one user's, or everyone's. Returns how many went. */
  deleteExpiredSessions(now: Date, userId?: string): Promise<number>;

  /**
   * Creates a key once `allow(activeKeys)` returns without throwing. Creations for one user run
   * one after another, so the count `allow` sees cannot go stale before the insert.
   */
  createApiKey(
    userId: string,
    row: NewApiKeyRow,
    allow: (activeKeys: number) => void,
  ): Promise<ApiKeyListing>;
  activeApiKeys(userId: string): Promise<ApiKeyListing[]>;
  activeApiKeyCount(userId: string): Promise<number>;
  /** False when the user has no such active key. */
  revokeApiKey(userId: string, keyId: string, at: Date): Promise<boolean>;
  /** True while the key exists and is not revoked. */
  apiKeyActive(keyId: string): Promise<boolean>;
  /** Every request with an API key asks this: through the raw driver (hot-queries.ts). */
  apiKeyByHash(keyHash: string): Promise<ApiKeyRow | null>;
  /** Writes `lastUsedAt` unless it was written less than `intervalMs` before `at`. */
  recordApiKeyUse(keyId: string, at: Date, intervalMs: number): Promise<void>;
}

const withEmail = { user: { select: { email: true, timeZone: true } } } as const;

function sessionRow<T extends { user: { email: string; timeZone: string } }>({ user, ...row }: T) {
  return { ...row, email: user.email, timeZone: user.timeZone };
}

const keyListing = {
  id: true,
  name: true,
  prefix: true,
  last4: true,
  createdAt: true,
  lastUsedAt: true,
} as const;

export function prismaUserRepository(
  db: PrismaClient,
  hot: Pick<HotQueries, 'apiKeyByHash'>,
): UserRepository {
  const userColumns = { id: true, email: true, passwordHash: true, timeZone: true, createdAt: true } as const;
  return {
    async create(email, passwordHash) {
      try {
        return await db.user.create({ data: { email, passwordHash }, select: userColumns });
      } catch (error) {
        if (isUniqueViolation(error)) return null;
        throw error;
      }
    },
    byEmail: (email) => db.user.findUnique({ where: { email }, select: userColumns }),
    byId: (id) => db.user.findUnique({ where: { id }, select: userColumns }),
    replacePasswordHash(userId, passwordHash, keepSessionId) {
      return db.$transaction(async (tx) => {
        await tx.user.update({ where: { id: userId }, data: { passwordHash } });
        const ended = await tx.session.deleteMany({
          where: { userId, ...(keepSessionId ? { id: { not: keepSessionId } } : {}) },
        });
        return ended.count;
      }, WRITE_TRANSACTION_OPTIONS);
    },
    async rehashPassword(userId, previousHash, passwordHash) {
      const { count } = await db.user.updateMany({
        where: { id: userId, passwordHash: previousHash },
        data: { passwordHash },
      });
      return count === 1;
    },
    async setTimeZone(userId, timeZone) {
      const { count } = await db.user.updateMany({ where: { id: userId }, data: { timeZone } });
      return count > 0;
    },
    async delete(userId) {
      await db.user.delete({ where: { id: userId } });
    },

    async createSession(row) {
      return sessionRow(await db.session.create({ data: row, include: withEmail }));
    },
    async sessionByTokenHash(tokenHash) {
      const row = await db.session.findUnique({ where: { tokenHash }, include: withEmail });
      return row ? sessionRow(row) : null;
    },
    async touchSession(sessionId, lastSeenAt, expiresAt) {
      await db.session.updateMany({ where: { id: sessionId }, data: { lastSeenAt, expiresAt } });
    },
    async deleteSession(sessionId) {
      await db.session.deleteMany({ where: { id: sessionId } });
    },
    async deleteSessionByTokenHash(tokenHash) {
      await db.session.deleteMany({ where: { tokenHash } });
    },
    async sessionActive(sessionId, now) {
      return (await db.session.count({ where: { id: sessionId, expiresAt: { gt: now } } })) > 0;
    },
    async deleteExpiredSessions(now, userId) {
      const where = { expiresAt: { lte: now }, ...(userId ? { userId } : {}) };
      return (await db.session.deleteMany({ where })).count;
    },

    createApiKey(userId, row, allow) {
      return db.$transaction(async (tx) => {
        // Bumping the user's row first serialises key creations per user (a row lock on
        // PostgreSQL, the write lock on SQLite), on any number of instances.
        await tx.user.update({ where: { id: userId }, data: { keySeq: { increment: 1 } } });
        allow(await tx.apiKey.count({ where: { userId, revokedAt: null } }));
        return tx.apiKey.create({ data: { userId, ...row }, select: keyListing });
      }, WRITE_TRANSACTION_OPTIONS);
    },
    activeApiKeys: (userId) =>
      db.apiKey.findMany({
        where: { userId, revokedAt: null },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: keyListing,
      }),
    activeApiKeyCount: (userId) => db.apiKey.count({ where: { userId, revokedAt: null } }),
    async revokeApiKey(userId, keyId, at) {
      const result = await db.apiKey.updateMany({
        where: { id: keyId, userId, revokedAt: null },
        data: { revokedAt: at },
      });
      return result.count > 0;
    },
    async apiKeyActive(keyId) {
      return (await db.apiKey.count({ where: { id: keyId, revokedAt: null } })) > 0;
    },
    apiKeyByHash: (keyHash) => hot.apiKeyByHash(keyHash),
    async recordApiKeyUse(keyId, at, intervalMs) {
      await db.apiKey.updateMany({
        where: { id: keyId, ...lastUsedBefore(at, intervalMs) },
        data: { lastUsedAt: at },
      });
    },
  };
}
