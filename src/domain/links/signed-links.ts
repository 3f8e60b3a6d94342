import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Repositories } from '../../db/repositories';
import { nowOf, type DomainDeps, type LinkSigner } from '../deps';

/**
 * Signed links: an address that opens one thing of one quiz (its preview, its responses as CSV,
 * its QR code, its questions as Moodle XML, GIFT or a QTI package), or takes one file for its owner (upload),
 * for a short while, without a session or a bearer token, so an assistant can hand
 * it to a person. Each link names one quiz and one purpose, expires, and names the credential
 * that made it: it dies when that credential is revoked (or the dashboard session ends), and
 * when the owner rotates the quiz's link secret, which is mixed into every signature.
 */
export type LinkPurpose = 'preview' | 'csv' | 'qr' | 'upload' | 'moodle_xml' | 'gift' | 'qti';

/** How long each kind of link lives. */
export const LINK_LIFETIME_MS: Record<LinkPurpose, number> = {
  csv: 10 * 60_000,
  preview: 24 * 3_600_000,
  qr: 24 * 3_600_000,
  upload: 3_600_000,
  moodle_xml: 10 * 60_000,
  gift: 10 * 60_000,
  qti: 10 * 60_000,
};

/** What made a link: an API key, an OAuth grant, or a dashboard session. */
export interface LinkCredential {
  kind: 'api_key' | 'oauth' | 'session';
  id: string;
}

/** The query parameter a signed link carries its signature in (never logged: see http/request-log.ts). */
export const LINK_PARAM = 'sig';

/** HMAC with a key derived from the server's secret, kept apart from every other use of it. */
export function linkSigner(serverSecret: string | undefined): LinkSigner {
  if (!serverSecret) throw new Error('no server secret: main.ts resolves one before the app is made');
  const key = Buffer.from(
    hkdfSync('sha256', Buffer.from(serverSecret, 'utf8'), 'quiz-service', 'link v1', 32),
  );
  return { mac: (payload) => createHmac('sha256', key).update(payload).digest('base64url') };
}

const PURPOSES: readonly LinkPurpose[] = ['preview', 'csv', 'qr', 'upload', 'moodle_xml', 'gift', 'qti'];
const KINDS: Readonly<Record<string, LinkCredential['kind']>> = { k: 'api_key', o: 'oauth', s: 'session' };
const KIND_LETTER: Readonly<Record<LinkCredential['kind'], string>> = {
  api_key: 'k',
  oauth: 'o',
  session: 's',
};
// purpose . expiry (epoch seconds) . credential kind . credential id . signature
const SHAPE =
  /^(preview|csv|qr|upload|moodle_xml|gift|qti)\.(\d{1,12})\.([kos])\.([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{43})$/;

function payload(
  purpose: LinkPurpose,
  quizId: string,
  expiry: number,
  credential: LinkCredential,
  linkSecret: string | null,
) {
  return ['link v1', purpose, quizId, expiry, credential.kind, credential.id, linkSecret ?? ''].join('\n');
}

function signerOf(deps: Pick<DomainDeps, 'links'>): LinkSigner {
  if (!deps.links) throw new Error('signed links need DomainDeps.links (app.ts sets it)');
  return deps.links;
}

export interface SignedLink {
  /** The value of the `sig` parameter. */
  sig: string;
  expiresAt: Date;
}

/** Signs a link to `purpose` of the quiz for the credential, expiring after the purpose's lifetime. */
export async function signQuizLink(
  deps: Pick<DomainDeps, 'repos' | 'links' | 'now'>,
  quizId: string,
  purpose: LinkPurpose,
  credential: LinkCredential,
): Promise<SignedLink> {
  const linkSecret = (await deps.repos.quizzes.linkSecret(quizId)) ?? null;
  const expiry = Math.floor((nowOf(deps) + LINK_LIFETIME_MS[purpose]) / 1000);
  const mac = signerOf(deps).mac(payload(purpose, quizId, expiry, credential, linkSecret));
  return {
    sig: `${purpose}.${expiry}.${KIND_LETTER[credential.kind]}.${credential.id}.${mac}`,
    expiresAt: new Date(expiry * 1000),
  };
}

/** Whether the credential that made a link may still be used. */
async function credentialAlive(
  repos: Pick<Repositories, 'users' | 'oauth'>,
  credential: LinkCredential,
  now: Date,
): Promise<boolean> {
  switch (credential.kind) {
    case 'api_key':
      return repos.users.apiKeyActive(credential.id);
    case 'oauth':
      return repos.oauth.grantActive(credential.id);
    case 'session':
      return repos.users.sessionActive(credential.id, now);
  }
}

export type LinkCheck =
  | { ok: true; expiresAt: Date; credential: LinkCredential }
  | { ok: false; reason: 'malformed' | 'expired' | 'revoked' };

/**
 * Checks a link's signature for `purpose` of the quiz `quizId`: forged, altered, for another
 * quiz or purpose, or signed before the quiz's link secret was rotated is "malformed" (the same
 * answer, so a probe learns nothing); then its expiry; then its credential.
 */
export async function checkQuizLink(
  deps: Pick<DomainDeps, 'repos' | 'links' | 'now'>,
  quizId: string,
  purpose: LinkPurpose,
  sig: unknown,
): Promise<LinkCheck> {
  if (typeof sig !== 'string') return { ok: false, reason: 'malformed' };
  const match = SHAPE.exec(sig);
  if (!match || match[1] !== purpose || !PURPOSES.includes(purpose))
    return { ok: false, reason: 'malformed' };
  const [, , expiryText, kindLetter, credentialId, signature] = match;
  const linkSecret = await deps.repos.quizzes.linkSecret(quizId);
  if (linkSecret === undefined) return { ok: false, reason: 'malformed' };
  const credential: LinkCredential = { kind: KINDS[kindLetter!]!, id: credentialId! };
  const expiry = Number(expiryText);
  const expected = Buffer.from(signerOf(deps).mac(payload(purpose, quizId, expiry, credential, linkSecret)));
  if (!timingSafeEqual(expected, Buffer.from(signature!))) return { ok: false, reason: 'malformed' };
  const now = nowOf(deps);
  if (expiry * 1000 <= now) return { ok: false, reason: 'expired' };
  if (!(await credentialAlive(deps.repos, credential, new Date(now))))
    return { ok: false, reason: 'revoked' };
  return { ok: true, expiresAt: new Date(expiry * 1000), credential };
}

/** A new random link secret: every link made before stops working. */
export function newLinkSecret(): string {
  return randomBytes(24).toString('base64url');
}
