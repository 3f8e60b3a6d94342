import type { Repositories } from '../db/repositories';
import { recordGrantUse } from '../domain/oauth/oauth-grants';
import { ACCESS_TOKEN_PREFIX, hasSecretShape, hashSecret } from '../domain/oauth/oauth-secrets';
import type { CredentialVerifier } from '../http/authenticate';
import { createUseRecorder } from '../http/use-recorder';
import type { Logger } from '../logger';
import type { Metrics } from '../http/metrics';
import type { Principal } from '../identity/principal';
import { canonicalScopes } from './scopes';

/**
 * Checks an OAuth access token (`qat_...`) on every /api/mcp request, like API keys: the
 * SHA-256 is looked up through the raw driver (db/hot-queries.ts), joined with its grant,
 * with nothing kept past a write (db/snapshot-cache.ts), so revoking a token or a whole
 * connected app holds from the next request on every instance. Refused: unknown, revoked,
 * expired, of a revoked grant, or minted for another audience (RFC 8707; MCP authorization,
 * "Token Audience Binding").
 *
 * The principal's credential id is the grant's: the rate limit (keyed on it) then counts one
 * connected app per user as one caller, and refreshing a token does not open a new bucket.
 */
export function createAccessTokenVerifier(
  repos: Pick<Repositories, 'oauth'>,
  options: { logger: Logger; metrics?: Pick<Metrics, 'observeLastUsedWrite'> },
): CredentialVerifier {
  const touch = createUseRecorder(
    (grantId, at, intervalMs) => recordGrantUse(repos, grantId, at, intervalMs),
    (error) => options.logger.warn({ err: error }, 'could not record OAuth grant use'),
    { onScheduled: () => options.metrics?.observeLastUsedWrite('oauth_grant') },
  );

  return {
    recognises: (credential) => hasSecretShape(ACCESS_TOKEN_PREFIX, credential),
    async verify(credential, request) {
      const token = await repos.oauth.accessTokenByHash(hashSecret(credential));
      if (!token || token.revokedAt || token.grantRevokedAt) return null;
      if (token.accessExpiresAt.getTime() <= Date.now()) return null;
      if (token.resource !== request.resource) return null;
      touch(token.grantId, token.grantLastUsedAt);
      const principal: Principal = {
        userId: token.userId,
        credential: { kind: 'oauth', id: token.grantId, clientId: token.clientId },
        scopes: new Set(canonicalScopes(token.scope.split(' '))),
      };
      return principal;
    },
  };
}
