import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Passwords are hashed with scrypt (memory-hard, in node:crypto). The stored form carries its
 * parameters, `scrypt$N$r$p$salt$hash`, so a hash made under other parameters still verifies
 * and is made again under the current ones at the next successful log-in.
 */
const KEY_LENGTH = 32;

/** log2 of N at OWASP's minimum for scrypt (Password Storage Cheat Sheet: N=2^17, r=8, p=1). */
export const OWASP_MIN_PASSWORD_HASH_COST = 17;
/** The cost production runs at unless PASSWORD_HASH_COST raises it. */
export const DEFAULT_PASSWORD_HASH_COST = OWASP_MIN_PASSWORD_HASH_COST;

/** The most a stored hash may ask for (2^20 with r=8 is 1 GiB): a hash asking more is refused. */
const MAX_N = 2 ** 20;

export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

export const paramsForCost = (cost: number): ScryptParams => ({ N: 2 ** cost, r: 8, p: 1 });

let current: ScryptParams = paramsForCost(DEFAULT_PASSWORD_HASH_COST);

/**
 * Sets the cost (log2 of N) for the whole process, once at start-up from the configuration;
 * tests lower it, since each hash at the production cost takes 128 MiB and a noticeable fraction
 * of a second.
 */
export function setPasswordHashCost(cost: number): void {
  const next = paramsForCost(cost);
  if (next.N === current.N) return;
  current = next;
  dummyHash = undefined; // an unknown user must cost what a known one does
}

export function currentPasswordParams(): ScryptParams {
  return { ...current };
}

// OpenSSL needs 128·r·(N+2) bytes for the work area plus 128·r·p for the blocks; Node refuses
// anything above 32 MiB unless told (N=2^17, r=8 is a little over 128 MiB).
const memoryFor = ({ N, r, p }: ScryptParams) => 128 * r * (N + 2) + 128 * r * p + 1024 * 1024;

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  const options: ScryptOptions = { ...params, maxmem: memoryFor(params) };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    );
  });
}

export async function hashPassword(password: string): Promise<string> {
  const params = current;
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return ['scrypt', params.N, params.r, params.p, salt.toString('base64url'), key.toString('base64url')].join(
    '$',
  );
}

function parse(stored: string) {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  const params = { N: Number(n), r: Number(r), p: Number(p) };
  const sane =
    Number.isSafeInteger(params.N) &&
    params.N > 1 &&
    params.N <= MAX_N &&
    (params.N & (params.N - 1)) === 0 &&
    Number.isSafeInteger(params.r) &&
    params.r >= 1 &&
    params.r <= 32 &&
    Number.isSafeInteger(params.p) &&
    params.p >= 1 &&
    params.p <= 16;
  if (scheme !== 'scrypt' || !salt || !hash || !sane) return null;
  return { params, salt: Buffer.from(salt, 'base64url'), hash: Buffer.from(hash, 'base64url') };
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parse(stored);
  if (!parsed) return false;
  const actual = await derive(password, parsed.salt, parsed.params);
  return actual.length === parsed.hash.length && timingSafeEqual(actual, parsed.hash);
}

/** True when the stored hash was made under other parameters than the current ones. */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  if (!parsed) return false;
  const { N, r, p } = parsed.params;
  return N !== current.N || r !== current.r || p !== current.p;
}

/** A hash of a random password: verifying against it costs as much as a real check (no timing oracle). */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(randomBytes(16).toString('hex'));
  return dummyHash;
}
