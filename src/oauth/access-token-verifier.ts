import type { Repositories } from '../db/repositories';
import { recordGrantUse } from '../domain/oauth/oauth-grants';
import { ACCESS_TOKEN_PREFIX, hasSecretShape } from '../domain/oauth/oauth-secrets';
import { verifyAccessToken } from '../domain/oauth/verify-access-token';
import type { CredentialVerifier } from '../http/authenticate';
import { createUseRecorder } from '../http/use-recorder';
import type { Logger } from '../logger';
import type { Metrics } from '../http/metrics';
import type { Principal } from '../identity/principal';
import { canonicalScopes } from './scopes';

/**
 * OAuth access tokens (`qat_...`) on every /api/mcp request, like API keys: the rules are the
 * domain's (`verifyAccessToken`: unknown, revoked, expired, of a revoked grant, or for another
 * audience); this adapter recognises the shape, builds the principal and writes the grant's
 * `last_used_at` at most once a minute, after the answer.
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
      const token = await verifyAccessToken(repos, credential, request.resource);
      if (!token) return null;
      touch(token.grantId, token.grantLastUsedAt);
      const principal: Principal = {
        userId: token.userId,
        credential: { kind: 'oauth', id: token.grantId, clientId: token.clientId },
        scopes: new Set(canonicalScopes(token.scopes)),
      };
      return principal;
    },
  };
}
