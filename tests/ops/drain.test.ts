// A rolling restart under load, on the real process: SIGTERM while keep-alive clients keep
// sending. /readyz fails at once, everything else is still served through the drain period,
// then the listener closes and each connection ends after its next answer (Connection: close):
// every request sent before the close gets its whole answer, none is reset, and connections
// opened after it are refused cleanly.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { eventually } from '../helpers/eventually';
import { freePort, spawnService, stopService, waitForLine } from '../helpers/service-process';

type Outcome =
  | { kind: 'answered'; sentAt: number; receivedAt: number; status: number; connection: string | undefined }
  | { kind: 'refused'; sentAt: number }
  | { kind: 'broken'; sentAt: number; error: string };

function send(agent: http.Agent, port: number, requestPath: string): Promise<Outcome> {
  const sentAt = Date.now();
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: requestPath, agent }, (res) => {
      const receivedAt = Date.now();
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const body = Buffer.concat(chunks).toString();
        const length = Number(res.headers['content-length'] ?? Buffer.byteLength(body));
        // A complete answer: the whole body its headers announced.
        if (Buffer.byteLength(body) !== length) {
          resolve({ kind: 'broken', sentAt, error: `body cut at ${Buffer.byteLength(body)} of ${length}` });
          return;
        }
        resolve({
          kind: 'answered',
          sentAt,
          receivedAt,
          status: res.statusCode ?? 0,
          connection: res.headers.connection,
        });
      });
      res.on('error', (error) => resolve({ kind: 'broken', sentAt, error: error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      resolve(
        error.code === 'ECONNREFUSED'
          ? { kind: 'refused', sentAt }
          : { kind: 'broken', sentAt, error: `${error.code ?? ''} ${error.message}` },
      ),
    );
  });
}

describe('SIGTERM under load', () => {
  test('drain, then stop: no request sent before the listener closed is lost', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-drain-'));
    const port = await freePort();
    const drainMs = 1_500;
    const child = spawnService(
      {
        PORT: String(port),
        DATABASE_URL: `file:${dir}/quiz.db`,
        LOG_LEVEL: 'info',
        SHUTDOWN_DRAIN_MS: String(drainMs),
        SHUTDOWN_TIMEOUT_MS: '10000',
      },
      dir,
    );
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child.once('exit', (code) => resolve({ code, at: Date.now() })),
    );
    // The service's own log: when it began to drain and when it began to close, by its clock
    // (the same machine's), so that what is checked does not depend on how busy the host is.
    let log = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      log += chunk.toString();
    });
    const loggedAt = (pattern: RegExp): number => {
      const line = log.split('\n').find((l) => pattern.test(l));
      if (!line) throw new Error(`no log line matching ${pattern}; log: ${log}`);
      return (JSON.parse(line) as { time: number }).time;
    };
    const agents: http.Agent[] = [];
    try {
      await waitForLine(child, /quiz service listening/);

      // Eight keep-alive clients, each sending one request after another until refused (or,
      // should that never come, until a safety stop long after the listener has closed).
      let giveUp = false;
      const outcomes: Outcome[] = [];
      const clients = Array.from({ length: 8 }, async (_, index) => {
        const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
        agents.push(agent);
        const requestPath = index % 2 === 0 ? '/healthz' : '/openapi.json';
        let lastAnswer: Outcome | undefined;
        for (;;) {
          const outcome = await send(agent, port, requestPath);
          outcomes.push(outcome);
          if (outcome.kind === 'answered') lastAnswer = outcome;
          if (outcome.kind === 'refused' || giveUp) return { outcome, lastAnswer };
        }
      });

      // Every client under way (two answers each, on average) before the signal.
      await eventually(() => outcomes.filter((outcome) => outcome.kind === 'answered').length >= 16);
      const signalledAt = Date.now();
      child.kill('SIGTERM');

      // Readiness fails as soon as the signal is handled (the process may answer a request or two
      // that it read first); liveness and everything else are still served.
      const readiness = await eventually(() => send(new http.Agent(), port, '/readyz'), {
        until: (outcome) => !(outcome.kind === 'answered' && outcome.status === 200),
        timeoutMs: 1_000,
        intervalMs: 0,
      });
      expect(readiness).toMatchObject({ kind: 'answered', status: 503 });
      expect((await send(new http.Agent(), port, '/healthz')) as Outcome).toMatchObject({
        kind: 'answered',
        status: 200,
      });

      // The moment the listener closes: the first refused connection attempt.
      const probe = await eventually(() => send(new http.Agent(), port, '/healthz'), {
        until: (outcome) => outcome.kind === 'refused',
        timeoutMs: 10_000,
        intervalMs: 10,
      });
      expect(probe.kind).toBe('refused');
      const listenerClosedAt = probe.sentAt;
      const safetyStop = setTimeout(() => {
        giveUp = true;
      }, 5_000);
      const lastOutcomes = await Promise.all(clients);
      clearTimeout(safetyStop);
      const { code, at } = await exited;

      const drainingFrom = loggedAt(/shutting down/);
      const closingFrom = loggedAt(/drain period over/);
      expect(listenerClosedAt).toBeGreaterThanOrEqual(closingFrom);

      const broken = outcomes.filter((outcome) => outcome.kind === 'broken');
      expect(broken).toEqual([]);
      const beforeClose = outcomes.filter((outcome) => outcome.sentAt < closingFrom);
      for (const outcome of beforeClose) {
        if (outcome.kind === 'refused') continue; // a new connection racing the close: refused, not lost
        expect(outcome).toMatchObject({ kind: 'answered', status: 200 });
      }
      // The drain lasted as configured and served as usual, keeping connections open: an answer
      // received before the service began to close was made while it drained...
      expect(closingFrom - drainingFrom).toBeGreaterThanOrEqual(drainMs - 5);
      const answered = outcomes.filter(
        (outcome): outcome is Extract<Outcome, { kind: 'answered' }> => outcome.kind === 'answered',
      );
      const duringDrain = answered.filter(
        (outcome) => outcome.sentAt > drainingFrom && outcome.receivedAt < closingFrom,
      );
      expect(duringDrain.length).toBeGreaterThan(20);
      expect(duringDrain.filter((outcome) => outcome.connection === 'close')).toEqual([]);
      // ...and one asked for after it began to close ended its connection after a complete answer.
      const afterClose = answered.filter((outcome) => outcome.sentAt > closingFrom);
      expect(afterClose.filter((outcome) => outcome.connection !== 'close')).toEqual([]);
      // Each client's connection ended with an answer that said so, then a clean refusal.
      expect(lastOutcomes.map(({ lastAnswer }) => lastAnswer)).toEqual(
        Array(8).fill(expect.objectContaining({ kind: 'answered', status: 200, connection: 'close' })),
      );
      // Every client ended with a clean refusal once the listener had closed.
      expect(lastOutcomes.map(({ outcome }) => outcome.kind)).toEqual(Array(8).fill('refused'));
      expect(code).toBe(0);
      expect(at - signalledAt).toBeLessThan(10_000);
    } finally {
      for (const agent of agents) agent.destroy();
      await stopService(child);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});
