import { listenersStatement } from '../outbox';
import type { GradedResponse, GradeState, MarksOf, ResponseGrades } from '../response-rows';
import { deltasOf, waitsForGrade, type ContributingResponse } from '../result-aggregates';
import { sqlRows, sqlRun } from '../sql-connection';
import { newId, type WriteContext } from './shared';
import type { ResponseWrites } from './types';

/** The grading's statements, built once per connection. */
function gradeStatements({ d, text }: WriteContext) {
  const GRADE_ANSWER = text(
    'grade-answer',
    (p) =>
      `UPDATE "answers" SET "points" = ${p()}, "gradeState" = ${p()} WHERE "id" = ${p()} AND "responseId" = ${p()}`,
  );
  const GRADE_RESPONSE = text(
    'grade-response',
    (p) =>
      `UPDATE "responses" SET "score" = ${p()}, "maxScore" = ${p()}, "percent" = ${p()}, "passed" = ${p()}, "gradingStatus" = ${p()} ` +
      `WHERE "id" = ${p()}`,
  );
  const PROPOSAL_OF = text(
    'proposal-of',
    (p) =>
      `SELECT "points", "levels", "feedback" FROM "answer_grades" WHERE "answerId" = ${p()} AND "state" = 'proposed'${d.forUpdate}`,
  );
  const UPSERT_GRADE = text(
    'upsert-grade',
    (p) =>
      'INSERT INTO "answer_grades" ("answerId", "quizId", "responseId", "state", "levels", "points", "feedback", "gradedBy", "gradedAt", "approvedBy", "approvedAt") ' +
      `VALUES (${p()}, ${p()}, ${p()}, ${p()}, ${d.json(p())}, ${p()}, ${p()}, ${p()}, ${p()}, NULL, NULL) ` +
      'ON CONFLICT ("answerId") DO UPDATE SET "state" = excluded."state", "levels" = excluded."levels", ' +
      '"points" = excluded."points", "feedback" = excluded."feedback", "gradedBy" = excluded."gradedBy", ' +
      '"gradedAt" = excluded."gradedAt", "approvedBy" = NULL, "approvedAt" = NULL, "approvedVia" = NULL, "approvedClient" = NULL',
  );
  const APPROVE_GRADE = text(
    'approve-grade',
    (p) =>
      `UPDATE "answer_grades" SET "state" = 'final', "approvedBy" = ${p()}, "approvedAt" = ${p()}, "approvedVia" = ${p()}, "approvedClient" = ${p()} WHERE "answerId" = ${p()}`,
  );
  const INSERT_HISTORY = text(
    'insert-history',
    (p) =>
      'INSERT INTO "answer_history" ("id", "answerId", "quizId", "kind", "pointsBefore", "pointsAfter", "by", "comment", "at") ' +
      `VALUES (${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()})`,
  );
  return { GRADE_ANSWER, GRADE_RESPONSE, PROPOSAL_OF, UPSERT_GRADE, APPROVE_GRADE, INSERT_HISTORY };
}
type GradeStatements = ReturnType<typeof gradeStatements>;

/** The proposal as locked is the one expected (an approval of what the teacher was shown). */
function asExpected(
  proposal: { points: number; levels: unknown; feedback: string | null },
  expect: { points: number; levels: readonly number[] | null; feedback: string | null } | undefined,
): boolean {
  if (!expect) return true;
  // SQLite hands the JSON column back as text, PostgreSQL's jsonb parsed.
  const levels =
    typeof proposal.levels === 'string' ? JSON.parse(proposal.levels) : (proposal.levels ?? null);
  return (
    Number(proposal.points) === expect.points &&
    (proposal.feedback ?? null) === expect.feedback &&
    JSON.stringify(levels) === JSON.stringify(expect.levels)
  );
}

/**
 * One response's grade changes, against its answers as the lock finds them: the answers,
 * grades and history written, the response's new marks, and its contribution before and after.
 */
function* gradeOne(
  { d, lockStored }: WriteContext,
  sql: GradeStatements,
  quizId: string,
  change: ResponseGrades,
  at: Date,
  marks: MarksOf,
) {
  const { GRADE_ANSWER, GRADE_RESPONSE, PROPOSAL_OF, UPSERT_GRADE, APPROVE_GRADE, INSERT_HISTORY } = sql;
  const current = yield* lockStored(quizId, change.responseId);
  if (!current) return null; // deleted meanwhile
  const answers = current.answers.map((answer) => ({ ...answer }));
  const byId = new Map(answers.map((answer) => [answer.id, answer]));
  const outcome: GradedResponse['answers'] = [];
  const stamp = d.timestamp(at);
  for (const grade of change.changes) {
    const answer = byId.get(grade.answerId);
    if (!answer) continue; // not this response's: the domain sent it elsewhere
    const before = answer.points;
    let applied = true;
    // The answer's history entry, from its points before to its points as this change left them.
    const history = (kind: 'graded' | 'overridden', comment: string | null) =>
      sqlRun(INSERT_HISTORY, [
        newId(at.getTime()),
        answer.id,
        quizId,
        kind,
        before,
        answer.points,
        grade.by,
        comment,
        stamp,
      ]);
    if (grade.kind === 'grade') {
      if (grade.state === 'final') answer.points = grade.points;
      answer.gradeState = grade.state;
      yield* sqlRun(UPSERT_GRADE, [
        answer.id,
        quizId,
        change.responseId,
        grade.state,
        grade.levels === null ? null : JSON.stringify(grade.levels),
        grade.points,
        grade.feedback,
        grade.by,
        stamp,
      ]);
      if (grade.state === 'final') yield* history('graded', null);
    } else if (grade.kind === 'approve') {
      const [proposal] = yield* sqlRows<{ points: number; levels: unknown; feedback: string | null }>(
        PROPOSAL_OF,
        [answer.id],
      );
      if (!proposal || answer.gradeState !== 'proposed' || !asExpected(proposal, grade.expect))
        applied = false;
      else {
        answer.points = Number(proposal.points);
        answer.gradeState = 'final';
        const via = grade.inClient === undefined ? null : 'client_form';
        yield* sqlRun(APPROVE_GRADE, [grade.by, stamp, via, grade.inClient ?? null, answer.id]);
        yield* history('graded', null);
      }
    } else {
      answer.points = grade.points;
      answer.gradeState = 'final';
      yield* sqlRun(UPSERT_GRADE, [
        answer.id,
        quizId,
        change.responseId,
        'final',
        null,
        grade.points,
        grade.comment,
        grade.by,
        stamp,
      ]);
      yield* history('overridden', grade.comment);
    }
    if (applied)
      yield* sqlRun(GRADE_ANSWER, [answer.points, answer.gradeState, answer.id, change.responseId]);
    outcome.push({
      answerId: answer.id,
      applied,
      pointsBefore: before,
      points: answer.points,
      maxPoints: answer.maxPoints,
      gradeState: (answer.gradeState ?? null) as GradeState | null,
    });
  }
  const score = answers.reduce((sum, answer) => sum + answer.points, 0);
  const maxScore = answers.reduce((sum, answer) => sum + answer.maxPoints, 0);
  const pending = answers.some(waitsForGrade);
  const { percent, passed } = marks(score, maxScore, !pending);
  yield* sqlRun(GRADE_RESPONSE, [
    score,
    maxScore,
    percent,
    passed === null ? null : d.bool(passed),
    pending ? 'pending' : 'final',
    change.responseId,
  ]);
  const after: ContributingResponse = { score, maxScore, percent, passed, pending, answers };
  const graded: GradedResponse = {
    responseId: change.responseId,
    score,
    maxScore,
    percent,
    passed,
    gradingStatus: pending ? 'pending' : 'final',
    becameFinal: current.pending && !pending,
    answers: outcome,
  };
  return { graded, before: current, after };
}

/**
 * Grades, approvals and overrides by a person, each response's contribution to the figures taken
 * out and put back, and `graded`'s events for the responses that became final.
 */
export function gradeWrite(ctx: WriteContext): ResponseWrites['applyGrades'] {
  const { db, d, HOLD_QUIZ, holdFigures, apply, dropEmpty, outbox } = ctx;
  const sql = gradeStatements(ctx);
  return (quizId, grades, at, marks, graded) =>
    db.transaction(function* () {
      yield* holdFigures([quizId]);
      yield* sqlRows(HOLD_QUIZ, [quizId]);
      const changes: Array<{ response: ContributingResponse; sign: 1 | -1 }> = [];
      const done: GradedResponse[] = [];
      // Responses locked in one order, so two gradings of the same responses cannot deadlock.
      const ordered = [...grades].sort((a, b) =>
        a.responseId < b.responseId ? -1 : a.responseId > b.responseId ? 1 : 0,
      );
      for (const change of ordered) {
        const result = yield* gradeOne(ctx, sql, quizId, change, at, marks);
        if (!result) continue;
        changes.push({ response: result.before, sign: -1 }, { response: result.after, sign: 1 });
        done.push(result.graded);
      }
      yield* apply(quizId, deltasOf(changes));
      yield* dropEmpty(quizId);
      const finals = done.filter((response) => response.becameFinal);
      if (graded && finals.length > 0) {
        const listeners = listenersStatement(d, graded);
        if ((yield* sqlRows(listeners.text, listeners.values)).length > 0)
          for (const response of finals) yield* outbox(graded.build(response));
      }
      return done;
    });
}
