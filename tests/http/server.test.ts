// The production HTTP server (createHttpServer): what Express expects of each request holds
// from the moment the request is made, not only after Express has adjusted it.
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import net, { type AddressInfo } from 'node:net';
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
      // Still Node's own kinds of object: Node's internals and other libraries check this.
      expect(req).toBeInstanceOf(http.IncomingMessage);
      expect(res).toBeInstanceOf(http.ServerResponse);
      // Express gave them no other prototype on its way through.
      expect(Object.getPrototypeOf(req)).toBe(app.request);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('relies on Node constructing its messages when applied to an object made elsewhere', () => {
    // What constructorWithSettablePrototype does: if Node's constructors became classes, this
    // would throw ("cannot be invoked without new"), and the server test above would fail too.
    const socket = new net.Socket();
    const request = Object.create(http.IncomingMessage.prototype) as IncomingMessage;
    expect(() =>
      (http.IncomingMessage as unknown as { apply(self: unknown, args: unknown[]): unknown }).apply(request, [
        socket,
      ]),
    ).not.toThrow();
    expect(request.headers).toEqual({});
    socket.destroy();
  });
});
