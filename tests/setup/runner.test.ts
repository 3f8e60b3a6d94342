// The runner's end of a run (tests/setup/runner.js): a worker still freeing its heap after the
// end message is waited for well past jest-worker's own 500 ms, and one that never exits is still
// force-exited and reported. The clock is moved, not waited on.
/* eslint-disable @typescript-eslint/no-require-imports */
import path from 'node:path';

const runner = require('./runner.js') as { default: unknown; WORKER_EXIT_GRACE_MS: number };
const workerRoot = path.dirname(require.resolve('jest-worker/package.json'));
const BaseWorkerPool = require(path.join(workerRoot, 'build', 'base', 'BaseWorkerPool.js')).default;
const { CHILD_MESSAGE_END } = require(path.join(workerRoot, 'build', 'types.js'));

/** A worker that exits `exitAfterMs` after its end message (never, when undefined). */
function fakeWorker(exitAfterMs: number | undefined) {
  let exit!: () => void;
  const exited = new Promise<void>((resolve) => (exit = resolve));
  const worker = {
    sent: [] as unknown[],
    forceExited: false,
    send(message: unknown) {
      worker.sent.push(message);
      if (exitAfterMs !== undefined) setTimeout(exit, exitAfterMs);
    },
    waitForExit: () => exited,
    forceExit() {
      worker.forceExited = true;
      exit();
    },
  };
  return worker;
}

function endPool(workers: ReturnType<typeof fakeWorker>[]): Promise<{ forceExited: boolean }> {
  // BaseWorkerPool.end reads only the pool's workers.
  return BaseWorkerPool.prototype.end.call({ _workers: workers });
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('Jest runs its tests through this runner, which is jest-runner', () => {
  expect(require('../../jest.config.js').runner).toBe('<rootDir>/tests/setup/runner.js');
  expect(runner.default).toBe(require('jest-runner').default);
});

test('a worker that takes longer than 500 ms to exit is waited for, not killed', async () => {
  const slow = fakeWorker(1_900);
  const quick = fakeWorker(5);
  const ended = endPool([slow, quick]);
  await jest.advanceTimersByTimeAsync(1_900);
  await expect(ended).resolves.toEqual({ forceExited: false });
  expect(slow.sent).toEqual([[CHILD_MESSAGE_END, false]]);
  expect([slow.forceExited, quick.forceExited]).toEqual([false, false]);
});

test('a worker that never exits is force-exited after the grace period and reported', async () => {
  const stuck = fakeWorker(undefined);
  const fine = fakeWorker(5);
  let settled = false;
  const ended = endPool([stuck, fine]).finally(() => (settled = true));
  await jest.advanceTimersByTimeAsync(runner.WORKER_EXIT_GRACE_MS - 1);
  expect(settled).toBe(false);
  await jest.advanceTimersByTimeAsync(1);
  await expect(ended).resolves.toEqual({ forceExited: true });
  expect([stuck.forceExited, fine.forceExited]).toEqual([true, false]);
});
