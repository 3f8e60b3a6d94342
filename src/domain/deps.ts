import type { Db } from '../db/database';
import type { QuizReads } from '../db/quiz-reads';

/** What domain functions need: the database and the public origin (for public URLs). */
export interface DomainDeps {
  db: Db;
  baseUrl: string;
  /**
   * Raw-driver reads for the paths every tool call takes (reference resolution, loading a
   * quiz); without them the same reads go through Prisma.
   */
  reads?: QuizReads;
}

/** Long enough for a queue of concurrent writes to one row to drain instead of failing. */
export const WRITE_TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 20_000 } as const;
