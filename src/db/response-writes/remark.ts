import type { ResponseRemark } from '../response-rows';
import { deltasOf, type ContributingResponse } from '../result-aggregates';
import { sqlRows, sqlRun } from '../sql-connection';
import type { StoredAnswer, WriteContext } from './shared';
import type { ResponseWrites } from './types';

/** A stored response with new marks, as its contribution to the figures. */
function remarked(
  current: Omit<ContributingResponse, 'answers'> & { answers: StoredAnswer[] },
  remark: ResponseRemark,
): ContributingResponse {
  const marks = new Map(remark.answers.map((answer) => [answer.id, answer]));
  return {
    score: remark.score,
    maxScore: remark.maxScore,
    percent: remark.percent,
    passed: remark.passed,
    pending: current.pending ?? false,
    answers: current.answers.map((answer) => {
      const mark = marks.get(answer.id);
      return mark ? { ...answer, points: mark.points, maxPoints: mark.maxPoints } : answer;
    }),
  };
}

/**
 * Re-marking: new points for stored answers, the responses' new marks, and the figures moved from
 * each response's old contribution to its new one, under the same locks as a deletion.
 */
export function remarkWrite(ctx: WriteContext): ResponseWrites['applyRemarks'] {
  const { db, d, text, HOLD_QUIZ, holdFigures, lockStored, apply, dropEmpty } = ctx;
  const UPDATE_ANSWER = text(
    'update-answer',
    (p) =>
      `UPDATE "answers" SET "points" = ${p()}, "maxPoints" = ${p()} WHERE "id" = ${p()} AND "responseId" = ${p()}`,
  );
  const UPDATE_RESPONSE = text(
    'update-response',
    (p) =>
      `UPDATE "responses" SET "score" = ${p()}, "maxScore" = ${p()}, "percent" = ${p()}, "passed" = ${p()}, "remarkedAt" = ${p()}, ` +
      '"originalScore" = COALESCE("originalScore", "score"), "originalMaxScore" = COALESCE("originalMaxScore", "maxScore") ' +
      `WHERE "id" = ${p()}`,
  );
  return (quizId, remarks, at) =>
    db.transaction(function* () {
      yield* holdFigures([quizId]);
      yield* sqlRows(HOLD_QUIZ, [quizId]);
      const changes: Array<{ response: ContributingResponse; sign: 1 | -1 }> = [];
      for (const change of remarks) {
        const current = yield* lockStored(quizId, change.responseId);
        if (!current) continue; // deleted meanwhile
        for (const answer of change.answers)
          yield* sqlRun(UPDATE_ANSWER, [answer.points, answer.maxPoints, answer.id, change.responseId]);
        yield* sqlRun(UPDATE_RESPONSE, [
          change.score,
          change.maxScore,
          change.percent,
          change.passed === null ? null : d.bool(change.passed),
          d.timestamp(at),
          change.responseId,
        ]);
        changes.push({ response: current, sign: -1 }, { response: remarked(current, change), sign: 1 });
      }
      yield* apply(quizId, deltasOf(changes));
      yield* dropEmpty(quizId);
      return changes.length / 2;
    });
}
