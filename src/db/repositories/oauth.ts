import type { PrismaClient } from '../../generated/sqlite/client';
import { isUniqueViolation } from '../errors';
import type { HotQueries, OAuthAccessTokenRow } from '../hot-queries';
import { WRITE_TRANSACTION_OPTIONS } from './transactions';
import { lastUsedBefore } from './where';

/**
 * The authorization server's records: clients, grants (a person's approval of a client), the
 * authorization codes and the token rows issued under them. Secrets arrive here hashed.
 */
export interface OAuthClientRow {
  id: string;
  source: string;
  name: string | null;
  /** JSON array. */
  redirectUris: string;
  /** JSON array. */
  grantTypes: string;
  tokenEndpointAuthMethod: string;
  /** The method was named at registration, not defaulted. */
  authMethodDeclared: boolean;
  secretHash: string | null;
  /** Space-separated; null: every supported scope. */
  scope: string | null;
  createdAt: Date;
}

export type OAuthClientColumns = Omit<OAuthClientRow, 'id' | 'source' | 'createdAt'>;

export interface GrantListing {
  id: string;
  clientId: string;
  clientName: string | null;
  clientSource: string;
  redirectUri: string;
  scope: string;
  createdAt: Date;
  approvedAt: Date;
  lastUsedAt: Date | null;
}

export interface NewCodeRow {
  codeHash: string;
  grantId: string;
  clientId: string;
  userId: string;
  redirectUri: string | null;
  scope: string;
  resource: string;
  codeChallenge: string;
  codeChallengeMethod: string;
  expiresAt: Date;
}

export interface CodeRow extends Omit<NewCodeRow, 'codeHash'> {
  id: string;
  consumedAt: Date | null;
  grantRevokedAt: Date | null;
}

export interface NewTokenRow {
  accessTokenHash: string;
  refreshTokenHash: string | null;
  grantId: string;
  clientId: string;
  userId: string;
  familyId: string;
  parentId: string | null;
  scope: string;
  resource: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date | null;
}

export type RefreshClaim = 'rotated' | 'retry' | 'reuse';

export interface RefreshTokenRow {
  id: string;
  grantId: string;
  clientId: string;
  userId: string;
  familyId: string;
  scope: string;
  resource: string;
  refreshExpiresAt: Date | null;
  refreshRetiredAt: Date | null;
  revokedAt: Date | null;
  grantRevokedAt: Date | null;
}

export interface TokenIdentity {
  id: string;
  clientId: string;
  familyId: string;
}

export interface OAuthRepository {
  clientById(id: string): Promise<OAuthClientRow | null>;
  createClient(row: OAuthClientColumns & { id: string; source: string }): Promise<OAuthClientRow>;
  /** Creates or refreshes a client known by its metadata document's URL. */
  saveClient(id: string, source: string, columns: OAuthClientColumns): Promise<OAuthClientRow>;

  /**
   * The user's active grant for a client, created (with `scope`) or found; its redirect URI
   * and approval time are set either way. Two simultaneous approvals meet in one row.
   */
  upsertActiveGrant(input: {
    userId: string;
    clientId: string;
    scope: string;
    redirectUri: string;
    approvedAt: Date;
  }): Promise<{ id: string; scope: string }>;
  setGrantScope(grantId: string, scope: string): Promise<void>;
  /**
   * The user's active grants, newest approval first; with `holdingTokenAt`, only those under
   * which a token not revoked is still usable at that time (the client exchanged its code).
   */
  activeGrants(userId: string, holdingTokenAt?: Date): Promise<GrantListing[]>;
  activeGrantCount(userId: string, holdingTokenAt?: Date): Promise<number>;
  /**
   * Revokes the user's grant and, in the same transaction, every token and unused code issued
   * under it. False when there is no such active grant.
   */
  revokeGrant(userId: string, grantId: string, at: Date): Promise<boolean>;
  /** True while the grant exists and is not revoked. */
  grantActive(grantId: string): Promise<boolean>;
  /** Writes `lastUsedAt` unless it was written less than `intervalMs` before `at`. */
  recordGrantUse(grantId: string, at: Date, intervalMs: number): Promise<void>;

  createCode(row: NewCodeRow): Promise<void>;
  codeByHash(codeHash: string): Promise<CodeRow | null>;
  /** True for exactly one caller per code: one conditional update. */
  consumeCode(codeId: string, at: Date): Promise<boolean>;
  markCodeReplayed(codeId: string, at: Date): Promise<void>;
  /** True when the code was replayed, or is gone with its grant. */
  codeReplayed(codeId: string): Promise<boolean>;

  createTokens(row: NewTokenRow): Promise<string>;
  refreshTokenByHash(refreshTokenHash: string): Promise<RefreshTokenRow | null>;
  /** Every request with an access token asks this: through the raw driver (hot-queries.ts). */
  accessTokenByHash(accessTokenHash: string): Promise<OAuthAccessTokenRow | null>;
  tokenByAccessHash(hash: string): Promise<TokenIdentity | null>;
  tokenByRefreshHash(hash: string): Promise<TokenIdentity | null>;
  /**
   * Decides, in one conditional write each, what presenting this row's refresh token is:
   * - `rotated`, its first exchange: it retires the token it replaced and that one's other
   *   replacements;
   * - `retry`, the one more exchange allowed if the first was at or after `retrySince`: it
   *   revokes the replacements the first exchange issued that were never used;
   * - `reuse`, anything else (changes nothing here: the caller revokes the grant).
   */
  claimRefresh(tokenId: string, at: Date, retrySince: Date): Promise<RefreshClaim>;
  /** True when this row's refresh token may no longer be exchanged (or the row is gone). */
  refreshRetired(tokenId: string): Promise<boolean>;
  revokeFamily(familyId: string, at: Date): Promise<void>;
  revokeToken(tokenId: string, at: Date): Promise<void>;

  /**
   * Removes codes that expired before `codesBefore`, and token rows whose every token expired
   * before `tokensBefore`; expired short marks go too, uncounted.
   */
  deleteExpired(codesBefore: Date, tokensBefore: Date): Promise<{ codes: number; tokens: number }>;

  /**
   * Short marks (approvals' used requestStates, what a client declared): `claimMark` sets the
   * mark only if no live one holds the key and says whether it did, so two instances claim it
   * once; `putMark` sets or renews it; `hasMark` reads a live one.
   */
  claimMark(key: string, expiresAt: Date, now: Date): Promise<boolean>;
  putMark(key: string, expiresAt: Date): Promise<void>;
  hasMark(key: string, now: Date): Promise<boolean>;
}

const identity = { id: true, clientId: true, familyId: true } as const;

const activeGrantsWhere = (userId: string, holdingTokenAt: Date | undefined) => ({
  userId,
  revokedAt: null,
  ...(holdingTokenAt
    ? {
        tokens: {
          some: {
            revokedAt: null,
            OR: [{ accessExpiresAt: { gt: holdingTokenAt } }, { refreshExpiresAt: { gt: holdingTokenAt } }],
          },
        },
      }
    : {}),
});

export function prismaOAuthRepository(
  db: PrismaClient,
  hot: Pick<HotQueries, 'oauthAccessTokenByHash'>,
): OAuthRepository {
  return { ...clientAndGrantMethods(db), ...codeMethods(db), ...tokenMethods(db, hot), ...markMethods(db) };
}

function markMethods(db: PrismaClient): Pick<OAuthRepository, 'claimMark' | 'putMark' | 'hasMark'> {
  return {
    async claimMark(key, expiresAt, now) {
      // An expired mark no longer holds its key (the purge may not have run yet).
      await db.shortMark.deleteMany({ where: { key, expiresAt: { lte: now } } });
      try {
        await db.shortMark.create({ data: { key, expiresAt } });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    async putMark(key, expiresAt) {
      await db.shortMark.upsert({ where: { key }, create: { key, expiresAt }, update: { expiresAt } });
    },
    async hasMark(key, now) {
      return (await db.shortMark.count({ where: { key, expiresAt: { gt: now } } })) > 0;
    },
  };
}

/** Registered clients, and the grants a user gave them. */
function clientAndGrantMethods(
  db: PrismaClient,
): Pick<
  OAuthRepository,
  | 'clientById'
  | 'createClient'
  | 'saveClient'
  | 'upsertActiveGrant'
  | 'setGrantScope'
  | 'activeGrants'
  | 'activeGrantCount'
  | 'grantActive'
  | 'revokeGrant'
  | 'recordGrantUse'
> {
  return {
    clientById: (id) => db.oAuthClient.findUnique({ where: { id } }),
    createClient: (row) => db.oAuthClient.create({ data: row }),
    saveClient: (id, source, columns) =>
      db.oAuthClient.upsert({ where: { id }, create: { id, source, ...columns }, update: columns }),

    async upsertActiveGrant({ userId, clientId, scope, redirectUri, approvedAt }) {
      const activeKey = `${userId} ${clientId}`;
      return db.oAuthGrant.upsert({
        where: { activeKey },
        create: { userId, clientId, scope, redirectUri, activeKey, approvedAt },
        update: { redirectUri, approvedAt },
        select: { id: true, scope: true },
      });
    },
    async setGrantScope(grantId, scope) {
      await db.oAuthGrant.update({ where: { id: grantId }, data: { scope } });
    },
    async activeGrants(userId, holdingTokenAt) {
      const rows = await db.oAuthGrant.findMany({
        where: activeGrantsWhere(userId, holdingTokenAt),
        include: { client: { select: { name: true, source: true } } },
        orderBy: [{ approvedAt: 'desc' }, { id: 'desc' }],
      });
      return rows.map((row) => ({
        id: row.id,
        clientId: row.clientId,
        clientName: row.client.name,
        clientSource: row.client.source,
        redirectUri: row.redirectUri,
        scope: row.scope,
        createdAt: row.createdAt,
        approvedAt: row.approvedAt,
        lastUsedAt: row.lastUsedAt,
      }));
    },
    activeGrantCount: (userId, holdingTokenAt) =>
      db.oAuthGrant.count({ where: activeGrantsWhere(userId, holdingTokenAt) }),
    async grantActive(grantId) {
      return (await db.oAuthGrant.count({ where: { id: grantId, revokedAt: null } })) > 0;
    },
    revokeGrant(userId, grantId, at) {
      return db.$transaction(async (tx) => {
        const result = await tx.oAuthGrant.updateMany({
          where: { id: grantId, userId, revokedAt: null },
          data: { revokedAt: at, activeKey: null },
        });
        if (result.count === 0) return false;
        await tx.oAuthToken.updateMany({ where: { grantId, revokedAt: null }, data: { revokedAt: at } });
        await tx.oAuthAuthorizationCode.updateMany({
          where: { grantId, consumedAt: null },
          data: { consumedAt: at },
        });
        return true;
      }, WRITE_TRANSACTION_OPTIONS);
    },
    async recordGrantUse(grantId, at, intervalMs) {
      await db.oAuthGrant.updateMany({
        where: { id: grantId, ...lastUsedBefore(at, intervalMs) },
        data: { lastUsedAt: at },
      });
    },
  };
}

/** Authorization codes: stored by hash, used once, a replay marked. */
function codeMethods(
  db: PrismaClient,
): Pick<OAuthRepository, 'createCode' | 'codeByHash' | 'consumeCode' | 'markCodeReplayed' | 'codeReplayed'> {
  return {
    async createCode(row) {
      await db.oAuthAuthorizationCode.create({ data: row });
    },
    async codeByHash(codeHash) {
      const row = await db.oAuthAuthorizationCode.findUnique({
        where: { codeHash },
        include: { grant: { select: { revokedAt: true } } },
      });
      if (!row) return null;
      const { grant, codeHash: _hash, replayedAt: _replayed, createdAt: _created, ...fields } = row;
      return { ...fields, grantRevokedAt: grant.revokedAt };
    },
    async consumeCode(codeId, at) {
      const result = await db.oAuthAuthorizationCode.updateMany({
        where: { id: codeId, consumedAt: null },
        data: { consumedAt: at },
      });
      return result.count === 1;
    },
    async markCodeReplayed(codeId, at) {
      await db.oAuthAuthorizationCode.updateMany({
        where: { id: codeId, replayedAt: null },
        data: { replayedAt: at },
      });
    },
    async codeReplayed(codeId) {
      const row = await db.oAuthAuthorizationCode.findUnique({
        where: { id: codeId },
        select: { replayedAt: true },
      });
      return !row || row.replayedAt !== null;
    },
  };
}

/** Access and refresh tokens: stored by hash, refreshed once per family, revoked, expired ones deleted. */
function tokenMethods(
  db: PrismaClient,
  hot: Pick<HotQueries, 'oauthAccessTokenByHash'>,
): Pick<
  OAuthRepository,
  | 'createTokens'
  | 'refreshTokenByHash'
  | 'accessTokenByHash'
  | 'tokenByAccessHash'
  | 'tokenByRefreshHash'
  | 'claimRefresh'
  | 'refreshRetired'
  | 'revokeFamily'
  | 'revokeToken'
  | 'deleteExpired'
> {
  return {
    async createTokens(row) {
      return (await db.oAuthToken.create({ data: row, select: { id: true } })).id;
    },
    async refreshTokenByHash(refreshTokenHash) {
      const row = await db.oAuthToken.findUnique({
        where: { refreshTokenHash },
        include: { grant: { select: { revokedAt: true } } },
      });
      if (!row) return null;
      return {
        id: row.id,
        grantId: row.grantId,
        clientId: row.clientId,
        userId: row.userId,
        familyId: row.familyId,
        scope: row.scope,
        resource: row.resource,
        refreshExpiresAt: row.refreshExpiresAt,
        refreshRetiredAt: row.refreshRetiredAt,
        revokedAt: row.revokedAt,
        grantRevokedAt: row.grant.revokedAt,
      };
    },
    accessTokenByHash: (hash) => hot.oauthAccessTokenByHash(hash),
    tokenByAccessHash: (hash) =>
      db.oAuthToken.findUnique({ where: { accessTokenHash: hash }, select: identity }),
    tokenByRefreshHash: (hash) =>
      db.oAuthToken.findUnique({ where: { refreshTokenHash: hash }, select: identity }),
    async claimRefresh(tokenId, at, retrySince) {
      const live = { id: tokenId, revokedAt: null, refreshRetiredAt: null };
      const first = await db.oAuthToken.updateMany({
        where: { ...live, refreshUsedAt: null },
        data: { refreshUsedAt: at },
      });
      if (first.count === 1) {
        const row = await db.oAuthToken.findUnique({ where: { id: tokenId }, select: { parentId: true } });
        if (row?.parentId) {
          await db.oAuthToken.updateMany({
            where: {
              OR: [{ id: row.parentId }, { parentId: row.parentId, id: { not: tokenId } }],
              refreshRetiredAt: null,
            },
            data: { refreshRetiredAt: at },
          });
        }
        return 'rotated';
      }
      const retry = await db.oAuthToken.updateMany({
        where: { ...live, refreshReusedAt: null, refreshUsedAt: { gte: retrySince } },
        data: { refreshReusedAt: at },
      });
      if (retry.count === 0) return 'reuse';
      await db.oAuthToken.updateMany({
        where: { parentId: tokenId, refreshUsedAt: null, revokedAt: null },
        data: { revokedAt: at },
      });
      return 'retry';
    },
    async refreshRetired(tokenId) {
      const row = await db.oAuthToken.findUnique({
        where: { id: tokenId },
        select: { refreshRetiredAt: true, revokedAt: true },
      });
      return !row || row.refreshRetiredAt !== null || row.revokedAt !== null;
    },
    async revokeFamily(familyId, at) {
      await db.oAuthToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: at } });
    },
    async revokeToken(tokenId, at) {
      await db.oAuthToken.updateMany({ where: { id: tokenId, revokedAt: null }, data: { revokedAt: at } });
    },

    async deleteExpired(codesBefore, tokensBefore) {
      const codes = await db.oAuthAuthorizationCode.deleteMany({ where: { expiresAt: { lt: codesBefore } } });
      const tokens = await db.oAuthToken.deleteMany({
        where: {
          accessExpiresAt: { lt: tokensBefore },
          OR: [{ refreshExpiresAt: null }, { refreshExpiresAt: { lt: tokensBefore } }],
        },
      });
      await db.shortMark.deleteMany({ where: { expiresAt: { lt: tokensBefore } } });
      return { codes: codes.count, tokens: tokens.count };
    },
  };
}
