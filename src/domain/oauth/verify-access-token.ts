import type { Repositories } from '../../db/repositories';
import { hashSecret } from './oauth-secrets';

/** An access token that may be used now, with the grant it was issued under. */
export interface VerifiedAccessToken {
  grantId: string;
  userId: string;
  clientId: string;
  /** The scopes granted, as stored (space-separated in the row). */
  scopes: string[];
  grantLastUsedAt: Date | null;
}

/**
 * The rules for an OAuth access token (`qat_...`) on a request: refused when unknown, revoked,
 * of a revoked grant, expired, or minted for another audience than `resource` (RFC 8707; MCP
 * authorization, "Token Audience Binding"). Found by its hash, so no comparison depends on the
 * secret's bytes, and joined with its grant in one read, so revoking a token or a whole connected
 * app holds from the next request (docs/decisions/0005-credentials-and-revocation.md).
 */
export async function verifyAccessToken(
  { oauth }: Pick<Repositories, 'oauth'>,
  token: string,
  resource: string,
): Promise<VerifiedAccessToken | null> {
  const row = await oauth.accessTokenByHash(hashSecret(token));
  if (!row || row.revokedAt || row.grantRevokedAt) return null;
  if (row.accessExpiresAt.getTime() <= Date.now()) return null;
  if (row.resource !== resource) return null;
  return {
    grantId: row.grantId,
    userId: row.userId,
    clientId: row.clientId,
    scopes: row.scope.split(' '),
    grantLastUsedAt: row.grantLastUsedAt,
  };
}
