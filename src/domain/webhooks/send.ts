import http from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { pinnedLookup } from '../outbound-address';
import { checkTarget, type Resolver } from './address';

/** How an attempt ended, as the delivery log and the metrics count it. */
export type AttemptOutcome =
  'success' | 'http_error' | 'gone' | 'redirect' | 'timeout' | 'network_error' | 'refused_address';

export interface SendResult {
  outcome: AttemptOutcome;
  status: number | null;
  latencyMs: number;
  /** The first bytes of the answer, or what went wrong. */
  snippet: string | null;
}

export interface SendOptions {
  allowLoopback: boolean;
  timeoutMs: number;
  resolve?: Resolver;
}

/** The most of an answer that is read; the rest is cut off. */
const MAX_ANSWER_BYTES = 16_384;
/** What the delivery log keeps of it. */
const SNIPPET_BYTES = 300;

/**
 * One POST to a receiver: the address is checked first and the connection pinned to it,
 * redirects are not followed (a 3xx is a failure), the answer is read up to a cap, and the
 * whole exchange ends after `timeoutMs`.
 */
export async function sendWebhook(
  target: { url: string; headers: Record<string, string>; body: string },
  options: SendOptions,
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const checked = await checkTarget(target.url, options);
  if (!checked.ok)
    return { outcome: 'refused_address', status: null, latencyMs: elapsed(), snippet: checked.reason };
  const { url, address, family } = checked;
  // The connection goes to the checked address whatever DNS says now; TLS still checks the name.
  const pinned = pinnedLookup({ address, family });
  const body = Buffer.from(target.body, 'utf8');
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, 'latencyMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.destroy();
      resolve({ ...result, latencyMs: elapsed() });
    };
    const request = (url.protocol === 'https:' ? https : http).request(
      url,
      {
        method: 'POST',
        lookup: pinned,
        agent: false,
        headers: { ...target.headers, 'content-length': String(body.length) },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let read = 0;
        const done = () => {
          const snippet = Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8');
          finish({ outcome: outcomeOf(status), status, snippet: snippet || null });
        };
        response.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          read += chunk.length;
          if (read >= MAX_ANSWER_BYTES) done();
        });
        response.on('end', done);
        response.on('error', done);
      },
    );
    const timer = setTimeout(
      () =>
        finish({ outcome: 'timeout', status: null, snippet: `No answer within ${options.timeoutMs} ms.` }),
      options.timeoutMs,
    );
    request.on('error', (error: NodeJS.ErrnoException) =>
      finish({ outcome: 'network_error', status: null, snippet: error.code ?? error.message }),
    );
    request.end(body);
  });
}

function outcomeOf(status: number): AttemptOutcome {
  if (status >= 200 && status < 300) return 'success';
  if (status === 410) return 'gone';
  if (status >= 300 && status < 400) return 'redirect';
  return 'http_error';
}
