import { hostOf, vetHost, type Resolver } from '../outbound-address';
import { pinnedRequest, PinnedRequestFailed } from '../pinned-request';

/**
 * A request of the tool's to an LTI platform (its OpenID configuration and registration endpoint;
 * its token, grade and roster services later), under the one outbound-address rule
 * (../outbound-address.ts): the host resolved and checked, the connection pinned to the address
 * checked, https unless loopback is allowed, no redirect followed, the answer read up to a bound,
 * and an end after the timeout. A platform's addresses come from whoever registers it, so none
 * may point the service at itself or its private network.
 */
export interface PlatformRequestOptions {
  allowLoopback: boolean;
  resolve?: Resolver | undefined;
  timeoutMs?: number;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export const PLATFORM_ANSWER_MAX_BYTES = 256 * 1024;
const TIMEOUT_MS = 10_000;

/** Why a platform could not be asked, or what it answered: in words for the page or error shown. */
export class PlatformRequestFailed extends Error {
  override readonly name = 'PlatformRequestFailed';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export async function platformRequest(
  raw: string,
  options: PlatformRequestOptions,
): Promise<{ status: number; contentType: string; body: string }> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PlatformRequestFailed(`${raw} is not a full address`);
  }
  if (url.username || url.password)
    throw new PlatformRequestFailed(`${url.origin} must not carry a user name or password`);
  if (url.protocol !== 'https:' && !(options.allowLoopback && url.protocol === 'http:'))
    throw new PlatformRequestFailed(`${url.origin}${url.pathname} must be an https:// address`);
  const host = hostOf(url);
  const vetted = await vetHost(host, options);
  if (!vetted.ok)
    throw new PlatformRequestFailed(
      vetted.problem === 'does_not_resolve'
        ? `${host} does not resolve`
        : `${host} is ${vetted.address}, not a public address: the service does not call it`,
    );
  if (url.protocol !== 'https:' && !vetted.loopback)
    throw new PlatformRequestFailed(`${url.origin}${url.pathname} must be an https:// address`);
  const timeoutMs = options.timeoutMs ?? TIMEOUT_MS;
  const where = `${url.origin}${url.pathname}`;
  let answer;
  try {
    answer = await pinnedRequest(
      { url, address: vetted.address, family: vetted.family },
      {
        method: options.method ?? 'GET',
        headers: { accept: 'application/json', ...options.headers },
        ...(options.body !== undefined ? { body: options.body } : {}),
        maxBytes: PLATFORM_ANSWER_MAX_BYTES,
        timeoutMs,
      },
    );
  } catch (error) {
    if (!(error instanceof PinnedRequestFailed)) throw error;
    throw new PlatformRequestFailed(
      error.reason === 'timeout'
        ? `${url.origin} did not answer within ${timeoutMs / 1000} s`
        : error.reason === 'too_large'
          ? `${where} answered more than 256 KB`
          : error.reason === 'broken'
            ? `${url.origin} broke off its answer`
            : `${url.origin} could not be reached (${error.detail?.code ?? 'no connection'})`,
    );
  }
  if (answer.kind === 'redirect')
    throw new PlatformRequestFailed(`${where} answered a redirect, which is not followed`, answer.status);
  return { status: answer.status, contentType: answer.contentType, body: answer.body.toString('utf8') };
}

/** A JSON answer with a 2xx status, or why not. */
export async function platformJson(raw: string, options: PlatformRequestOptions): Promise<unknown> {
  const answer = await platformRequest(raw, options);
  const where = new URL(raw);
  if (answer.status < 200 || answer.status >= 300)
    throw new PlatformRequestFailed(
      `${where.origin}${where.pathname} answered HTTP ${answer.status}: ${answer.body.slice(0, 200)}`,
      answer.status,
    );
  try {
    return JSON.parse(answer.body) as unknown;
  } catch {
    throw new PlatformRequestFailed(`${where.origin}${where.pathname} did not answer JSON`, answer.status);
  }
}
