// The end of a run: a worker with nothing left open can take past Jest's default 500 ms to exit
// while Node frees its heap on a loaded machine (docs/performance.md, "Test workers at exit").
// jest.config.js gives it longer through Jest's own setting, not a runner of ours.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require('../../jest.config.js') as { workerGracefulExitTimeout?: number; runner?: string };

test('jest.config.js waits 5 s for a worker to exit, through the setting Jest publishes', () => {
  expect(config.workerGracefulExitTimeout).toBe(5_000);
  expect(config.runner).toBeUndefined();
});
