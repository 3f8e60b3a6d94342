import fs from 'node:fs';
import type { Provider } from '../../src/db/database';
import { applyMigrations, diffMigrationsToSchema, migrationsDir } from '../../src/db/migrate';
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
