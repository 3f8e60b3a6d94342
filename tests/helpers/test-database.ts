// A fresh, migrated database per test file, on SQLite or PostgreSQL, and the switch that skips
// (or, with REQUIRE_POSTGRES=1, fails) PostgreSQL suites on machines without a server.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { describeDatabaseUrl, openDatabase, type Database, type Provider } from '../../src/db/database';

export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL || 'postgresql://postgres@127.0.0.1:5432/test';

export type TestDatabase = Database & { url: string; drop(): Promise<void> };

/** SQLite: a file in a fresh temp folder. PostgreSQL: a fresh `quiz_test_*` database, dropped WITH (FORCE). */
export async function createTestDatabase(
  provider: Provider,
  options: { migrate?: boolean } = {},
): Promise<TestDatabase> {
  const migrate = options.migrate ?? true;
  if (provider === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-test-'));
    const db = await openDatabase(`file:${path.join(dir, 'test.db')}`, { migrate });
    return withDrop(db, () => fs.promises.rm(dir, { recursive: true, force: true }));
  }
  const name = `quiz_test_${randomBytes(6).toString('hex')}`;
  await adminQuery(`CREATE DATABASE "${name}"`);
  const url = new URL(TEST_POSTGRES_URL);
  url.pathname = `/${name}`;
  const db = await openDatabase(url.toString(), { migrate, poolSize: 4 }).catch(async (err: unknown) => {
    await adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    throw err;
  });
  return withDrop(db, () => adminQuery(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
}

function withDrop(db: Database, remove: () => Promise<unknown>): TestDatabase {
  let dropped: Promise<void> | undefined;
  const drop = () =>
    (dropped ??= (async () => {
      await db.close().catch(() => undefined);
      await remove();
    })());
  return { ...db, drop };
}

async function adminQuery(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

export async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

// Jest registers `describe` blocks synchronously, so the probe runs in a child process, once per
// test file (Jest gives each file its own module registry).
let probe: { ok: true } | { ok: false; reason: string } | undefined;

function probePostgresSync(): { ok: true } | { ok: false; reason: string } {
  const script = `
    const pg = require(process.env.PROBE_PG_MODULE);
    const client = new pg.Client({ connectionString: process.env.PROBE_URL, connectionTimeoutMillis: 2000 });
    client.connect().then(() => client.query('SELECT 1')).then(
      () => client.end().then(() => process.exit(0)),
      (err) => { process.stderr.write(String(err && err.message)); process.exit(1); });`;
  const result = spawnSync(process.execPath, ['-e', script], {
    env: { ...process.env, PROBE_PG_MODULE: require.resolve('pg'), PROBE_URL: TEST_POSTGRES_URL },
    encoding: 'utf8',
    timeout: 5_000,
  });
  if (result.status === 0) return { ok: true };
  return {
    ok: false,
    reason: result.stderr.trim() || result.error?.message || `probe exited ${result.status}`,
  };
}

/** `describe` for PostgreSQL suites: skipped with a visible reason when no server answers. */
export function describeWithPostgres(name: string, fn: () => void): void {
  probe ??= probePostgresSync();
  if (probe.ok) {
    describe(name, fn);
    return;
  }
  const where = describeDatabaseUrl(TEST_POSTGRES_URL);
  if (process.env.REQUIRE_POSTGRES === '1') {
    throw new Error(`REQUIRE_POSTGRES=1 but PostgreSQL is not reachable at ${where}: ${probe.reason}`);
  }
  describe.skip(
    `${name}: skipped: PostgreSQL not reachable at ${where}; set REQUIRE_POSTGRES=1 to make this suite mandatory`,
    fn,
  );
}
