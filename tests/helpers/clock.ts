// Moving the process's clock instead of sleeping: jest's modern fake timers, with only `Date`
// faked. Timers, I/O and the database run as usual, and the clock keeps ticking with real time
// (`advanceTimers`), so whatever reads Date.now() or new Date() (token, code and session expiry
// checks, the OAuth library's own) sees the jump, and nothing else is disturbed.
const REAL_TIMERS = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

export interface MovableClock {
  /** Moves Date forward by `ms`. */
  advance(ms: number): void;
  restore(): void;
}

export function movableClock(): MovableClock {
  jest.useFakeTimers({ doNotFake: [...REAL_TIMERS], advanceTimers: true });
  return {
    advance(ms) {
      jest.setSystemTime(Date.now() + ms);
    },
    restore() {
      jest.useRealTimers();
    },
  };
}
