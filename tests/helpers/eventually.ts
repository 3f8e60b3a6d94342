// The one way tests wait for something that happens off their own path: a write made after the
// answer, a child process's state, a server coming back. It asks again every few milliseconds
// and returns the last answer when time is up, so the test's own expect() reports what it saw.
// Prefer an event (a log line, a socket's close) where one exists; prefer a movable clock
// (clock.ts) where the code under test only reads the time.

export interface EventuallyOptions<T> {
  /** When the answer is the awaited one; by default, when it is truthy. */
  until?: (value: T) => boolean;
  /** How long to keep asking (default 5 s: generous for a loaded machine, never reached when all is well). */
  timeoutMs?: number;
  /** Pause between two questions (default 20 ms). */
  intervalMs?: number;
}

/**
 * Calls `check` until `until` accepts its answer or `timeoutMs` passes, and returns the last
 * answer. A `check` that throws is asked again; at the deadline its error is thrown.
 */
export async function eventually<T>(
  check: () => T | Promise<T>,
  { until = Boolean, timeoutMs = 5_000, intervalMs = 20 }: EventuallyOptions<T> = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let value: T;
    try {
      value = await check();
    } catch (error) {
      if (Date.now() >= deadline) throw error;
      await pause(intervalMs);
      continue;
    }
    if (until(value) || Date.now() >= deadline) return value;
    await pause(intervalMs);
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
