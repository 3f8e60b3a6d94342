import type { Db } from '../../db/database';
import { AUTHORIZATION_CODE_PREFIX, generateSecret, hashSecret } from './oauth-secrets';
import { revokeTokenFamily } from './oauth-tokens';

/**
 * Authorization codes (RFC 6749 4.1.2): short-lived, single use, stored as SHA-256 only.
 * Redemption is one conditional UPDATE (`consumedAt IS NULL`), so of two simultaneous
 * redemptions exactly one wins, on SQLite and PostgreSQL alike.
 */
export interface AuthorizationCodeRow {
  id: string;
  grantId: string;
  clientId: string;
  userId: string;
  redirectUri: string | null;
  scope: string;
  resource: string;
  codeChallenge: string;
  codeChallengeMethod: string;
  expiresAt: Date;
  consumedAt: Date | null;
  grantRevokedAt: Date | null;
}

export interface NewAuthorizationCode {
  grantId: string;
  clientId: string;
  userId: string;
  redirectUri: string | null;
  scopes: string[];
  resource: string;
  codeChallenge: string;
  codeChallengeMethod: string;
  expiresAt: Date;
}

export function generateAuthorizationCode(): string {
  return generateSecret(AUTHORIZATION_CODE_PREFIX);
}

/** Stores a code (its hash); the value itself exists only in the redirect to the client. */
export async function createAuthorizationCode(
  db: Db,
  code: string,
  input: NewAuthorizationCode,
): Promise<void> {
  const { scopes, ...rest } = input;
  await db.oAuthAuthorizationCode.create({
    data: { ...rest, scope: scopes.join(' '), codeHash: hashSecret(code) },
  });
}

export async function findAuthorizationCode(db: Db, code: string): Promise<AuthorizationCodeRow | null> {
  const row = await db.oAuthAuthorizationCode.findUnique({
    where: { codeHash: hashSecret(code) },
    include: { grant: { select: { revokedAt: true } } },
  });
  if (!row) return null;
  const { grant, codeHash: _hash, replayedAt: _replayed, createdAt: _created, ...fields } = row;
  return { ...fields, grantRevokedAt: grant.revokedAt };
}

/** The one redemption that may proceed: true for exactly one caller per code. */
export async function consumeAuthorizationCode(db: Db, codeId: string): Promise<boolean> {
  const result = await db.oAuthAuthorizationCode.updateMany({
    where: { id: codeId, consumedAt: null },
    data: { consumedAt: new Date() },
  });
  return result.count === 1;
}

/**
 * A used code came back (RFC 6749 4.1.2: "the authorization server MUST deny the request
 * and SHOULD revoke all tokens previously issued based on that authorization code").
 * The mark is written first, so a token saved by a redemption still in flight sees it
 * (the token endpoint checks after saving) and the revocation below catches anything saved before.
 */
export async function revokeReplayedCode(db: Db, codeId: string): Promise<void> {
  await db.oAuthAuthorizationCode.updateMany({
    where: { id: codeId, replayedAt: null },
    data: { replayedAt: new Date() },
  });
  await revokeTokenFamily(db, codeId);
}

/** True when the code was replayed (or is gone with its grant): its tokens must not stand. */
export async function isCodeReplayed(db: Db, codeId: string): Promise<boolean> {
  const row = await db.oAuthAuthorizationCode.findUnique({
    where: { id: codeId },
    select: { replayedAt: true },
  });
  return !row || row.replayedAt !== null;
}
