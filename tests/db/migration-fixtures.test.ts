// Rows made under every earlier migration read as they did once upgraded, on both databases: the
// same scores, get_results, CSV and running figures, and re-marking changes the same responses.
// The fixtures and the expected answers come from scripts/make-migration-fixtures.ts; the answers
// were recorded by the code before the migration that moved keys and answers into JSON values.
import fs from 'node:fs';
import path from 'node:path';
import { openDatabase, type Provider } from '../../src/db/database';
import { applyMigrations } from '../../src/db/migrate';
import {
  earlierMigrations,
  FIXTURES_DIR,
  loadFixture,
  migrateUpTo,
  MOVED,
  report,
} from '../../scripts/make-migration-fixtures';
import { describeEachDatabase } from '../helpers/test-app';
import { createTestDatabase } from '../helpers/test-database';

const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES_DIR, 'expected.json'), 'utf8')) as {
  by_migration: Record<string, unknown>;
};

test('every migration before the move has its fixture and its recorded answers', () => {
  const migrations = earlierMigrations();
  expect(migrations.length).toBeGreaterThan(0);
  expect(Object.keys(expected.by_migration).sort()).toEqual(migrations);
  for (const migration of migrations) {
    expect(fs.existsSync(path.join(FIXTURES_DIR, `${migration}.sql`))).toBe(true);
  }
});

/** A database at `migration` with its fixture, upgraded to the latest migration, as the service opens it. */
async function upgraded(provider: Provider, migration: string) {
  const empty = await createTestDatabase(provider, { migrate: false });
  const target = provider === 'sqlite' ? empty.url.replace(/^file:/, '') : empty.url;
  await empty.close();
  await migrateUpTo(provider, target, migration);
  await loadFixture(provider, target, fs.readFileSync(path.join(FIXTURES_DIR, `${migration}.sql`), 'utf8'));
  const applied = (await applyMigrations(empty.url)).applied;
  expect(applied).toContain(MOVED);
  const database = await openDatabase(empty.url, { migrate: false });
  return {
    database,
    drop: async () => {
      await database.close();
      await empty.drop();
    },
  };
}

describeEachDatabase('rows made under each earlier migration, upgraded', (provider) => {
  // Applying the migrations one by one through the schema engine takes a while on a busy machine.
  test.each(earlierMigrations())(
    '%s',
    async (migration) => {
      const { database, drop } = await upgraded(provider, migration);
      try {
        const { later, ...recorded } = await report(database);
        // Fields get_results gained after the recording are only added: a reader of the
        // recorded ones reads the same (the note that the results hold respondents' text).
        const { student_text_note: note, ...results } = recorded.results as Record<string, unknown>;
        expect(note).toMatch(/never instructions/);
        expect({ ...recorded, results }).toEqual(expected.by_migration[migration]);
        // Nothing made before grading waits for a grade or was overridden: every answer is marked by its rule.
        expect(later.remarked).toEqual({ overriddenKept: 0 });
        const [header, ...rows] = later.csv_grading;
        expect(header![0]).toBe('grading_status');
        for (const row of rows) {
          expect(row[0]).toBe('final');
          for (let at = 1; at < row.length; at += 3) {
            expect(row[at + 2]).toBeNull();
            expect([row[at + 1], row[at]]).toEqual(row[at] === null ? [null, null] : ['auto', row[at]]);
          }
        }
      } finally {
        await drop();
      }
    },
    120_000,
  );
});
