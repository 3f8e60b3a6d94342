import { FIGURES, type WriteContext } from './shared';
import type { ResponseWrites, ResultRows } from './types';

/** Reading a quiz's running figures: a few rows per question and score, whatever the response count. */
export function figuresRead(ctx: WriteContext): ResponseWrites['figures'] {
  const { db, d, text } = ctx;
  // Grouped by state first so that both databases read the (quizId, gradeState) index: grouped by
  // question alone, SQLite walks every answer of the quiz through (quizId, questionId) to skip a sort.
  const UNGRADED = text(
    'ungraded',
    (p) =>
      `SELECT "questionId", COUNT(*) AS "count" FROM "answers" WHERE "quizId" = ${p()} AND "gradeState" IN ('pending', 'proposed') ` +
      'GROUP BY "gradeState", "questionId"',
  );
  const READ_FIGURES = FIGURES.map((figure) =>
    text(
      `read-${figure.kind}`,
      (p) =>
        `SELECT ${figure.columns.slice('"quizId", '.length)} FROM "${figure.table}" WHERE "quizId" = ${p()}`,
    ),
  );
  // Two index seeks on (quizId, submittedAt, id), not a scan, in one statement.
  const BOUNDS = text(
    'bounds',
    (p) =>
      `SELECT (SELECT "submittedAt" FROM "responses" WHERE "quizId" = ${p()} ORDER BY "submittedAt" ASC LIMIT 1) AS "first", ` +
      `(SELECT "submittedAt" FROM "responses" WHERE "quizId" = ${p()} ORDER BY "submittedAt" DESC LIMIT 1) AS "last"`,
  );

  return async function figures(quizId) {
    const [items, values, scores, bounds, ungraded] = await Promise.all([
      ...READ_FIGURES.map((sql) => db.rows(sql, [quizId])),
      db.rows<{ first: unknown; last: unknown }>(BOUNDS, [quizId, quizId]),
      db.rows<{ questionId: string; count: number | string }>(UNGRADED, [quizId]),
    ]);
    const bound = (bounds as Array<{ first: unknown; last: unknown }>)[0];
    return {
      items: items as ResultRows['items'],
      values: values as ResultRows['values'],
      scores: scores as ResultRows['scores'],
      firstSubmittedAt: d.date(bound?.first),
      lastSubmittedAt: d.date(bound?.last),
      ungraded: ungradedByQuestion(ungraded as Array<{ questionId: string; count: number | string }>),
    };
  };
}

/** A question's answers waiting for a grade, pending and proposed added up, in question id order. */
function ungradedByQuestion(rows: ReadonlyArray<{ questionId: string; count: number | string }>) {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.questionId, (counts.get(row.questionId) ?? 0) + Number(row.count));
  return [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([questionId, count]) => ({ questionId, count }));
}
