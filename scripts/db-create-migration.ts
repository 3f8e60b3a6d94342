// `npm run db:create-migration -- NAME`: writes the SQL that takes the committed migrations to
// prisma/schema.prisma, as prisma/migrations/{sqlite,postgresql}/<timestamp>_<name>/migration.sql.
// The WASM engine has no createMigration with a shadow database, so the SQL comes from `diff`
// (decision 0002, notes 3 and 4). PostgreSQL needs a live server (note 2): TEST_POSTGRES_URL.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Provider } from '../src/db/database';
import { describeDatabaseUrl } from '../src/db/database';
import { diffMigrationsToSchema, lockFileContent, migrationsDir } from '../src/db/migrate';
import { packageRoot } from '../src/package-root';

const EMPTY = '-- This is an empty migration.\n';

function migrationName(raw: string | undefined): string {
  const name = (raw ?? '')
    .trim()
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (!name) throw new Error('usage: npm run db:create-migration -- NAME   (e.g. add_quiz_tags)');
  return name;
}

function timestamp(now = new Date()): string {
  return now.toISOString().replace(/\D/g, '').slice(0, 14); // YYYYMMDDHHMMSS (UTC), as Prisma names them
}

/** A stale schema.postgresql.prisma would make the two migrations disagree. */
function assertPostgresSchemaInSync(): void {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const generator = require(path.join(packageRoot, 'scripts', 'prisma-generate.js')) as {
    derivePostgresSchema(text: string): string;
    SQLITE_SCHEMA: string;
    POSTGRES_SCHEMA: string;
  };
  const wanted = generator.derivePostgresSchema(fs.readFileSync(generator.SQLITE_SCHEMA, 'utf8'));
  if (fs.readFileSync(generator.POSTGRES_SCHEMA, 'utf8') !== wanted) {
    throw new Error('prisma/schema.postgresql.prisma is out of date: run `npm run db:generate` first');
  }
}

/** Diffs on a temporary database (the engine connects at once, decision 0002, note 2), dropped afterwards. */
async function diffPostgres(serverUrl: string): Promise<string> {
  const database = `quiz_migration_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 5_000 });
  await admin.connect().catch((err: Error) => {
    throw new Error(
      `PostgreSQL is needed for the PostgreSQL migration; ${describeDatabaseUrl(serverUrl)}: ${err.message}`,
    );
  });
  try {
    await admin.query(`CREATE DATABASE "${database}"`);
    const url = new URL(serverUrl);
    url.pathname = `/${database}`;
    return await diffMigrationsToSchema('postgresql', url.toString());
  } finally {
    await admin.query(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`).catch(() => undefined);
    await admin.end();
  }
}

async function main(): Promise<void> {
  const name = `${timestamp()}_${migrationName(process.argv[2])}`;
  assertPostgresSchemaInSync();
  const serverUrl = process.env.TEST_POSTGRES_URL || 'postgresql://postgres@127.0.0.1:5432/test';
  const scripts: Record<Provider, string> = {
    sqlite: await diffMigrationsToSchema('sqlite'),
    postgresql: await diffPostgres(serverUrl),
  };
  if (!scripts.sqlite && !scripts.postgresql) {
    throw new Error('prisma/schema.prisma matches the migrations: no migration to create');
  }
  // Both providers get a folder of the same name, even if one has nothing to do, so histories line up.
  for (const provider of ['sqlite', 'postgresql'] as const) {
    const dir = migrationsDir(provider);
    fs.mkdirSync(path.join(dir, name), { recursive: true });
    const lock = path.join(dir, 'migration_lock.toml');
    if (!fs.existsSync(lock)) fs.writeFileSync(lock, lockFileContent(provider));
    const file = path.join(dir, name, 'migration.sql');
    fs.writeFileSync(file, scripts[provider] || EMPTY);
    console.log(`created ${path.relative(packageRoot, file)}`);
  }
  console.log(
    'Review the SQL, then apply it with `npm run db:migrate` (the app also applies it at start-up).',
  );
}

main().catch((err: unknown) => {
  console.error(`db:create-migration failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
