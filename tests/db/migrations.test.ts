import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Provider } from '../../src/db/database';
import {
  applyMigrations,
  diffMigrationsToSchema,
  migrationsDir,
  readMigrationList,
  schemaFile,
} from '../../src/db/migrate';
import { openSchemaEngine } from '../../src/db/schema-engine';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '../helpers/test-database';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const generator = require('../../scripts/prisma-generate.js') as {
  derivePostgresSchema(text: string): string;
  SQLITE_SCHEMA: string;
  POSTGRES_SCHEMA: string;
};

function committedMigrations(provider: Provider): string[] {
  return fs
    .readdirSync(migrationsDir(provider), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

test('the committed schema.postgresql.prisma is derived from schema.prisma (run `npm run db:generate`)', () => {
  const wanted = generator.derivePostgresSchema(fs.readFileSync(generator.SQLITE_SCHEMA, 'utf8'));
  expect(fs.readFileSync(generator.POSTGRES_SCHEMA, 'utf8')).toBe(wanted);
});

test('both providers have the same migrations, by name', () => {
  expect(committedMigrations('sqlite')).toEqual(committedMigrations('postgresql'));
  expect(committedMigrations('sqlite').length).toBeGreaterThan(0);
});

function migrationSuite(provider: Provider): void {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase(provider, { migrate: false });
  });
  afterAll(() => db?.drop());

  test('apply to a fresh database, then again as a no-op', async () => {
    expect(await applyMigrations(db.url)).toEqual({ applied: committedMigrations(provider) });
    expect(await applyMigrations(db.url)).toEqual({ applied: [] });
    expect(await db.prisma.user.count()).toBe(0);
    const rows = await db.prisma.$queryRawUnsafe<Array<{ migration_name: string }>>(
      'SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL ORDER BY migration_name',
    );
    expect(rows.map((row) => row.migration_name)).toEqual(committedMigrations(provider));
  });

  // The drift test: editing schema.prisma without `npm run db:create-migration -- NAME` fails here.
  test('the migrations produce exactly the schema in schema.prisma', async () => {
    const missing = await diffMigrationsToSchema(provider, db.url);
    if (missing !== '') {
      throw new Error(
        `prisma/schema.prisma differs from prisma/migrations/${provider}: run \`npm run db:create-migration -- NAME\`.\n` +
          `SQL the migrations lack:\n${missing}`,
      );
    }
  });
}

describe('sqlite', () => migrationSuite('sqlite'));
describeWithPostgres('postgresql', () => migrationSuite('postgresql'));

// Rows made under the first migrations come through every later one, with the rows that refer
// to them: SQLite alters most of a table by rebuilding it, and a rebuild that dropped the table
// while foreign keys were enforced would cascade to every child row.
test('sqlite: rows made before the later migrations survive them, with their children', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-migrations-'));
  const file = path.join(dir, 'quiz.db');
  const url = `file:${file}`;
  try {
    const older = path.join(dir, 'older');
    fs.mkdirSync(older);
    for (const name of committedMigrations('sqlite').slice(0, 2)) {
      fs.cpSync(path.join(migrationsDir('sqlite'), name), path.join(older, name), { recursive: true });
    }
    fs.copyFileSync(
      path.join(migrationsDir('sqlite'), 'migration_lock.toml'),
      path.join(older, 'migration_lock.toml'),
    );
    const engine = await openSchemaEngine({ provider: 'sqlite', target: file, schema: schemaFile('sqlite') });
    try {
      await engine.applyMigrations(readMigrationList('sqlite', older));
    } finally {
      await engine.close();
    }
    const raw = new BetterSqlite3(file);
    const now = Date.now();
    raw.exec(`
      INSERT INTO users (id, email, passwordHash, createdAt, updatedAt) VALUES ('u1', 'a@b.c', 'h', ${now}, ${now});
      INSERT INTO quizzes (id, ownerId, title, titleKey, slug, createdAt, updatedAt) VALUES ('z1', 'u1', 'T', 't', 't-1', ${now}, ${now});
      INSERT INTO questions (id, quizId, position, type, text, points) VALUES ('q1', 'z1', 0, 'yes_no', 'Q?', 1);
      INSERT INTO responses (id, quizId, quizVersion, score, maxScore, submittedAt) VALUES ('r1', 'z1', 1, 1, 1, ${now});
      INSERT INTO oauth_clients (id, source, redirectUris, grantTypes, tokenEndpointAuthMethod, createdAt, updatedAt)
        VALUES ('c1', 'registration', '[]', '[]', 'none', ${now}, ${now});
      INSERT INTO oauth_grants (id, userId, clientId, scope, redirectUri, createdAt, approvedAt)
        VALUES ('g1', 'u1', 'c1', 'quizzes:read', 'http://127.0.0.1/cb', ${now}, ${now});
    `);
    raw.close();

    expect((await applyMigrations(url)).applied).toEqual(committedMigrations('sqlite').slice(2));
    const after = new BetterSqlite3(file, { readonly: true });
    try {
      const count = (table: string) =>
        (after.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n;
      expect(['quizzes', 'questions', 'responses', 'oauth_clients', 'oauth_grants'].map(count)).toEqual([
        1, 1, 1, 1, 1,
      ]);
    } finally {
      after.close();
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
