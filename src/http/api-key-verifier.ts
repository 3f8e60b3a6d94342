import type { Repositories } from '../db/repositories';
import { looksLikeApiKey, sha256Hex } from '../domain/api-keys';
import type { Logger } from '../logger';
import type { Metrics } from './metrics';
import { ALL_SCOPES, type Principal } from '../identity/principal';
import type { CredentialVerifier } from './authenticate';
import { createUseRecorder } from './use-recorder';

const API_KEY_SCOPES = new Set(ALL_SCOPES);

/**
 * Looks the key's SHA-256 up on every request, so a revocation holds from the next request
 * on every instance. The lookup goes through the raw driver
 * (db/hot-queries.ts), which keeps it cheap enough to do every time; on SQLite its answer is
 * kept only while no connection anywhere has written since (db/snapshot-cache.ts).
 * `last_used_at` is written at most once a minute per key, after the answer is on its way.
 */
export function createApiKeyVerifier(
  { users }: Pick<Repositories, 'users'>,
  logger: Logger,
  metrics?: Pick<Metrics, 'observeLastUsedWrite'>,
): CredentialVerifier {
  const touch = createUseRecorder(
    (keyId, at, intervalMs) => users.recordApiKeyUse(keyId, at, intervalMs),
    (error) => logger.warn({ err: error }, 'could not record API key use'),
    { onScheduled: () => metrics?.observeLastUsedWrite('api_key') },
  );

  return {
    recognises: looksLikeApiKey,
    async verify(credential) {
      const key = await users.apiKeyByHash(sha256Hex(credential));
      if (!key || key.revokedAt) return null;
      touch(key.id, key.lastUsedAt);
      const principal: Principal = {
        userId: key.userId,
        credential: { kind: 'api_key', id: key.id },
        scopes: API_KEY_SCOPES,
      };
      return principal;
    },
  };
}
