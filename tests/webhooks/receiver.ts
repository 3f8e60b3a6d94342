// A webhook receiver on 127.0.0.1 for the tests, and a Standard Webhooks signature check written
// here with node:crypto, independent of the service's own signing (which uses the
// standardwebhooks package).
import { createHmac, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: { type: string; timestamp: string; data: Record<string, any> };
}

/** What the receiver answers: a status (and headers), or nothing at all (a timeout). */
export type Answer = { status: number; headers?: Record<string, string>; body?: string } | 'hang';

export interface Receiver {
  url: string;
  received: Received[];
  /** Set what the next requests get; 200 "ok" by default. */
  answer: (request: Received) => Answer;
  close(): Promise<void>;
}

export async function startReceiver(path = '/hook'): Promise<Receiver> {
  const hanging = new Set<http.ServerResponse>();
  const receiver: Receiver = {
    url: '',
    received: [],
    answer: () => ({ status: 200, body: 'ok' }),
    close: async () => {
      for (const res of hanging) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const request: Received = { headers: req.headers, body, json: JSON.parse(body) };
      receiver.received.push(request);
      const answer = receiver.answer(request);
      if (answer === 'hang') {
        hanging.add(res);
        return;
      }
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  return receiver;
}

/**
 * The signatures of `request` that verify under `secret` ("whsec_" + base64 key), computed as
 * Standard Webhooks 1.0 defines them: base64 HMAC-SHA256 of "id.timestamp.body", prefixed "v1,".
 */
export function verifiedSignatures(request: Received, secret: string): number {
  const id = String(request.headers['webhook-id']);
  const timestamp = String(request.headers['webhook-timestamp']);
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${request.body}`).digest();
  return String(request.headers['webhook-signature'] ?? '')
    .split(' ')
    .filter((part) => {
      const [version, signature] = part.split(',');
      if (version !== 'v1' || !signature) return false;
      const given = Buffer.from(signature, 'base64');
      return given.length === expected.length && timingSafeEqual(given, expected);
    }).length;
}
