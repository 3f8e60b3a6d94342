import { deltaSums, type ContributingAnswer } from '../result-aggregates';
import { sqlRows, sqlRun } from '../sql-connection';
import {
  FIGURES,
  RECOMPUTE_PAGE,
  STORED_ANSWER_COLUMNS,
  storedBool,
  type StoredResponse,
  type WriteContext,
} from './shared';
import type { ResponseWrites } from './types';

/** Rebuilding the figures from the stored rows, a quiz at a time, a page of responses at a time. */
export function recomputeWrite(ctx: WriteContext): ResponseWrites['recompute'] {
  const { db, d, text, apply, holdFigures } = ctx;
  const LOCK_QUIZ = text(
    'lock-quiz',
    (p) => `SELECT 1 AS "held" FROM "quizzes" WHERE "id" = ${p()}${d.forUpdate}`,
  );
  const CLEAR = FIGURES.map((figure) =>
    text(`clear-${figure.kind}`, (p) => `DELETE FROM "${figure.table}" WHERE "quizId" = ${p()}`),
  );
  const RESPONSES_PAGE = text(
    'responses-page',
    (p) =>
      `SELECT "id", "score", "maxScore", "percent", "passed", "gradingStatus" FROM "responses" WHERE "quizId" = ${p()} AND "id" > ${p()} ` +
      `ORDER BY "id" LIMIT ${RECOMPUTE_PAGE}`,
  );
  const ANSWERS_OF_PAGE = text(
    'answers-of-page',
    (p) =>
      `SELECT "responseId", ${STORED_ANSWER_COLUMNS} FROM "answers" WHERE "responseId" IN ` +
      `(${Array.from({ length: RECOMPUTE_PAGE }, p).join(', ')})`,
  );
  return async function recompute(quizId) {
    const ids =
      quizId === undefined
        ? (await db.rows<{ id: string }>('SELECT "id" FROM "quizzes" ORDER BY "id"', [])).map((row) => row.id)
        : [quizId];
    let done = 0;
    // One transaction per quiz: submissions to other quizzes wait for one quiz at a time.
    for (const id of ids) {
      done += await db.transaction(function* () {
        // Submissions take a key-share lock on the quiz row (their foreign key), and deletions
        // and re-marks take it first: this waits for those under way and holds new ones until
        // the figures are rebuilt.
        yield* holdFigures([id]);
        if ((yield* sqlRows(LOCK_QUIZ, [id])).length === 0) return 0;
        for (const sql of CLEAR) yield* sqlRun(sql, [id]);
        // The stored responses through the same sums as every write (result-aggregates.ts).
        const sums = deltaSums();
        for (let after = ''; ;) {
          const page = yield* sqlRows<StoredResponse & { id: string }>(RESPONSES_PAGE, [id, after]);
          if (page.length === 0) break;
          const pageIds = page.map((response) => response.id);
          const padded = Array.from({ length: RECOMPUTE_PAGE }, (_, i) => pageIds[i] ?? pageIds[0]);
          const byResponse = new Map<string, ContributingAnswer[]>(
            pageIds.map((responseId) => [responseId, []]),
          );
          for (const answer of yield* sqlRows<ContributingAnswer & { responseId: string }>(
            ANSWERS_OF_PAGE,
            padded,
          ))
            byResponse.get(answer.responseId)!.push(answer);
          for (const response of page) {
            sums.add(
              {
                ...response,
                passed: storedBool(response.passed),
                pending: response.gradingStatus === 'pending',
                answers: byResponse.get(response.id)!,
              },
              1,
            );
          }
          if (page.length < RECOMPUTE_PAGE) break;
          after = pageIds[pageIds.length - 1]!;
        }
        yield* apply(id, sums.deltas());
        return 1;
      });
    }
    return done;
  };
}
