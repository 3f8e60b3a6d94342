import { createHash, randomBytes } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import type { DomainDeps, LtiDeps } from '../deps';
import { openSecret, sealSecret } from '../webhooks/secrets';

/**
 * The tool's own signing keys for LTI: what it signs to platforms (client assertions for grade
 * passback, Deep Linking responses) with RS256, which every platform accepts. The private key is
 * sealed (AES-256-GCM) under a key derived from the server's secret, so a copy of the database
 * alone does not yield it. The newest key not retired signs; after a rotation the old key stays
 * in the JWKS for KEPT_AFTER_RETIRED_MS, longer than anything it signed lives.
 */
export const LTI_KEY_ALG = 'RS256';
export const KEPT_AFTER_RETIRED_MS = 60 * 60 * 1000;

/** The key that seals the tool's private keys, derived from the session secret and no other use. */
export function ltiSealingKey(sessionSecret: string): Buffer {
  return createHash('sha256').update(`quiz-service lti tool keys\0${sessionSecret}`).digest();
}

type Deps = Pick<DomainDeps, 'repos' | 'now'> & { lti: LtiDeps };

const nowOf = (deps: Deps) => new Date(deps.now?.() ?? Date.now());

/** A new key pair, stored; its kid. */
async function addKey(deps: Deps, at: Date): Promise<string> {
  const { publicKey, privateKey } = await generateKeyPair(LTI_KEY_ALG, { extractable: true });
  const kid = randomBytes(12).toString('base64url');
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: LTI_KEY_ALG, use: 'sig' };
  const privateJwk = { ...(await exportJWK(privateKey)), kid, alg: LTI_KEY_ALG };
  await deps.repos.lti.addToolKey({
    kid,
    publicJwk: JSON.stringify(publicJwk),
    privateSealed: sealSecret(deps.lti.sealingKey, JSON.stringify(privateJwk)),
    createdAt: at,
  });
  return kid;
}

/**
 * The key the tool signs with now: the newest not retired, made on first use. Two instances
 * making the first one at once each store one; the newer signs and both are published.
 */
export async function signingKey(deps: Deps): Promise<{ kid: string; key: CryptoKey }> {
  const at = nowOf(deps);
  let current = (await deps.repos.lti.toolKeys(at)).find((row) => row.retiredAt === null);
  if (!current) {
    await addKey(deps, at);
    current = (await deps.repos.lti.toolKeys(at)).find((row) => row.retiredAt === null)!;
  }
  const opened = openSecret(deps.lti.sealingKey, current.privateSealed);
  if (opened === null)
    throw new Error(
      'The LTI signing key was sealed under another server secret: rotate it (cli lti rotate-key)',
    );
  const key = await importJWK(JSON.parse(opened) as JWK, LTI_KEY_ALG);
  return { kid: current.kid, key: key as CryptoKey };
}

/** Makes a new signing key and retires the others (they stay published for KEPT_AFTER_RETIRED_MS). */
export async function rotateSigningKey(deps: Deps): Promise<string> {
  const at = nowOf(deps);
  const kid = await addKey(deps, at);
  await deps.repos.lti.retireToolKeysBut(kid, at);
  return kid;
}

/**
 * The public keys platforms verify the tool's signatures with: current and recently retired. With
 * `lti`, the first signing key is made when there is none, so a platform reading the JWKS at its
 * registration finds the key the tool will sign with; one read otherwise, nothing decrypted.
 */
export async function toolJwks(
  deps: Pick<DomainDeps, 'repos' | 'now'> & { lti?: LtiDeps },
): Promise<{ keys: JWK[] }> {
  const now = deps.now?.() ?? Date.now();
  const kept = new Date(now - KEPT_AFTER_RETIRED_MS);
  let rows = await deps.repos.lti.toolKeys(kept);
  if (deps.lti && !rows.some((row) => row.retiredAt === null)) {
    await addKey({ ...deps, lti: deps.lti }, new Date(now));
    rows = await deps.repos.lti.toolKeys(kept);
  }
  return { keys: rows.map((row) => JSON.parse(row.publicJwk) as JWK) };
}
