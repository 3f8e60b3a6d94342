import { deltasOf } from '../result-aggregates';
import { sqlRows, sqlRun } from '../sql-connection';
import type { WriteContext } from './shared';
import type { ResponseWrites } from './types';

/**
 * Deleting a response: the quiz locked (`forKeyShare`) and then the response (`forUpdate`), so a
 * concurrent deletion or re-marking of it waits and then sees it as it is.
 */
export function deleteWrite(ctx: WriteContext): ResponseWrites['delete'] {
  const { db, text, HOLD_QUIZ, holdFigures, lockStored, apply, dropEmpty, outbox } = ctx;
  const DELETE_RESPONSE = text('delete', (p) => `DELETE FROM "responses" WHERE "id" = ${p()}`);
  return (quizId, responseId, event) =>
    db.transaction(function* () {
      yield* holdFigures([quizId]);
      yield* sqlRows(HOLD_QUIZ, [quizId]);
      const current = yield* lockStored(quizId, responseId);
      if (!current) return false;
      yield* sqlRun(DELETE_RESPONSE, [responseId]); // answers go by cascade
      yield* apply(quizId, deltasOf([{ response: current, sign: -1 }]));
      yield* dropEmpty(quizId);
      if (event) yield* outbox(event);
      return true;
    });
}
