import pg from 'pg';
import type { Provider } from './migrate';

/**
 * What differs between SQLite and PostgreSQL in the SQL this layer writes by hand (the raw
 * reads and writes of decision 0003, the webhook outbox). database.ts picks one with the
 * database it opens and hands it on; everything else writes one statement for both.
 */
export interface Dialect {
  readonly provider: Provider;
  /** A fresh numbering of placeholders: `?` every time on SQLite, `$1`, `$2`, ... on PostgreSQL. */
  placeholders(): () => string;
  /** A DateTime to bind, as Prisma stores it (text: the process's time zone cannot shift it). */
  timestamp(at: Date): string;
  /** A timestamp parameter's placeholder, typed where a driver may send text. */
  timestampParam(placeholder: string): string;
  /** A stored DateTime as the drivers of this layer read it (PostgreSQL through `pgTypes`). */
  date(value: unknown): Date | null;
  /** A boolean to bind (better-sqlite3 binds no booleans). */
  bool(value: boolean): boolean | number;
  /** A JSON column's placeholder: a multi-row VALUES list types an untyped parameter as text, which jsonb does not take. */
  json(placeholder: string): string;
  /**
   * Row locks for a read before a write. Empty on SQLite, where a writer's transaction begins
   * IMMEDIATE and holds the database's write lock from its start.
   */
  readonly forUpdate: string;
  /** Row locks for a claim that passes over rows another claimer holds, rather than waiting. */
  readonly skipLocked: string;
  /** The lock a foreign key takes on the row it points to: waits for a FOR UPDATE of it. */
  readonly forKeyShare: string;
  /** A statement that queues transactions under one key until the holder ends, or null where they are queued anyway. */
  keyLock(key: string): { text: string; values: unknown[] } | null;
  /** keyLock's statement with its key in a given placeholder, for a statement of several parts; null where keyLock is. */
  keyLockText(placeholder: string): string | null;
  /**
   * Rows per INSERT: SQLite runs a one-row prepared statement again faster than it runs one
   * multi-row statement (no round trip to save); PostgreSQL saves a round trip per statement.
   */
  readonly rowsPerInsert: number;
  /** A number's integer floor, as an INTEGER. */
  floor(column: string): string;
  /**
   * Statements that must apply together, as the statements to run: on PostgreSQL one statement of
   * data-modifying CTEs (atomic by itself, one round trip); on SQLite the same statements, which
   * the caller runs in one transaction. Each carries how many values it takes, in order.
   * PostgreSQL runs the last part (the main query) first and the others after it, in an order it
   * does not promise: a part that must come first, a lock, goes last.
   */
  combine(parts: ReadonlyArray<Batched>): Batched[];
}

/** A statement and how many of a flat list of values it takes. */
export interface Batched {
  text: string;
  count: number;
}

/**
 * A stored DateTime as every raw read of this layer gets it: ISO text from SQLite, a Date from
 * PostgreSQL through `pgTypes`. The one conversion for both, so no read depends on the process's zone.
 */
export const readDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(String(value));

export const sqliteDialect: Dialect = {
  provider: 'sqlite',
  placeholders: () => () => '?',
  // Prisma's adapter-better-sqlite3 writes DateTime as ISO text with "+00:00"; keyset paging compares the text.
  timestamp: (at) => at.toISOString().replace('Z', '+00:00'),
  timestampParam: (placeholder) => placeholder,
  date: readDate,
  bool: (value) => (value ? 1 : 0),
  json: (placeholder) => placeholder,
  forUpdate: '',
  skipLocked: '',
  forKeyShare: '',
  keyLock: () => null,
  keyLockText: () => null,
  rowsPerInsert: 1,
  floor: (column) => `CAST(${column} AS INTEGER)`,
  combine: (parts) => [...parts],
};

/**
 * Prisma stores DateTime as `timestamp(3)` without a zone, holding UTC; node-postgres would read
 * such values in the process's zone. Every raw PostgreSQL read of this layer passes these types.
 */
const TIMESTAMP_OID = 1114;
export const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === TIMESTAMP_OID
      ? (value: string) => new Date(`${value.replace(' ', 'T')}Z`)
      : pg.types.getTypeParser(oid, format)) as pg.CustomTypesConfig['getTypeParser'],
};

const postgresKeyLock = (placeholder: string) =>
  `SELECT pg_advisory_xact_lock(hashtextextended(${placeholder}, 0))`;

export const postgresDialect: Dialect = {
  provider: 'postgresql',
  placeholders: () => {
    let n = 0;
    return () => `$${++n}`;
  },
  timestamp: (at) => at.toISOString().replace('T', ' ').replace('Z', ''),
  timestampParam: (placeholder) => `CAST(${placeholder} AS TIMESTAMP(3))`,
  date: readDate,
  bool: (value) => value,
  json: (placeholder) => `${placeholder}::jsonb`,
  forUpdate: ' FOR UPDATE',
  skipLocked: ' FOR UPDATE SKIP LOCKED',
  forKeyShare: ' FOR KEY SHARE',
  rowsPerInsert: 1000,
  keyLock: (key) => ({ text: postgresKeyLock('$1'), values: [key] }),
  keyLockText: (placeholder) => postgresKeyLock(placeholder),
  floor: (column) => `FLOOR(${column})::INTEGER`,
  combine: (parts) => {
    if (parts.length <= 1) return [...parts];
    const last = parts[parts.length - 1]!;
    const ctes = parts.slice(0, -1).map((part, i) => `s${i} AS (${part.text})`);
    return [{ text: `WITH ${ctes.join(', ')} ${last.text}`, count: parts.reduce((n, p) => n + p.count, 0) }];
  },
};

export const dialectOf = (provider: Provider): Dialect =>
  provider === 'postgresql' ? postgresDialect : sqliteDialect;
