import type { Repositories } from '../db/repositories';
import { looksLikeApiKey } from '../domain/api-keys';
import { verifyApiKey } from '../domain/verify-api-key';
import type { Logger } from '../logger';
import type { Metrics } from './metrics';
import { ALL_SCOPES, type Principal } from '../identity/principal';
import type { CredentialVerifier } from './authenticate';
import { createUseRecorder } from './use-recorder';

const API_KEY_SCOPES = new Set(ALL_SCOPES);

/**
 * API keys (`svc_...`) on the bearer header: the rules are the domain's (`verifyApiKey`); this
 * adapter recognises the shape, turns a valid key into a principal with every scope, and writes
 * `last_used_at` at most once a minute per key, after the answer is on its way. The lookup goes
 * through the raw driver (db/hot-queries.ts), cheap enough to do on every request.
 */
export function createApiKeyVerifier(
  repos: Pick<Repositories, 'users'>,
  logger: Logger,
  metrics?: Pick<Metrics, 'observeLastUsedWrite'>,
): CredentialVerifier {
  const touch = createUseRecorder(
    (keyId, at, intervalMs) => repos.users.recordApiKeyUse(keyId, at, intervalMs),
    (error) => logger.warn({ err: error }, 'could not record API key use'),
    { onScheduled: () => metrics?.observeLastUsedWrite('api_key') },
  );

  return {
    recognises: looksLikeApiKey,
    async verify(credential) {
      const key = await verifyApiKey(repos, credential);
      if (!key) return null;
      touch(key.keyId, key.lastUsedAt);
      const principal: Principal = {
        userId: key.userId,
        credential: { kind: 'api_key', id: key.keyId },
        scopes: API_KEY_SCOPES,
      };
      return principal;
    },
  };
}
