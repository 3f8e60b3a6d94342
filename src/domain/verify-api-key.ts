import type { Repositories } from '../db/repositories';
import { sha256Hex } from './api-keys';

/** An API key that may be used now: whose it is, and when it was last used. */
export interface VerifiedApiKey {
  keyId: string;
  userId: string;
  lastUsedAt: Date | null;
}

/**
 * The rules for a personal API key on a request: it must exist and not be revoked. It is found
 * by its SHA-256, so no comparison depends on the secret's bytes, and looked up on every request,
 * so a revocation holds from the next one (docs/decisions/0005-credentials-and-revocation.md).
 */
export async function verifyApiKey(
  { users }: Pick<Repositories, 'users'>,
  key: string,
): Promise<VerifiedApiKey | null> {
  const row = await users.apiKeyByHash(sha256Hex(key));
  if (!row || row.revokedAt) return null;
  return { keyId: row.id, userId: row.userId, lastUsedAt: row.lastUsedAt };
}
