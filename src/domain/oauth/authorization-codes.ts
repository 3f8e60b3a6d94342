import type { CodeRow, Repositories } from '../../db/repositories';
import { AUTHORIZATION_CODE_PREFIX, generateSecret, hashSecret } from './oauth-secrets';
import { revokeTokenFamily } from './oauth-tokens';

/**
 * Authorization codes (RFC 6749 4.1.2): short-lived, single use, stored as SHA-256 only.
 * Redemption is one conditional UPDATE (`consumedAt IS NULL`), so of two simultaneous
 * redemptions exactly one wins, on SQLite and PostgreSQL alike.
 */
export type AuthorizationCodeRow = CodeRow;

type OAuth = Pick<Repositories, 'oauth'>;

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
  { oauth }: OAuth,
  code: string,
  input: NewAuthorizationCode,
): Promise<void> {
  const { scopes, ...rest } = input;
  await oauth.createCode({ ...rest, scope: scopes.join(' '), codeHash: hashSecret(code) });
}

export async function findAuthorizationCode(
  { oauth }: OAuth,
  code: string,
): Promise<AuthorizationCodeRow | null> {
  return oauth.codeByHash(hashSecret(code));
}

/** The one redemption that may proceed: true for exactly one caller per code. */
export async function consumeAuthorizationCode({ oauth }: OAuth, codeId: string): Promise<boolean> {
  return oauth.consumeCode(codeId, new Date());
}

/**
 * A used code came back (RFC 6749 4.1.2: "the authorization server MUST deny the request
 * and SHOULD revoke all tokens previously issued based on that authorization code").
 * The mark is written first, so a token saved by a redemption still in flight sees it
 * (the token endpoint checks after saving) and the revocation below catches anything saved before.
 */
export async function revokeReplayedCode(repos: OAuth, codeId: string): Promise<void> {
  await repos.oauth.markCodeReplayed(codeId, new Date());
  await revokeTokenFamily(repos, codeId);
}

/** True when the code was replayed (or is gone with its grant): its tokens must not stand. */
export async function isCodeReplayed({ oauth }: OAuth, codeId: string): Promise<boolean> {
  return oauth.codeReplayed(codeId);
}
