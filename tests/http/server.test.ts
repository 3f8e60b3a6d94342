// The production HTTP server (createHttpServer): what Express expects of each request holds
// from the moment the request is made, not only after Express has adjusted it.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { createHttpServer } from '../../src/server';

describe('createHttpServer', () => {
  it('makes requests and responses with the app’s own prototypes, and serves the app', async () => {
    const app = express();
    app.get('/who', (req, res) => {
      res.json({ ip: req.ip, path: req.path, hasApp: req.app === app });
    });
    const { server, serve } = createHttpServer();
    const seen: Array<[IncomingMessage, ServerResponse]> = [];
    // Runs before Express touches the objects.
    server.on('request', (req: IncomingMessage, res: ServerResponse) => seen.push([req, res]));
    serve(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await fetch(`http://127.0.0.1:${port}/who?x=1`);
      expect(await answer.json()).toEqual({ ip: '127.0.0.1', path: '/who', hasApp: true });
      expect(seen).toHaveLength(1);
      const [req, res] = seen[0]!;
      expect(Object.getPrototypeOf(req)).toBe(app.request);
      expect(Object.getPrototypeOf(res)).toBe(app.response);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
