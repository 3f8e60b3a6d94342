import type { RefreshClaim, RefreshTokenRow, Repositories } from '../../db/repositories';
import { ACCESS_TOKEN_PREFIX, generateSecret, hashSecret, REFRESH_TOKEN_PREFIX } from './oauth-secrets';

/**
 * Access and refresh tokens, one row per issuance, hashed at rest. Rows issued from one
 * authorization code and its refreshes form a family (`familyId` = the code's id): a
 * replayed code or a reused refresh token revokes the family (RFC 6749 4.1.2, RFC 9700 4.14.2).
 *
 * Rotation with reuse detection (RFC 9700 4.14.2): every refresh returns a new refresh token.
 * The one presented may be exchanged once more, within 60 s of its rotation, for a client that
 * lost the answer; that retry revokes the replacement it never received. Any other reuse (a
 * second retry, a retry after 60 s, or after the replacement was used) means two parties hold
 * the chain, and the server cannot tell the client from the thief: the whole grant is revoked,
 * and the person approves the client again.
 */
export const REFRESH_RETRY_WINDOW_MS = 60_000;

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

export type { RefreshTokenRow };

type OAuth = Pick<Repositories, 'oauth'>;

export function generateAccessToken(): string {
  return generateSecret(ACCESS_TOKEN_PREFIX);
}

export function generateRefreshToken(): string {
  return generateSecret(REFRESH_TOKEN_PREFIX);
}

/** Stores an issuance (hashes only) and returns its row id. */
export async function issueTokens(
  { oauth }: OAuth,
  values: { accessToken: string; refreshToken: string | null },
  input: NewTokens,
): Promise<string> {
  const { scopes, ...rest } = input;
  return oauth.createTokens({
    ...rest,
    refreshExpiresAt: values.refreshToken ? rest.refreshExpiresAt : null,
    scope: scopes.join(' '),
    accessTokenHash: hashSecret(values.accessToken),
    refreshTokenHash: values.refreshToken ? hashSecret(values.refreshToken) : null,
  });
}

export async function findRefreshToken(
  { oauth }: OAuth,
  refreshToken: string,
): Promise<RefreshTokenRow | null> {
  return oauth.refreshTokenByHash(hashSecret(refreshToken));
}

export type { RefreshClaim };

/**
 * What exchanging this refresh token is: its rotation, the one retry, or a reuse. A reuse
 * revokes the grant here, before the caller refuses the request.
 */
export async function claimRefreshToken(repos: OAuth, row: RefreshTokenRow): Promise<RefreshClaim> {
  const now = new Date();
  const claim = await repos.oauth.claimRefresh(
    row.id,
    now,
    new Date(now.getTime() - REFRESH_RETRY_WINDOW_MS),
  );
  if (claim === 'reuse') await revokeGrantOnReuse(repos, row);
  return claim;
}

/** A refresh token came back when it may not: everything the person approved for this client ends. */
export async function revokeGrantOnReuse({ oauth }: OAuth, row: RefreshTokenRow): Promise<void> {
  await oauth.revokeGrant(row.userId, row.grantId, new Date());
}

/** True when the refresh token of this row may no longer be exchanged. */
export async function isRefreshRetired({ oauth }: OAuth, tokenId: string): Promise<boolean> {
  return oauth.refreshRetired(tokenId);
}

export async function revokeTokenFamily({ oauth }: OAuth, familyId: string): Promise<void> {
  await oauth.revokeFamily(familyId, new Date());
}

export async function revokeTokenRow({ oauth }: OAuth, tokenId: string): Promise<void> {
  await oauth.revokeToken(tokenId, new Date());
}

/** The row an access or refresh token belongs to (RFC 7009 2.1: the hint only orders the lookups). */
export async function findTokenByValue(
  { oauth }: OAuth,
  token: string,
  hint: 'access_token' | 'refresh_token' | undefined,
): Promise<{ id: string; clientId: string; familyId: string } | null> {
  const hash = hashSecret(token);
  const byAccess = () => oauth.tokenByAccessHash(hash);
  const byRefresh = () => oauth.tokenByRefreshHash(hash);
  const [first, second] = hint === 'refresh_token' ? [byRefresh, byAccess] : [byAccess, byRefresh];
  return (await first()) ?? (await second());
}
