import { createHash, randomBytes } from 'node:crypto';
import type { DomainDeps } from '../deps';
import { DomainError } from '../errors';
import { getResponseResult, type ResponseResult } from './get-response-result';

/**
 * The kept link: a random secret given to the respondent once, at submission, that opens their
 * result again (a final grade too). Only its SHA-256 is stored (responses.resultKeyHash), so a
 * copy of the database opens no result.
 */
export interface KeptResultKey {
  /** 24 random bytes, base64url: what the link carries. */
  secret: string;
  /** SHA-256 of the secret, hex: what the response row keeps. */
  hash: string;
}

/** Only the shape newKeptResultKey makes is looked up: anything else costs no query. */
const SECRET_PATTERN = /^[A-Za-z0-9_-]{32}$/;

export const keptResultHash = (secret: string): string =>
  createHash('sha256').update(secret, 'utf8').digest('hex');

export function newKeptResultKey(): KeptResultKey {
  const secret = randomBytes(24).toString('base64url');
  return { secret, hash: keptResultHash(secret) };
}

export const isKeptResultSecret = (value: unknown): value is string =>
  typeof value === 'string' && SECRET_PATTERN.test(value);

function keptResultNotFound(slug: string): DomainError {
  return new DomainError('quiz_not_found', `No result for this link under a published quiz at "${slug}".`);
}

/**
 * The result the kept link opens: the same view as the result page (what the quiz's settings
 * allow, never the respondent's details). An unknown or malformed secret is "not found".
 */
export async function getKeptResult(
  deps: DomainDeps,
  slug: string,
  secret: unknown,
): Promise<{ responseId: string; result: ResponseResult }> {
  if (!isKeptResultSecret(secret)) throw keptResultNotFound(slug);
  const responseId = await deps.repos.responses.idByResultKey(slug, keptResultHash(secret));
  if (!responseId) throw keptResultNotFound(slug);
  return { responseId, result: await getResponseResult(deps, slug, responseId) };
}
