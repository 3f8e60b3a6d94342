import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/**
 * Endpoints' signing secrets. Unlike API keys they cannot be stored hashed, since they must
 * sign; they are stored encrypted (AES-256-GCM) under a server key that is not in the
 * database, so a copy of the database alone does not yield them. SECURITY.md says how.
 */
export const SECRET_PREFIX = 'whsec_';
const SEALED_PREFIX = 'v1.';

/** A new "whsec_..." secret: 24 random bytes, base64, as Standard Webhooks libraries expect. */
export function newSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString('base64');
}

/**
 * The 32-byte key that seals secrets: from WEBHOOKS_SECRET_KEY, or else derived from the
 * session secret (domain-separated, so neither key can stand in for the other).
 */
export function sealingKey(configured: string | undefined, sessionSecret: string | undefined): Buffer {
  const material = configured ?? sessionSecret;
  if (!material) throw new Error('Webhook secrets need WEBHOOKS_SECRET_KEY or SESSION_SECRET');
  return createHash('sha256').update(`quiz-service webhook secrets\0${material}`).digest();
}

export function sealSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return SEALED_PREFIX + Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString('base64url');
}

/** The secret, or null when it was sealed under another key (the server key changed). */
export function openSecret(key: Buffer, sealed: string): string | null {
  if (!sealed.startsWith(SEALED_PREFIX)) return null;
  const raw = Buffer.from(sealed.slice(SEALED_PREFIX.length), 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}
