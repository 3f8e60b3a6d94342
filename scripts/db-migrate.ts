// `npm run db:migrate`: applies pending migrations to DATABASE_URL (default: the embedded SQLite file).
// The app also does this at start-up; this is for deploy pipelines and for looking before starting.
import { describeDatabaseUrl } from '../src/db/database';
import { applyMigrations } from '../src/db/migrate';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL || 'file:./data/quiz.db';
  const started = Date.now();
  const { applied } = await applyMigrations(url);
  const what = applied.length === 0 ? 'already up to date' : `applied ${applied.join(', ')}`;
  console.log(`${describeDatabaseUrl(url)}: ${what} (${Date.now() - started} ms)`);
}

main().catch((err: unknown) => {
  console.error(`db:migrate failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
