/** Long enough for a queue of concurrent writes to one row to drain instead of failing. */
export const WRITE_TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 20_000 } as const;
