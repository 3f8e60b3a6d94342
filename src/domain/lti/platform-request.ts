import http from 'node:http';
import https from 'node:https';
import { hostOf, pinnedLookup, vetHost, type Resolver } from '../outbound-address';

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
  return new Promise((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, answer?: { status: number; contentType: string; body: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: options.method ?? 'GET',
        lookup: pinnedLookup(vetted),
        agent: false,
        headers: { accept: 'application/json', ...options.headers },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400) {
          finish(
            new PlatformRequestFailed(
              `${url.origin}${url.pathname} answered a redirect, which is not followed`,
              status,
            ),
          );
          return;
        }
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > PLATFORM_ANSWER_MAX_BYTES) {
            finish(
              new PlatformRequestFailed(`${url.origin}${url.pathname} answered more than 256 KB`, status),
            );
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          finish(null, {
            status,
            contentType: String(response.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks).toString('utf8'),
          }),
        );
        response.on('error', () => finish(new PlatformRequestFailed(`${url.origin} broke off its answer`)));
      },
    );
    const timer = setTimeout(
      () => finish(new PlatformRequestFailed(`${url.origin} did not answer within ${timeoutMs / 1000} s`)),
      timeoutMs,
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish(
        new PlatformRequestFailed(`${url.origin} could not be reached (${error.code ?? error.message})`),
      ),
    );
    request.end(options.body);
  });
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
