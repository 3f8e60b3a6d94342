// A loopback TCP proxy in front of a real server (PostgreSQL, Redis), so a test can make the
// server "go away" (drop every connection and refuse new ones) and "come back" on the same port.
import net from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every open connection and stops accepting new ones. */
  cut(): Promise<void>;
  /** Accepts connections again, on the same port. */
  restore(): Promise<void>;
  close(): Promise<void>;
}

export async function startTcpProxy(targetPort: number, targetHost = '127.0.0.1'): Promise<TcpProxy> {
  const sockets = new Set<net.Socket>();
  const handle = (client: net.Socket) => {
    const upstream = net.connect(targetPort, targetHost);
    sockets.add(client).add(upstream);
    const drop = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
    client.pipe(upstream).pipe(client);
  };
  let server = net.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as net.AddressInfo).port;
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      sockets.clear();
      if (!server.listening) {
        resolve();
        return;
      }
      server.close(() => resolve());
    });
  return {
    port,
    cut: stop,
    async restore() {
      server = net.createServer(handle);
      await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    },
    close: stop,
  };
}
