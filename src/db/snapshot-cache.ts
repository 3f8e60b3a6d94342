import type BetterSqlite3 from 'better-sqlite3';

/**
 * What the per-request reads on SQLite found (a credential's row, a quiz with its questions),
 * kept for as long as the database has not changed since.
 *
 * `PRAGMA data_version` on the reader connection moves whenever any other connection commits,
 * in this process or in any other process on the same file (SQLite's own guarantee; the reader
 * never writes). Every lookup asks it first and drops everything on a change, so a revoked key,
 * an ended OAuth grant or an edited quiz, written through any instance, is never served from
 * here on the next request. What it saves: the version check costs a trivial read transaction,
 * the lookups it replaces cost several (with their rows turned into objects).
 *
 * Values are frozen (callers share them), misses are not kept (guessed keys cannot fill it), and
 * the whole stays under a budget counted in characters and objects (a quiz can hold 100
 * questions of 2,000 characters), oldest out first. Only the embedded SQLite default has it:
 * PostgreSQL has no cheap "did anything change" question.
 */
export interface SnapshotCache {
  /** The value under `key` if the database is unchanged since it was stored; else `load()`'s, stored. */
  read<T extends object>(key: string, load: () => T | null): T | null;
}

/** Keeps nothing: every read goes to the database (the SQLite reads given no cache). */
export const NO_SNAPSHOT_CACHE: SnapshotCache = { read: (_key, load) => load() };

/** About 16 MB at most: string characters, plus 32 for each object and each other value. */
export const SNAPSHOT_CACHE_BUDGET = 8_000_000;

/** Freezes a plain value all the way down; returns its weight in the budget's units. */
function freeze(value: unknown): number {
  if (typeof value === 'string') return value.length;
  if (value === null || typeof value !== 'object' || value instanceof Date) return 32;
  Object.freeze(value);
  let weight = 32;
  for (const inner of Object.values(value)) weight += freeze(inner);
  return weight;
}

export function sqliteSnapshotCache(
  connection: () => BetterSqlite3.Database,
  budget = SNAPSHOT_CACHE_BUDGET,
): SnapshotCache {
  let dataVersion: BetterSqlite3.Statement<[], number> | undefined;
  let version: number | undefined;
  const entries = new Map<string, { value: object; weight: number }>();
  let total = 0;
  return {
    read(key, load) {
      dataVersion ??= connection().prepare<[], number>('PRAGMA data_version').pluck();
      const now = dataVersion.get()!;
      if (now !== version) {
        entries.clear();
        total = 0;
        version = now;
      }
      const kept = entries.get(key);
      if (kept) return kept.value as ReturnType<typeof load>;
      // Read after the version: a write landing in between is newer than `version`, so the
      // next lookup sees the version move and drops this entry.
      const value = load();
      if (value === null) return null;
      const weight = freeze(value) + key.length;
      if (weight > budget / 4) return value;
      for (const [oldest, entry] of entries) {
        if (total + weight <= budget) break;
        entries.delete(oldest);
        total -= entry.weight;
      }
      entries.set(key, { value, weight });
      total += weight;
      return value;
    },
  };
}
