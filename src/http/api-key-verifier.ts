import type { Database } from '../db/database';
import { looksLikeApiKey, sha256Hex } from '../domain/api-keys';
import type { Logger } from '../logger';
import { ALL_SCOPES, type Principal } from '../mcp/tool';
import type { CredentialVerifier } from './authenticate';

const LAST_USED_INTERVAL_MS = 60_000;
const API_KEY_SCOPES = new Set(ALL_SCOPES);

/**
 * Looks the key's SHA-256 up on every request: nothing is cached, so a revocation holds
 * from the next request on every instance (spec, Authentication 4). The lookup goes through
 * the raw driver (db/hot-queries.ts), which keeps it cheap enough to do every time.
 * `last_used_at` is written at most once a minute per key, after the answer is on its way.
 */
export function createApiKeyVerifier(
  database: Pick<Database, 'prisma' | 'hot'>,
  logger: Logger,
): CredentialVerifier {
  const db = database.prisma;
  const lastTouched = new Map<string, number>();

  function touch(keyId: string, lastUsedAt: Date | null): void {
    const now = Date.now();
    const known = Math.max(lastTouched.get(keyId) ?? 0, lastUsedAt?.getTime() ?? 0);
    if (now - known < LAST_USED_INTERVAL_MS) return;
    lastTouched.set(keyId, now);
    if (lastTouched.size > 10_000) lastTouched.clear();
    setImmediate(() => {
      db.apiKey
        .updateMany({
          where: {
            id: keyId,
            OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(now - LAST_USED_INTERVAL_MS) } }],
          },
          data: { lastUsedAt: new Date(now) },
        })
        .catch((error: unknown) => logger.warn({ err: error }, 'could not record API key use'));
    });
  }

  return {
    recognises: looksLikeApiKey,
    async verify(credential) {
      const key = await database.hot.apiKeyByHash(sha256Hex(credential));
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
