import { hostOf, vetHost, type Resolver } from '../outbound-address';
import { pinnedRequest, PinnedRequestFailed, type PinnedTarget } from '../pinned-request';
import { IMAGE_LIMITS } from './decode-image';

/**
 * Fetches a picture someone named by address, under the one outbound-address rule
 * (../outbound-address.ts): every hop's host is resolved and checked, the connection goes to the
 * address checked, redirects are followed by hand (each hop checked and counted as a fetch), the
 * body is read up to the picture limit, and each fetch ends after its timeout.
 */
export interface FetchOptions {
  /** Loopback over plain HTTP (development and tests only), as webhooks allow it. */
  allowLoopback: boolean;
  resolve?: Resolver | undefined;
  timeoutMs: number;
}

/** How many fetches one call may make, redirects included; shared by all of its pictures. */
export class FetchBudget {
  constructor(public left: number) {}
}

export const FETCHES_PER_CALL = 20;
const MAX_REDIRECTS = 5;

export class FetchRefused extends Error {
  override readonly name = 'FetchRefused';
  /** The field it is about, in the caller's terms, once known. */
  field?: string;
}

async function checkedHop(raw: string, options: FetchOptions) {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new FetchRefused('is not a full address: send one starting with https://');
  }
  if (url.username || url.password) throw new FetchRefused('must not carry a user name or password');
  if (url.protocol !== 'https:' && !(options.allowLoopback && url.protocol === 'http:')) {
    throw new FetchRefused(`must be an https:// address (got ${url.protocol}//)`);
  }
  const host = hostOf(url);
  const vetted = await vetHost(host, options);
  if (!vetted.ok) {
    throw new FetchRefused(
      vetted.problem === 'does_not_resolve'
        ? `names ${host}, which does not resolve`
        : `names ${host}, which is ${vetted.address}: not a public address, so it is not fetched`,
    );
  }
  if (url.protocol !== 'https:' && !vetted.loopback) {
    throw new FetchRefused('must be an https:// address');
  }
  return { url, address: vetted.address, family: vetted.family };
}

type Answer = { redirect: string } | { body: Buffer };

async function fetchOnce(target: PinnedTarget, options: FetchOptions): Promise<Answer> {
  const max = IMAGE_LIMITS.maxBytes;
  let answer;
  try {
    answer = await pinnedRequest(target, {
      headers: { accept: 'image/png, image/jpeg, image/webp, image/gif' },
      maxBytes: max,
      timeoutMs: options.timeoutMs,
    });
  } catch (error) {
    if (!(error instanceof PinnedRequestFailed)) throw error;
    throw new FetchRefused(
      error.reason === 'timeout'
        ? `did not answer within ${options.timeoutMs / 1000} s`
        : error.reason === 'too_large'
          ? error.detail?.declared
            ? `holds ${error.detail.declared} bytes: a picture may be at most 2 MB`
            : 'holds more than 2 MB: a picture may be at most 2 MB'
          : error.reason === 'broken'
            ? 'broke off before the picture was read'
            : `could not be reached (${error.detail?.code ?? 'no connection'})`,
    );
  }
  if (answer.kind === 'redirect') return { redirect: answer.location };
  if (answer.status !== 200) throw new FetchRefused(`answered HTTP ${answer.status}, not the picture`);
  return { body: answer.body };
}

/** The picture's bytes, as the address (or the last of its redirects) answered them. */
export async function fetchImage(raw: string, options: FetchOptions, budget: FetchBudget): Promise<Buffer> {
  let next = raw;
  for (let hop = 0; hop <= MAX_REDIRECTS; hop += 1) {
    if (budget.left <= 0) {
      throw new FetchRefused(
        `was not fetched: one call fetches at most ${FETCHES_PER_CALL} addresses, redirects included; send the rest in another call`,
      );
    }
    budget.left -= 1;
    const target = await checkedHop(next, options).catch((error: unknown) => {
      if (hop > 0 && error instanceof FetchRefused) {
        throw new FetchRefused(`redirects to an address that ${error.message}`);
      }
      throw error;
    });
    const answer = await fetchOnce(target, options);
    if ('body' in answer) return answer.body;
    next = answer.redirect;
  }
  throw new FetchRefused(`redirects more than ${MAX_REDIRECTS} times`);
}
