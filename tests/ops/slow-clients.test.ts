// A slow client or a huge body cannot tie up the server: timeouts and limits are set.
import http from 'node:http';
import net from 'node:net';
import { createApp } from '../../src/app';
import { testConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { startServer, type RunningServer } from '../../src/server';
import { rawExchange } from '../helpers/http';
import { memoryLog } from '../helpers/memory-log';
import { ACCEPT_BOTH, createTestUser, toolCall } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

describe('slow and oversized clients', () => {
  let database: TestDatabase;
  let running: RunningServer;
  const logger = createLogger('silent');

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    const app = createApp({ config: testConfig({ maxBodyBytes: 4096 }), database, logger });
    running = await startServer(app, {
      port: 0,
      host: '127.0.0.1',
      logger,
      limits: { headersTimeoutMs: 500, requestTimeoutMs: 1_000, keepAliveTimeoutMs: 500 },
    });
  });
  afterAll(async () => {
    await running.stop({ drainMs: 0, timeoutMs: 1_000 }, () => database.drop());
  });

  const healthy = () =>
    new Promise<number>((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port: running.port, path: '/healthz' }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        })
        .on('error', reject);
    });

  test('headers that never finish: the connection is closed after the headers timeout, others are served meanwhile', async () => {
    const slow = rawExchange(running.port, (socket) => socket.write('POST /api/mcp HTTP/1.1\r\nHost: x\r\n'));
    expect(await healthy()).toBe(200);
    const { ms, reply } = await slow;
    expect(ms).toBeLessThan(4_000);
    expect(reply).toMatch(/^HTTP\/1.1 408/);
  });

  test('a body that trickles forever: closed after the request timeout', async () => {
    const { ms } = await rawExchange(running.port, (socket) => {
      socket.write(
        'POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
      );
    });
    expect(ms).toBeLessThan(5_000);
  });

  test('a huge body is refused with 413 without being read to the end', async () => {
    const { reply } = await rawExchange(running.port, (socket) => {
      socket.write(
        'POST /api/mcp HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 50000000\r\nConnection: close\r\n\r\n',
      );
      socket.write('{"a":"' + 'x'.repeat(10_000));
    });
    // No credential: 401 comes before the body is read at all; nothing of 50 MB is buffered.
    expect(reply).toMatch(/^HTTP\/1.1 (401|413)/);
  });
});

describe('clients that leave', () => {
  test('mid-body or right after sending a call: nothing fails, nothing is logged as an error, the next call is served', async () => {
    const database = await createTestDatabase('sqlite');
    const log = memoryLog();
    const logger = createLogger('info', log.stream);
    const app = createApp({
      config: testConfig({ rateLimit: { max: 1000, windowSeconds: 60 } }),
      database,
      logger,
    });
    const running = await startServer(app, { port: 0, host: '127.0.0.1', logger });
    try {
      const { apiKey } = await createTestUser(database);
      const call = JSON.stringify(toolCall('list_quizzes'));
      const head = (length: number) =>
        `POST /api/mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${apiKey}\r\n` +
        `Content-Type: application/json\r\nAccept: ${ACCEPT_BOTH}\r\nContent-Length: ${length}\r\n\r\n`;
      const leave = (payload: string, afterMs: number) =>
        new Promise<void>((resolve) => {
          const socket = net.connect(running.port, '127.0.0.1', () => {
            socket.write(payload);
            setTimeout(() => socket.destroy(), afterMs);
          });
          socket.on('close', () => resolve());
          socket.on('error', () => undefined);
        });
      for (let i = 0; i < 20; i += 1) {
        await leave(head(call.length) + call, i % 3); // the whole call, then gone
        await leave(head(call.length) + call.slice(0, 20), i % 3); // half a body, then gone
      }
      const res = await fetch(`http://127.0.0.1:${running.port}/api/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${apiKey}`,
          'Content-Type': 'application/json',
          Accept: ACCEPT_BOTH,
        },
        body: call,
      });
      expect(res.status).toBe(200);
      expect(await res.text()).toMatch(/^data: .*"quizzes":\[\]/m);
      expect(log.lines().filter((line) => (line.level as number) >= 50)).toEqual([]);
    } finally {
      await running.stop({ drainMs: 0, timeoutMs: 1_000 }, () => database.drop());
    }
  });
});
