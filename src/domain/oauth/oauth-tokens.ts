import type { Db } from '../../db/database';
import { ACCESS_TOKEN_PREFIX, generateSecret, hashSecret, REFRESH_TOKEN_PREFIX } from './oauth-secrets';

/**
 * Access and refresh tokens, one row per issuance, hashed at rest. Rows issued from one
 * authorization code and its refreshes form a family (`familyId` = the code's id): a
 * replayed code or a reused refresh token revokes the family (RFC 6749 4.1.2, RFC 9700 4.14.2).
 *
 * Rotation (RFC 9700 4.14.2): every refresh returns a new refresh
 * token. The one presented stays usable (a client that lost the response may retry) until
 * its replacement is used for the first time; then it, and any other replacement issued from
 * it, retire. A retired refresh token presented again is taken as theft: the family is revoked.
 */
export interface NewTokens {
  grantId: string;
  clientId: string;
  userId: string;
  familyId: string;
  parentId: string | null;
  scopes: string[];
  resource: string;
  accessExpiresAt: Date;
  refreshExpiresAt: Date | null;
}

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

export function generateAccessToken(): string {
  return generateSecret(ACCESS_TOKEN_PREFIX);
}

export function generateRefreshToken(): string {
  return generateSecret(REFRESH_TOKEN_PREFIX);
}

/** Stores an issuance (hashes only) and returns its row id. */
export async function issueTokens(
  db: Db,
  values: { accessToken: string; refreshToken: string | null },
  input: NewTokens,
): Promise<string> {
  const { scopes, ...rest } = input;
  const row = await db.oAuthToken.create({
    data: {
      ...rest,
      refreshExpiresAt: values.refreshToken ? rest.refreshExpiresAt : null,
      scope: scopes.join(' '),
      accessTokenHash: hashSecret(values.accessToken),
      refreshTokenHash: values.refreshToken ? hashSecret(values.refreshToken) : null,
    },
  });
  return row.id;
}

export async function findRefreshToken(db: Db, refreshToken: string): Promise<RefreshTokenRow | null> {
  const row = await db.oAuthToken.findUnique({
    where: { refreshTokenHash: hashSecret(refreshToken) },
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
}

/**
 * The first use of a refresh token retires the one it replaced and that one's other
 * replacements (a retry's leftovers). Later uses change nothing.
 */
export async function recordRefreshUse(db: Db, tokenId: string): Promise<void> {
  const now = new Date();
  const first = await db.oAuthToken.updateMany({
    where: { id: tokenId, refreshUsedAt: null },
    data: { refreshUsedAt: now },
  });
  if (first.count === 0) return;
  const row = await db.oAuthToken.findUnique({ where: { id: tokenId }, select: { parentId: true } });
  if (!row?.parentId) return;
  await db.oAuthToken.updateMany({
    where: {
      OR: [{ id: row.parentId }, { parentId: row.parentId, id: { not: tokenId } }],
      refreshRetiredAt: null,
    },
    data: { refreshRetiredAt: now },
  });
}

/** True when the refresh token of this row may no longer be exchanged. */
export async function isRefreshRetired(db: Db, tokenId: string): Promise<boolean> {
  const row = await db.oAuthToken.findUnique({
    where: { id: tokenId },
    select: { refreshRetiredAt: true, revokedAt: true },
  });
  return !row || row.refreshRetiredAt !== null || row.revokedAt !== null;
}

export async function revokeTokenFamily(db: Db, familyId: string): Promise<void> {
  await db.oAuthToken.updateMany({ where: { familyId, revokedAt: null }, data: { revokedAt: new Date() } });
}

export async function revokeTokenRow(db: Db, tokenId: string): Promise<void> {
  await db.oAuthToken.updateMany({
    where: { id: tokenId, revokedAt: null },
    data: { revokedAt: new Date() },
  });
}

/** The row an access or refresh token belongs to (RFC 7009 2.1: the hint only orders the lookups). */
export async function findTokenByValue(
  db: Db,
  token: string,
  hint: 'access_token' | 'refresh_token' | undefined,
): Promise<{ id: string; clientId: string; familyId: string } | null> {
  const hash = hashSecret(token);
  const select = { id: true, clientId: true, familyId: true } as const;
  const byAccess = () => db.oAuthToken.findUnique({ where: { accessTokenHash: hash }, select });
  const byRefresh = () => db.oAuthToken.findUnique({ where: { refreshTokenHash: hash }, select });
  const [first, second] = hint === 'refresh_token' ? [byRefresh, byAccess] : [byAccess, byRefresh];
  return (await first()) ?? (await second());
}
