// A platform's public keys, read from its JWKS URL. One resolver per URL for the process, so every
// launch from a platform shares one cached key set; jose refetches it when a token names a key id
// it does not hold (the platform rotated its key), at most once per cooldown, so a flood of tokens
// with made-up key ids cannot make us fetch in a loop.
import { createRemoteJWKSet, customFetch, type FetchImplementation, type JWTVerifyGetKey } from 'jose';

export interface PlatformKeysOptions {
  /** How long one fetch of the key set may take. */
  timeoutMs?: number;
  /** The least time between two fetches caused by an unknown key id. */
  cooldownMs?: number;
  /** How long a fetched key set is used before it is fetched again anyway. */
  maxAgeMs?: number;
  /**
   * The fetch to use: the caller passes one that applies the service's outbound address rule when
   * the URL comes from someone else (a registration), which this module knows nothing of.
   */
  fetch?: FetchImplementation;
}

export const PLATFORM_KEYS_DEFAULTS = {
  timeoutMs: 5_000,
  cooldownMs: 30_000,
  maxAgeMs: 10 * 60_000,
} as const;

const resolvers = new Map<string, JWTVerifyGetKey>();

/** The resolver of the keys published at `jwksUrl`, made at its first use and then shared. */
export function platformKeys(jwksUrl: string, options: PlatformKeysOptions = {}): JWTVerifyGetKey {
  const url = new URL(jwksUrl);
  const key = url.toString();
  const cached = resolvers.get(key);
  if (cached) return cached;
  const resolver = createRemoteJWKSet(url, {
    timeoutDuration: options.timeoutMs ?? PLATFORM_KEYS_DEFAULTS.timeoutMs,
    cooldownDuration: options.cooldownMs ?? PLATFORM_KEYS_DEFAULTS.cooldownMs,
    cacheMaxAge: options.maxAgeMs ?? PLATFORM_KEYS_DEFAULTS.maxAgeMs,
    ...(options.fetch !== undefined && { [customFetch]: options.fetch }),
  });
  resolvers.set(key, resolver);
  return resolver;
}

/** Forgets every cached resolver (a registration's JWKS URL changed, or a test starts afresh). */
export function forgetPlatformKeys(jwksUrl?: string): void {
  if (jwksUrl === undefined) resolvers.clear();
  else resolvers.delete(new URL(jwksUrl).toString());
}
