// A loopback HTTP proxy that adds `Authorization: Bearer <credential>` to every request and
// passes everything else through unchanged, both ways (method, path, headers, body, status,
// streamed answers). For clients that send no credential of their own: the conformance suite.
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface BearerProxy {
  /** The proxy's origin, e.g. http://127.0.0.1:41234. */
  url: string;
  host: string;
  /** Points the proxy at a server and the credential to add (it starts before both exist). */
  forward(port: number, credential: string): void;
  close(): Promise<void>;
}

export async function startBearerProxy(): Promise<BearerProxy> {
  let targetPort: number | undefined;
  let credential = '';
  const server = http.createServer((req, res) => {
    if (targetPort === undefined) {
      res.writeHead(503).end();
      return;
    }
    const upstream = http.request(
      {
        host: '127.0.0.1',
        port: targetPort,
        method: req.method,
        path: req.url,
        headers: { ...req.headers, authorization: `Bearer ${credential}` },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    host: `127.0.0.1:${port}`,
    forward: (port, bearer) => {
      targetPort = port;
      credential = bearer;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
