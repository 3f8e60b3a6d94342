// Jest runner: Jest's own (jest-runner), with a longer wait for each test worker to exit at the
// end of a run. jest-worker 29 kills a worker 500 ms after its end message and warns of "tests
// leaking due to improper teardown"; ours hold nothing by then (their event loop is empty at
// once), and what is left is Node freeing the worker's heap, which a loaded machine stretches past
// 500 ms (docs/performance.md, "Test workers at exit"). A worker that really leaks never exits, so
// it is still killed, and named, after the longer wait. Upstream:
// https://github.com/jestjs/jest/issues/11354 (Jest 30.4's workerGracefulExitTimeout replaces this).
const path = require('node:path');

const WORKER_EXIT_GRACE_MS = 5_000;

const workerRoot = path.dirname(require.resolve('jest-worker/package.json'));
const workerVersion = require(path.join(workerRoot, 'package.json')).version;
if (!workerVersion.startsWith('29.')) {
  throw new Error(
    `tests/setup/runner.js adjusts jest-worker 29, found ${workerVersion}: on Jest 30.4 or later set ` +
      `workerGracefulExitTimeout: ${WORKER_EXIT_GRACE_MS} in jest.config.js and remove this runner`,
  );
}
// Not in jest-worker's public exports: read by path, for this major version only (checked above).
const { default: BaseWorkerPool } = require(path.join(workerRoot, 'build', 'base', 'BaseWorkerPool.js'));
const { CHILD_MESSAGE_END } = require(path.join(workerRoot, 'build', 'types.js'));

const ignore = () => undefined;

// jest-worker 29's BaseWorkerPool.end, with WORKER_EXIT_GRACE_MS for its fixed 500 ms.
BaseWorkerPool.prototype.end = async function end() {
  const exits = this._workers.map(async (worker) => {
    worker.send([CHILD_MESSAGE_END, false], ignore, ignore, ignore);
    let forceExited = false;
    const forceExit = setTimeout(() => {
      worker.forceExit();
      forceExited = true;
    }, WORKER_EXIT_GRACE_MS);
    await worker.waitForExit();
    clearTimeout(forceExit);
    return forceExited;
  });
  return { forceExited: (await Promise.all(exits)).some(Boolean) };
};

module.exports = { __esModule: true, default: require('jest-runner').default, WORKER_EXIT_GRACE_MS };
