import type { Db } from '../db/database';
import type { QuizReads } from '../db/quiz-reads';

/** What domain functions need: the database and the public origin (for public URLs). */
export interface DomainDeps {
  db: Db;
  baseUrl: string;
  /**
   * The quiz reads every tool call takes (resolving a reference, loading a quiz). The service
   * passes the raw-driver version of its database; `prismaQuizReads(db)` answers the same.
   */
  reads: QuizReads;
}

/** Long enough for a queue of concurrent writes to one row to drain instead of failing. */
export const WRITE_TRANSACTION_OPTIONS = { maxWait: 15_000, timeout: 20_000 } as const;
