// HTTP/1.1 requires a 400 for a request with more than one Host header (RFC 9112, 3.2): a
// proxy in front may have routed by another one than the one Node keeps. Sent over a raw
// socket to a started server, since an HTTP client cannot send two.
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startServer, type RunningServer } from '../../src/server';
import { rawExchange } from '../helpers/http';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

describe('a repeated Host header', () => {
  let database: TestDatabase;
  let running: RunningServer;
  const logger = createLogger('silent');

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    const app = createApp({ config: testConfig(), database, logger });
    running = await startServer(app, { port: 0, host: '127.0.0.1', logger });
  });
  afterAll(async () => {
    await running.stop({ drainMs: 0, timeoutMs: 1_000 }, () => database.drop());
  });

  const send = (path: string, hosts: string[]) =>
    rawExchange(running.port, (socket) =>
      socket.write(
        `GET ${path} HTTP/1.1\r\n${hosts.map((host) => `Host: ${host}\r\n`).join('')}Connection: close\r\n\r\n`,
      ),
    );

  test.each(['/', '/healthz', '/api/mcp'])('%s with two Host headers is a 400 that says so', async (path) => {
    const { reply } = await send(path, ['127.0.0.1', 'evil.example']);
    expect(reply).toMatch(/^HTTP\/1\.1 400 /);
    expect(reply).toContain('more than one Host header');
  });

  test('the same Host twice is refused too; one Host is served', async () => {
    expect((await send('/healthz', ['127.0.0.1', '127.0.0.1'])).reply).toMatch(/^HTTP\/1\.1 400 /);
    expect((await send('/healthz', ['127.0.0.1'])).reply).toMatch(/^HTTP\/1\.1 200 /);
  });
});
