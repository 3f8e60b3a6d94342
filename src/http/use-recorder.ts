/**
 * "Last used" bookkeeping for credentials, off the request path: at most one write per id per
 * interval (the stored value and this instance's own last write both count), scheduled after
 * the answer is on its way, failures only logged. Shared by API keys and OAuth grants.
 */
export const LAST_USED_INTERVAL_MS = 60_000;
const MAX_TRACKED = 10_000;

export function createUseRecorder(
  write: (id: string, at: Date, intervalMs: number) => Promise<unknown>,
  onError: (error: unknown) => void,
  options: { intervalMs?: number; onScheduled?: () => void } = {},
): (id: string, storedLastUsedAt: Date | null) => void {
  const { intervalMs = LAST_USED_INTERVAL_MS, onScheduled } = options;
  const lastWritten = new Map<string, number>();
  return (id, storedLastUsedAt) => {
    const now = Date.now();
    const known = Math.max(lastWritten.get(id) ?? 0, storedLastUsedAt?.getTime() ?? 0);
    if (now - known < intervalMs) return;
    if (lastWritten.size >= MAX_TRACKED) lastWritten.clear();
    lastWritten.set(id, now);
    onScheduled?.();
    setImmediate(() => {
      write(id, new Date(now), intervalMs).catch(onError);
    });
  };
}
