import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import { pgTypes, postgresDialect, sqliteDialect, type Batched, type Dialect } from './dialect';

/** One statement a transaction's steps ask the connection to run. */
export interface Step {
  returns: 'changes' | 'rows';
  text: string;
  values: readonly unknown[];
}

/**
 * A transaction's body, written once for both drivers as a generator of statements:
 * `const rows = yield* sqlRows<T>(text, values)`. SQLite runs it synchronously inside one
 * better-sqlite3 transaction, so a transaction never holds the write lock across a turn of the
 * event loop (another connection of the same process would wait on it for busy_timeout, with the
 * loop blocked); PostgreSQL awaits each statement on one pooled client.
 */
export type Steps<R> = Generator<Step, R, unknown>;

export function* sqlRun(text: string, values: readonly unknown[]): Steps<number> {
  return (yield { returns: 'changes', text, values }) as number;
}

export function* sqlRows<T>(text: string, values: readonly unknown[]): Steps<T[]> {
  return (yield { returns: 'rows', text, values }) as T[];
}

/** Runs each statement with its share of the values, in order. */
export function* sqlEach(statements: readonly Batched[], values: readonly unknown[]): Steps<void> {
  let from = 0;
  for (const statement of statements) {
    yield* sqlRun(statement.text, values.slice(from, from + statement.count));
    from += statement.count;
  }
}

/**
 * A raw-driver connection for this layer's writes, in its dialect's SQL. The texts it is given
 * are built once per shape by the callers, so each is prepared once (a named statement on
 * PostgreSQL) and found again by the same string.
 */
export interface SqlConnection {
  readonly dialect: Dialect;
  /** One statement on its own. */
  rows<T>(text: string, values: readonly unknown[]): Promise<T[]>;
  /** The steps in one transaction that excludes other writers of what it locks; retried after a deadlock. */
  transaction<R>(steps: () => Steps<R>): Promise<R>;
  /** Statements from `dialect.combine`, applied together, `values` split among them in order. */
  atomically(statements: readonly Batched[], values: readonly unknown[]): Promise<void>;
  /** A write that failed because a row it points to is gone. */
  isForeignKeyViolation(error: unknown): boolean;
  close(): Promise<void>;
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/**
 * SQLite: one connection of its own, opened on first use. Transactions begin IMMEDIATE (a writer
 * in another process makes it wait up to busy_timeout, not fail) and run to their end without
 * yielding, so nothing else on this connection interleaves with one.
 */
export function sqliteConnection(open: () => BetterSqlite3.Database): SqlConnection {
  let db: BetterSqlite3.Database | undefined;
  let closed = false;
  const connection = () => {
    if (closed) throw new Error('The database connection is not open');
    return (db ??= open());
  };
  const statements = new Map<string, BetterSqlite3.Statement>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) statements.set(text, (statement = connection().prepare(text)));
    return statement;
  };
  const execute = (step: Step) =>
    step.returns === 'rows'
      ? prepared(step.text).all(...step.values)
      : prepared(step.text).run(...step.values).changes;
  const drive = <R>(steps: Steps<R>): R => {
    for (let next = steps.next(); ; next = steps.next(execute(next.value))) if (next.done) return next.value;
  };
  let inTransaction: BetterSqlite3.Transaction<(steps: Steps<unknown>) => unknown> | undefined;
  const transaction = <R>(steps: () => Steps<R>): Promise<R> => {
    try {
      inTransaction ??= connection().transaction(drive);
      return Promise.resolve(inTransaction.immediate(steps()) as R);
    } catch (error) {
      return Promise.reject(error as Error);
    }
  };
  return {
    dialect: sqliteDialect,
    rows: async <T>(text: string, values: readonly unknown[]) => prepared(text).all(...values) as T[],
    transaction,
    atomically: (parts, values) => transaction(() => sqlEach(parts, values)),
    isForeignKeyViolation: (error) => codeOf(error) === 'SQLITE_CONSTRAINT_FOREIGNKEY',
    async close() {
      closed = true;
      db?.close();
    },
  };
}

const DEADLOCK = '40P01';
/** Writers lock the shared figure rows in key order; a deadlock that still happens is retried a few times. */
const ATTEMPTS = 5;

/**
 * PostgreSQL: the pool belongs to the Database (database.ts), which ends it. Every statement is
 * named, so the server plans it once per connection; DateTimes come back as UTC (`pgTypes`).
 */
export function postgresConnection(pool: pg.Pool): SqlConnection {
  const names = new Map<string, string>();
  const query = (client: pg.Pool | pg.PoolClient, text: string, values: readonly unknown[]) => {
    let name = names.get(text);
    if (!name) names.set(text, (name = `w${names.size}`));
    return client.query({ name, text, values: values as unknown[], types: pgTypes });
  };
  async function transaction<R>(steps: () => Steps<R>): Promise<R> {
    for (let attempt = 1; ; attempt += 1) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const body = steps();
        let next = body.next();
        while (!next.done) {
          const result = await query(client, next.value.text, next.value.values);
          next = body.next(next.value.returns === 'rows' ? result.rows : (result.rowCount ?? 0));
        }
        await client.query('COMMIT');
        return next.value;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        if (codeOf(error) !== DEADLOCK || attempt >= ATTEMPTS) throw error;
      } finally {
        client.release();
      }
    }
  }
  return {
    dialect: postgresDialect,
    rows: async <T>(text: string, values: readonly unknown[]) =>
      (await query(pool, text, values)).rows as T[],
    transaction,
    async atomically(statements, values) {
      if (statements.length !== 1) return transaction(() => sqlEach(statements, values));
      // One statement: atomic by itself, one round trip.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await query(pool, statements[0]!.text, values);
          return;
        } catch (error) {
          if (codeOf(error) !== DEADLOCK || attempt >= ATTEMPTS) throw error;
        }
      }
    },
    isForeignKeyViolation: (error) => codeOf(error) === '23503',
    async close() {
      // The pool belongs to the Database and is ended there.
    },
  };
}
