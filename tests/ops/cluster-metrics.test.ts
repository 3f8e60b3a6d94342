// With WORKERS=2 a scrape of /metrics lands on one worker, and answers for both: the worker asks
// the primary, which sums every worker's registry. The built service in a child process, its
// requests spread over both workers by a new connection each.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../helpers/eventually';
import { freePort, spawnService, stopService, waitForLine } from '../helpers/service-process';

/** One GET on a connection of its own, so the primary hands each to the next worker. */
function get(port: number, pathname: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: pathname, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
  });
}

const healthCount = (body: string) =>
  Number(/^http_requests_total\{[^}]*route="\/healthz"[^}]*status="200"[^}]*\} (\d+)$/m.exec(body)?.[1] ?? 0);

describe('/metrics with two workers', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-cluster-metrics-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('one scrape shows the requests both workers served', async () => {
    const port = await freePort();
    const child = spawnService(
      { PORT: String(port), DATABASE_URL: `file:${dir}/quiz.db`, LOG_LEVEL: 'info', WORKERS: '2' },
      dir,
    );
    try {
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const listening = () => output.split('\n').filter((line) => line.includes('quiz service listening'));
      await waitForLine(child, /quiz service listening/, 25_000);
      await eventually(() => listening().length >= 2, { timeoutMs: 20_000 });
      expect(listening()).toHaveLength(2); // one line per worker

      for (let i = 0; i < 20; i++) expect((await get(port, '/healthz')).status).toBe(200);
      // Whichever worker takes each scrape, it answers the sum.
      for (let i = 0; i < 4; i++) {
        const scrape = await get(port, '/metrics');
        expect(scrape.status).toBe(200);
        expect(healthCount(scrape.body)).toBe(20);
      }
    } finally {
      await stopService(child);
    }
  }, 30_000);
});
