import { randomInt } from 'node:crypto';
import { sha256Hex } from '../api-keys';

/**
 * Every secret the authorization server hands out is opaque, random, stored hashed, and has a
 * prefix distinct from `svc_`. The prefix tells a verifier, a log reader
 * and a secret scanner which kind a leaked value is. 43 base62 characters carry
 * 43 * log2(62) = 256.03 bits, the same strength as an API key.
 */
export const ACCESS_TOKEN_PREFIX = 'qat_';
export const REFRESH_TOKEN_PREFIX = 'qrt_';
export const AUTHORIZATION_CODE_PREFIX = 'qac_';
export const CLIENT_SECRET_PREFIX = 'qcs_';
/** Client ids are not secrets (RFC 6749 2.2), but a prefix keeps them apart from URLs. */
export const CLIENT_ID_PREFIX = 'qci_';

const SECRET_LENGTH = 43;
const CLIENT_ID_LENGTH = 22;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const BASE62_ONLY = /^[0-9A-Za-z]+$/;

function randomBase62(length: number): string {
  let out = '';
  for (let i = 0; i < length; i += 1) out += BASE62[randomInt(BASE62.length)];
  return out;
}

export function generateSecret(prefix: string): string {
  return prefix + randomBase62(SECRET_LENGTH);
}

export function generateClientId(): string {
  return CLIENT_ID_PREFIX + randomBase62(CLIENT_ID_LENGTH);
}

/** True when `value` has the exact shape of a secret with this prefix (cheap, no I/O). */
export function hasSecretShape(prefix: string, value: string): boolean {
  return (
    value.length === prefix.length + SECRET_LENGTH &&
    value.startsWith(prefix) &&
    BASE62_ONLY.test(value.slice(prefix.length))
  );
}

/** The stored form of any secret: SHA-256, hex (the same as API keys and sessions). */
export function hashSecret(value: string): string {
  return sha256Hex(value);
}
