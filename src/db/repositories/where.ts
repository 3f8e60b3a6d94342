// The `where` clauses more than one repository writes.

/** A position in a keyset-paged list: the (timestamp, id) of the last row seen. */
export interface KeysetPosition {
  at: Date;
  id: string;
}

/** Rows strictly older than a position in (column desc, id desc) order. */
export function olderThanWhere<K extends string>(column: K, after: KeysetPosition) {
  return {
    OR: [{ [column]: { lt: after.at } }, { [column]: after.at, id: { lt: after.id } }],
  } as { OR: Array<Record<string, unknown>> };
}

/** Rows strictly newer than a position in (column asc, id asc) order. */
export function newerThanWhere<K extends string>(column: K, after: KeysetPosition) {
  return {
    OR: [{ [column]: { gt: after.at } }, { [column]: after.at, id: { gt: after.id } }],
  } as { OR: Array<Record<string, unknown>> };
}

/**
 * Rows whose `lastUsedAt` is unset or older than `intervalMs` before `at`: a use is written at
 * most once per interval, whatever the number of requests.
 */
export function lastUsedBefore(at: Date, intervalMs: number) {
  return { OR: [{ lastUsedAt: null }, { lastUsedAt: { lt: new Date(at.getTime() - intervalMs) } }] };
}
