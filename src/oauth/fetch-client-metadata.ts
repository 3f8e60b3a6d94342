import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { hostOf, pinnedLookup, systemResolver, vetHost, type Resolver } from '../domain/outbound-address';

/**
 * Fetches a Client ID Metadata Document: a URL that anyone can put in `client_id`, so every
 * step is guarded against server-side request forgery (draft-ietf-oauth-client-id-metadata-
 * document, Security Considerations; RFC 9700 section 4.15.1 likewise for fetched URIs):
 * - https only;
 * - the host is resolved here and every address must be public (domain/outbound-address.ts); the
 *   connection then goes to that vetted address (pinned `lookup`), so a second DNS answer
 *   cannot swap in an internal one (DNS rebinding, time-of-check/time-of-use);
 * - redirects are refused, not followed (each hop would need the same checks, and a
 *   document that moved is not the document its URL names);
 * - at most `maxBytes` (5 kB) and `timeoutMs` (3 s) in all, DNS included.
 */
export interface FetchClientMetadataOptions {
  timeoutMs?: number;
  maxBytes?: number;
  /**
   * Tests only: lets loopback addresses through, over http too, so a test can serve documents
   * on 127.0.0.1. Set by test code through createApp's test hooks; no configuration reaches it.
   */
  allowLoopbackForTests?: boolean;
  /** DNS resolution (tests substitute a resolver that maps names to chosen addresses). */
  resolve?: Resolver;
}

export interface FetchedDocument {
  body: unknown;
  /** Cache-Control max-age in seconds; null when the response gave none. */
  maxAgeSeconds: number | null;
}

export class MetadataFetchError extends Error {
  override readonly name = 'MetadataFetchError';
}

export const DEFAULT_FETCH_TIMEOUT_MS = 3_000;
export const DEFAULT_MAX_DOCUMENT_BYTES = 5 * 1024;

async function vettedAddress(url: URL, options: FetchClientMetadataOptions, deadline: number) {
  const resolve = options.resolve ?? systemResolver;
  let timedOut: MetadataFetchError | undefined;
  const vetted = await vetHost(hostOf(url), {
    allowLoopback: options.allowLoopbackForTests === true,
    resolve: (host) =>
      withDeadline(resolve(host), deadline, 'its host name did not resolve in time').catch(
        (error: unknown) => {
          // A resolver that took too long is said as such; any other failure reads "does not resolve".
          if (error instanceof MetadataFetchError) timedOut = error;
          throw error;
        },
      ),
  });
  if (vetted.ok && (url.protocol === 'https:' || vetted.loopback)) return vetted;
  if (timedOut) throw timedOut;
  if (!vetted.ok && vetted.problem === 'does_not_resolve') {
    throw new MetadataFetchError('its host name does not resolve');
  }
  throw new MetadataFetchError(
    'its host resolves to a private, loopback, link-local or otherwise non-public address',
  );
}

function withDeadline<T>(promise: Promise<T>, deadline: number, message: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new MetadataFetchError(message)),
      Math.max(0, deadline - Date.now()),
    );
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

function parseMaxAge(header: string | undefined): number | null {
  if (!header) return null;
  if (/(^|,)\s*(no-store|no-cache)\s*(,|$)/i.test(header)) return 0;
  const match = /(^|,)\s*max-age\s*=\s*"?(\d+)"?\s*(,|$)/i.exec(header);
  return match ? Number(match[2]) : null;
}

export async function fetchClientMetadata(
  url: URL,
  options: FetchClientMetadataOptions = {},
): Promise<FetchedDocument> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_FETCH_TIMEOUT_MS;
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_DOCUMENT_BYTES;
  const deadline = Date.now() + timeoutMs;
  if (url.protocol !== 'https:' && !(options.allowLoopbackForTests && url.protocol === 'http:')) {
    throw new MetadataFetchError('its URL must use https');
  }
  const target = await vettedAddress(url, options, deadline);
  const host = hostOf(url);
  const client = url.protocol === 'https:' ? https : http;

  return new Promise<FetchedDocument>((resolve, reject) => {
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      reject(new MetadataFetchError(message));
    };
    const request = client.request({
      protocol: url.protocol,
      hostname: host,
      port: url.port || undefined,
      path: `${url.pathname}${url.search}`,
      method: 'GET',
      agent: false,
      headers: { Accept: 'application/json', 'User-Agent': 'quiz-service-oauth/1 (client metadata fetch)' },
      // The connection goes to the address vetted above, never to a fresh DNS answer.
      lookup: pinnedLookup(target),
      ...(net.isIP(host) ? {} : { servername: host }),
    });
    const timer = setTimeout(
      () => fail(`it did not answer within ${timeoutMs / 1000} s`),
      Math.max(0, deadline - Date.now()),
    );
    request.on('error', () => fail('it could not be fetched'));
    request.on('response', (response) => {
      const status = response.statusCode ?? 0;
      if (status >= 300 && status < 400)
        return fail(`it answered with a redirect (HTTP ${status}), which is not followed`);
      if (status !== 200) return fail(`it answered HTTP ${status}`);
      if (Number(response.headers['content-length'] ?? 0) > maxBytes)
        return fail(`it is larger than ${maxBytes} bytes`);
      const chunks: Buffer[] = [];
      let size = 0;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > maxBytes) return fail(`it is larger than ${maxBytes} bytes`);
        chunks.push(chunk);
      });
      response.on('error', () => fail('it could not be read'));
      response.on('end', () => {
        if (settled) return;
        let body: unknown;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          return fail('it is not JSON');
        }
        settled = true;
        clearTimeout(timer);
        resolve({ body, maxAgeSeconds: parseMaxAge(response.headers['cache-control']) });
      });
    });
    request.end();
  });
}
