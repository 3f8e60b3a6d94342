// Plain HTTP calls to /api/mcp as curl or a script without an MCP library makes them
// (spec "Transport"), through supertest against the real app.
import net from 'node:net';
import request from 'supertest';
import { ACCEPT_BOTH, sseMessages, type TestApp } from './test-app';

export interface McpPostOptions {
  /** The bearer credential; `null` sends no Authorization header. */
  credential: string | null;
  /** The Accept header; `null` sends none. Default: the spec's `application/json, text/event-stream`. */
  accept?: string | null;
  contentType?: string;
  /** Sent as-is when a string, as JSON otherwise. */
  body?: unknown;
  headers?: Record<string, string>;
  /** The connector URL's query, e.g. `?toolsets=grading`. */
  query?: string;
}

export function postMcp(app: TestApp, options: McpPostOptions): request.Test {
  const { credential, accept = ACCEPT_BOTH, contentType = 'application/json', body, headers = {} } = options;
  let req = request(app.app)
    .post(`/api/mcp${options.query ?? ''}`)
    .set('Content-Type', contentType);
  if (credential !== null) req = req.set('Authorization', `Bearer ${credential}`);
  if (accept !== null) req = req.set('Accept', accept);
  for (const [name, value] of Object.entries(headers)) req = req.set(name, value);
  return req.send(typeof body === 'string' ? body : JSON.stringify(body));
}

/** The one JSON-RPC response of an SSE answer (fails the test if there is not exactly one). */
export function onlyMessage(text: string): ReturnType<typeof sseMessages>[number] {
  const messages = sseMessages(text);
  expect(messages).toHaveLength(1);
  return messages[0];
}

/** An RFC 9457 problem body as the spec describes it. */
export function expectProblem(
  res: { status: number; headers: Record<string, string>; body: unknown },
  baseUrl: string,
  code: string,
): void {
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(res.body).toMatchObject({
    type: `${baseUrl}/en/docs/api-reference#error-${code}`,
    title: expect.any(String),
    status: res.status,
    code,
  });
}

/**
 * A raw TCP exchange with a server on 127.0.0.1: `send` writes whatever it likes once connected;
 * resolves with all the server wrote, when the connection closes, and how long that took.
 */
export function rawExchange(
  port: number,
  send: (socket: net.Socket) => void,
): Promise<{ ms: number; reply: string }> {
  return new Promise((resolve) => {
    const started = Date.now();
    const chunks: Buffer[] = [];
    const socket = net.connect(port, '127.0.0.1', () => send(socket));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', () =>
      resolve({ ms: Date.now() - started, reply: Buffer.concat(chunks).toString('utf8') }),
    );
    // A reset ends in 'close' too, with what had arrived.
    socket.on('error', () => undefined);
  });
}
