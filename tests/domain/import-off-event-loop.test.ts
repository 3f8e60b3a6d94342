import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { checkSource } from '../../src/domain/import/import-questions';
import { ReadPool } from '../../src/domain/import/read-pool';
import { isDomainError } from '../../src/domain/errors';
import { UPLOAD_BYTES_MAX } from '../../src/domain/uploads/uploads';
import { startTestApp, type TestApp } from '../helpers/test-app';

/**
 * A bank is read in a worker thread: while a hostile upload-sized text is read, the serving
 * thread keeps answering, and a reading past its deadline is refused without taking the pool down.
 */

const hostile = (size: number) => {
  // Whole questions, each with the openings the old patterns backtracked on: read to the end.
  const unit = '::t::[html]Q <!--<a <script>1.. {=a <b ~c}\n\n';
  return new TextEncoder().encode(unit.repeat(Math.ceil(size / unit.length)));
};
const file = (bytes: Uint8Array) => ({ file: { bytes, contentType: 'text/plain' } });

describe('imports are read off the event loop', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  it('keeps the event loop and /healthz responsive during a hostile upload-sized import', async () => {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    const reading = checkSource({}, file(hostile(UPLOAD_BYTES_MAX)), 'gift').catch((error: unknown) => error);
    delay.enable();
    let done = false;
    void reading.finally(() => {
      done = true;
    });
    const health: number[] = [];
    while (!done) {
      const start = performance.now();
      const response = await fetch(`${app.baseUrl}/healthz`);
      expect(response.status).toBe(200);
      health.push(performance.now() - start);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    delay.disable();
    await reading;
    expect(health.length).toBeGreaterThan(0);
    // The whole reading took longer than either bound: on the serving thread it would stall both.
    expect(delay.percentile(99) / 1e6).toBeLessThan(100);
    expect(Math.max(...health)).toBeLessThan(500);
  });

  it('refuses a reading past its deadline within the deadline and a margin, and reads the next', async () => {
    const pool = new ReadPool({ size: 1, deadlineMs: 200 });
    try {
      const start = performance.now();
      const error = await pool
        .read({ source: file(hostile(UPLOAD_BYTES_MAX)), format: 'gift' })
        .catch((thrown: unknown) => thrown);
      expect(performance.now() - start).toBeLessThan(200 + 1_500);
      expect(isDomainError(error) && error.code).toBe('invalid_input');
      expect((error as Error).message).toMatch(/took too long to read .*split it/);
      const next = await pool.read({ source: { text: 'Colour?{=blue ~red}' }, format: 'gift' });
      expect(next.questions).toHaveLength(1);
    } finally {
      await pool.close();
    }
  });

  it('refuses a job beyond the queue as busy, with the seconds to wait', async () => {
    const pool = new ReadPool({ size: 1, queueMax: 1, deadlineMs: 300 });
    try {
      const source = file(hostile(UPLOAD_BYTES_MAX));
      const running = pool.read({ source, format: 'gift' }).catch(() => undefined);
      const queued = pool.read({ source, format: 'gift' }).catch(() => undefined);
      const refused = await pool.read({ source, format: 'gift' }).catch((thrown: unknown) => thrown);
      expect(refused).toMatchObject({ retryAfterSeconds: 1 });
      expect((refused as Error).message).toMatch(/reading other imports: try again in 1 seconds/);
      await Promise.all([running, queued]);
    } finally {
      await pool.close();
    }
  });
});
