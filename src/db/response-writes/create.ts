import type { Batched } from '../dialect';
import { listenersStatement } from '../outbox';
import { AttemptAlreadySubmitted, PerEmailLimitReached, SubmissionKeyUsed } from '../response-rows';
import { deltasOf, type Deltas } from '../result-aggregates';
import { sqlEach, sqlRows, sqlRun } from '../sql-connection';
import {
  ANSWER_WIDTH,
  FIGURES,
  RESPONSE_WIDTH,
  answerValues,
  contributionOf,
  figureValues,
  figuresLockKey,
  newId,
  type WriteContext,
} from './shared';
import type { ResponseWrites, WriteHooks } from './types';

/**
 * Storing one submission. It is one `dialect.combine` of its rows and upserts: on PostgreSQL one
 * statement of data-modifying CTEs (one round trip, atomic by itself), on SQLite one
 * transaction. With an attempt, a webhook event or a per-email limit it is one transaction of the
 * attempt's claim, the rows, the outbox insert and the limit's count (under `dialect.keyLock`):
 * a crash anywhere in it leaves none of them.
 */
export function createWrite(ctx: WriteContext, hooks: WriteHooks): ResponseWrites['create'] {
  const { db, d, text, insertResponses, insertAnswers, upsert, responseValues, outbox } = ctx;
  // The attempt's claim: only the first submission of it finds "submittedAt" still empty.
  const CLAIM_ATTEMPT = text(
    'claim-attempt',
    (p) =>
      `UPDATE "attempts" SET "submittedAt" = ${d.timestampParam(p())}, "responseId" = ${p()}, "autoSubmitted" = ${p()}, ` +
      `"savedAnswers" = NULL WHERE "id" = ${p()} AND "submittedAt" IS NULL`,
  );
  // The repeat key: the first submission under it inserts the row; a racing second one waits on
  // the unique key (PostgreSQL) or the write lock (SQLite) and then inserts nothing.
  const TAKE_KEY = text(
    'take-key',
    (p) =>
      `INSERT INTO "submission_keys" ("quizId", "keyHash", "bodyHash", "responseId", "createdAt") ` +
      `VALUES (${p()}, ${p()}, ${p()}, ${p()}, ${d.timestampParam(p())}) ON CONFLICT ("quizId", "keyHash") DO NOTHING`,
  );
  const KEY_OWNER = text(
    'key-owner',
    (p) =>
      `SELECT "responseId", "bodyHash" FROM "submission_keys" WHERE "quizId" = ${p()} AND "keyHash" = ${p()}`,
  );
  const COUNT_BY_EMAIL = text(
    'count-by-email',
    (p) =>
      `SELECT COUNT(*) AS "used" FROM "responses" WHERE "quizId" = ${p()} AND "respondentEmail" = ${p()}`,
  );

  const takesLocks = d.keyLockText('') !== null;
  const plans = new Map<string, Batched[]>();
  /** A submission's statements by its shape: its response, answers, each figure table's upsert, the figures lock. */
  const createStatements = (answers: number, deltas: Deltas): Batched[] => {
    const key = `create/${answers}/${FIGURES.map((figure) => deltas[figure.kind].length).join('/')}`;
    let statements = plans.get(key);
    if (!statements) {
      // One numbering across the parts: PostgreSQL joins them into one statement.
      const p = d.placeholders();
      const parts: Batched[] = [{ text: insertResponses(p, 1), count: RESPONSE_WIDTH }];
      const rows = (total: number, width: number, build: (n: number) => string) => {
        for (let from = 0; from < total; from += d.rowsPerInsert) {
          const n = Math.min(d.rowsPerInsert, total - from);
          parts.push({ text: build(n), count: n * width });
        }
      };
      rows(answers, ANSWER_WIDTH, (n) => insertAnswers(p, n));
      for (const figure of FIGURES)
        rows(deltas[figure.kind].length, figure.width, (n) => upsert(p, figure, n));
      // The quiz's figures lock (holdFigures), last so that it runs first: see dialect.combine.
      const lock = d.keyLockText(p());
      if (lock) parts.push({ text: lock, count: 1 });
      plans.set(key, (statements = d.combine(parts)));
    }
    return statements;
  };

  return async function create(row, at = new Date(), event, limit, guards = {}) {
    const { attempt, key } = guards;
    const deltas = deltasOf([{ response: contributionOf(row), sign: 1 }]);
    const id = newId(at.getTime());
    const values = responseValues(row, id, at);
    for (const answer of row.answers)
      values.push(newId(at.getTime()), id, row.quizId, ...answerValues(answer));
    for (const figure of FIGURES)
      for (const rowValues of figureValues(figure, row.quizId, deltas)) values.push(...rowValues);
    if (takesLocks) values.push(figuresLockKey(row.quizId));
    const statements = createStatements(row.answers.length, deltas);
    try {
      if (!event && !limit && !attempt && !key) {
        await db.atomically(statements, values);
        return id;
      }
      await db.transaction(function* () {
        if (key) {
          // Before the attempt's claim: a repeat of a submitted attempt answers with its response.
          const taken = yield* sqlRun(TAKE_KEY, [row.quizId, key.keyHash, key.bodyHash, id, d.timestamp(at)]);
          if (taken === 0) {
            const [first] = yield* sqlRows<{ responseId: string; bodyHash: string | null }>(KEY_OWNER, [
              row.quizId,
              key.keyHash,
            ]);
            throw new SubmissionKeyUsed(first!.responseId, first!.bodyHash === key.bodyHash);
          }
        }
        if (attempt) {
          // First, so a second submission of the attempt waits here on PostgreSQL (the row
          // lock) and then finds it claimed; a rollback below undoes the claim with the rest.
          const claimed = yield* sqlRun(CLAIM_ATTEMPT, [
            d.timestamp(at),
            id,
            d.bool(attempt.autoSubmitted),
            attempt.id,
          ]);
          if (claimed === 0) throw new AttemptAlreadySubmitted();
          hooks.afterClaim?.();
        }
        if (limit) {
          // Submissions under one email to one quiz queue here until the holder commits (on
          // SQLite the transaction holds the write lock already), so each count sees the
          // responses stored before it.
          const lock = d.keyLock(`response-email:${row.quizId}:${limit.email}`);
          if (lock) yield* sqlRows(lock.text, lock.values);
          const [counted] = yield* sqlRows<{ used: number | string }>(COUNT_BY_EMAIL, [
            row.quizId,
            limit.email,
          ]);
          const used = Number(counted?.used ?? 0);
          if (used >= limit.max) throw new PerEmailLimitReached(used);
        }
        yield* sqlEach(statements, values);
        if (event) {
          // The body (every answer) is built only for an owner with an endpoint that takes it.
          const listeners = listenersStatement(d, event);
          if ((yield* sqlRows(listeners.text, listeners.values)).length > 0)
            yield* outbox(event.build({ id, submittedAt: at }));
        }
      });
      return id;
    } catch (error) {
      if (db.isForeignKeyViolation(error)) return null; // the quiz is gone
      throw error;
    }
  };
}
