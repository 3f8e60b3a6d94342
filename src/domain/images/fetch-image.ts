import http from 'node:http';
import https from 'node:https';
import { hostOf, pinnedLookup, vetHost, type Resolver } from '../outbound-address';
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

function fetchOnce(
  target: { url: URL; address: string; family: 4 | 6 },
  options: FetchOptions,
): Promise<Answer> {
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, answer?: Answer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    const request = (target.url.protocol === 'https:' ? https : http).get(
      target.url,
      {
        lookup: pinnedLookup(target),
        agent: false,
        headers: { accept: 'image/png, image/jpeg, image/webp, image/gif' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          finish(null, { redirect: new URL(response.headers.location, target.url).toString() });
          return;
        }
        if (status !== 200) {
          finish(new FetchRefused(`answered HTTP ${status}, not the picture`));
          return;
        }
        const declared = Number(response.headers['content-length']);
        if (declared > IMAGE_LIMITS.maxBytes) {
          finish(new FetchRefused(`holds ${declared} bytes: a picture may be at most 2 MB`));
          return;
        }
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > IMAGE_LIMITS.maxBytes) {
            finish(new FetchRefused('holds more than 2 MB: a picture may be at most 2 MB'));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => finish(null, { body: Buffer.concat(chunks) }));
        response.on('error', () => finish(new FetchRefused('broke off before the picture was read')));
      },
    );
    const timer = setTimeout(
      () => finish(new FetchRefused(`did not answer within ${options.timeoutMs / 1000} s`)),
      options.timeoutMs,
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish(new FetchRefused(`could not be reached (${error.code ?? error.message})`)),
    );
  });
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
