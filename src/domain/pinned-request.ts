import http from 'node:http';
import https from 'node:https';
import { pinnedLookup } from './outbound-address';

/**
 * One request to an address the outbound-address rule has checked (outbound-address.ts): the
 * connection goes to that address whatever DNS answers now, no agent is shared, the answer is read
 * up to `maxBytes`, and the request ends after `timeoutMs`. A redirect is handed back, not
 * followed: each caller decides whether to check and follow it. The failures are named, for each
 * caller to word in its own terms (a picture, a platform).
 */
export interface PinnedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

export interface PinnedRequestOptions {
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  maxBytes: number;
  timeoutMs: number;
}

export type PinnedAnswer =
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'answer'; status: number; contentType: string; body: Buffer };

export class PinnedRequestFailed extends Error {
  override readonly name = 'PinnedRequestFailed';
  constructor(
    /** too_large: over maxBytes (`declared` when its Content-Length said so); unreachable: no connection (`detail` the code). */
    readonly reason: 'timeout' | 'too_large' | 'unreachable' | 'broken',
    readonly detail?: { declared?: number; code?: string },
  ) {
    super(reason);
  }
}

export function pinnedRequest(target: PinnedTarget, options: PinnedRequestOptions): Promise<PinnedAnswer> {
  return new Promise<PinnedAnswer>((resolve, reject) => {
    let settled = false;
    const finish = (error: Error | null, answer?: PinnedAnswer) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      if (error) reject(error);
      else resolve(answer!);
    };
    const request = (target.url.protocol === 'https:' ? https : http).request(
      target.url,
      {
        method: options.method ?? 'GET',
        lookup: pinnedLookup(target),
        agent: false,
        headers: options.headers,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        if (status >= 300 && status < 400 && response.headers.location) {
          finish(null, {
            kind: 'redirect',
            status,
            location: new URL(response.headers.location, target.url).toString(),
          });
          return;
        }
        const declared = Number(response.headers['content-length']);
        if (declared > options.maxBytes) {
          finish(new PinnedRequestFailed('too_large', { declared }));
          return;
        }
        const chunks: Buffer[] = [];
        let read = 0;
        response.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > options.maxBytes) {
            finish(new PinnedRequestFailed('too_large'));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () =>
          finish(null, {
            kind: 'answer',
            status,
            contentType: String(response.headers['content-type'] ?? ''),
            body: Buffer.concat(chunks),
          }),
        );
        response.on('error', () => finish(new PinnedRequestFailed('broken')));
      },
    );
    const timer = setTimeout(() => finish(new PinnedRequestFailed('timeout')), options.timeoutMs);
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish(new PinnedRequestFailed('unreachable', { code: error.code ?? error.message })),
    );
    request.end(options.body);
  });
}
