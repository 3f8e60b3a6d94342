/**
 * When deliveries are tried: Svix's schedule. The first attempt goes at once; after each
 * failure the next waits the following delay; after the eighth the delivery has failed.
 */
export const RETRY_DELAYS_MS = [
  0,
  5_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;

/** An endpoint whose deliveries have all failed for this long is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3_600_000;

/** How long a rotated-out secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_MS = 24 * 3_600_000;

/** Success means a 2xx answer within this long. */
export const DELIVERY_TIMEOUT_MS = 15_000;

/** The next attempt after `attempts` failed ones, or null when the schedule is spent. */
export function nextAttemptAfter(attempts: number, failedAt: Date): Date | null {
  const delay = RETRY_DELAYS_MS[attempts];
  return delay === undefined ? null : new Date(failedAt.getTime() + delay);
}
