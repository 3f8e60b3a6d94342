import { createHash, randomInt } from 'node:crypto';
import { z } from 'zod';
import type { Repositories } from '../db/repositories';
import { DomainError } from './errors';
import { parseOrThrow } from './quiz-input';

type Users = Pick<Repositories, 'users'>;

/**
 * Personal API keys: `svc_` + 43 base62 characters
 * (~256 bits). Only the SHA-256 is stored, with a display prefix and the last 4 characters.
 */
export const API_KEY_PREFIX = 'svc_';
export const MAX_ACTIVE_KEYS = 10;
const SECRET_LENGTH = 43;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const DISPLAY_PREFIX_LENGTH = API_KEY_PREFIX.length + 4;

export const KeyNameSchema = z
  .string({ error: 'name must be a string' })
  .trim()
  .min(1, { error: 'Give the key a name, such as where it will be used' })
  .max(100, { error: 'Use a name of at most 100 characters' });

export function generateApiKey(): string {
  let secret = '';
  for (let i = 0; i < SECRET_LENGTH; i += 1) secret += BASE62[randomInt(BASE62.length)];
  return API_KEY_PREFIX + secret;
}

export function sha256Hex(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

export function looksLikeApiKey(value: string): boolean {
  return (
    value.startsWith(API_KEY_PREFIX) &&
    value.length === API_KEY_PREFIX.length + SECRET_LENGTH &&
    /^[0-9A-Za-z]+$/.test(value.slice(API_KEY_PREFIX.length))
  );
}

export interface ApiKeyRecord {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  created_at: string;
  last_used_at: string | null;
}

function keyRecord(row: {
  id: string;
  name: string;
  prefix: string;
  last4: string;
  createdAt: Date;
  lastUsedAt: Date | null;
}): ApiKeyRecord {
  return {
    id: row.id,
    name: row.name,
    prefix: row.prefix,
    last4: row.last4,
    created_at: row.createdAt.toISOString(),
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** Creates a key and returns its full value, the only time it is ever available. */
export async function createApiKey(
  { users }: Users,
  userId: string,
  name: string,
): Promise<ApiKeyRecord & { key: string }> {
  const keyName = parseOrThrow(KeyNameSchema, name, 'Cannot create the API key');
  const key = generateApiKey();
  const row = await users.createApiKey(
    userId,
    {
      name: keyName,
      keyHash: sha256Hex(key),
      prefix: key.slice(0, DISPLAY_PREFIX_LENGTH),
      last4: key.slice(-4),
    },
    // Checked inside the creation's transaction: the limit holds under concurrent requests.
    (active) => {
      if (active >= MAX_ACTIVE_KEYS) {
        throw new DomainError(
          'key_limit_reached',
          `You already have ${MAX_ACTIVE_KEYS} API keys, the most allowed. Revoke one you no longer use, then create the new one.`,
        );
      }
    },
  );
  return { ...keyRecord(row), key };
}

export async function listApiKeys({ users }: Users, userId: string): Promise<ApiKeyRecord[]> {
  return (await users.activeApiKeys(userId)).map(keyRecord);
}

/** Revocation is a write to the row every request reads, so it holds from the next request. */
export async function revokeApiKey({ users }: Users, userId: string, keyId: string): Promise<void> {
  if (!(await users.revokeApiKey(userId, keyId, new Date()))) {
    throw new DomainError('key_not_found', `No active API key with the id ${keyId} belongs to this user.`);
  }
}
