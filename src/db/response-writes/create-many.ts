import { deltaSums } from '../result-aggregates';
import {
  ANSWER_WIDTH,
  RESPONSES_PER_CHUNK,
  RESPONSE_WIDTH,
  answerValues,
  contributionOf,
  newId,
  type WriteContext,
} from './shared';
import type { ResponseWrites } from './types';

/** A bulk load: its rows in statements of many rows, the figures changed once per quiz at the end. */
export function createManyWrite(ctx: WriteContext): ResponseWrites['createMany'] {
  const { db, responseValues, insertAll, insertResponses, insertAnswers, apply, holdFigures } = ctx;
  return (rows) =>
    db.transaction(function* () {
      yield* holdFigures(rows.map(({ row }) => row.quizId));
      const sums = new Map<string, ReturnType<typeof deltaSums>>();
      for (let from = 0; from < rows.length; from += RESPONSES_PER_CHUNK) {
        const chunk = rows.slice(from, from + RESPONSES_PER_CHUNK);
        const responses: unknown[] = [];
        const answers: unknown[] = [];
        for (const { row, at } of chunk) {
          const id = newId(at.getTime());
          responses.push(...responseValues(row, id, at));
          for (const answer of row.answers)
            answers.push(newId(at.getTime()), id, row.quizId, ...answerValues(answer));
          let quiz = sums.get(row.quizId);
          if (!quiz) sums.set(row.quizId, (quiz = deltaSums()));
          quiz.add(contributionOf(row), 1);
        }
        yield* insertAll('responses', responses, RESPONSE_WIDTH, insertResponses);
        yield* insertAll('answers', answers, ANSWER_WIDTH, insertAnswers);
      }
      for (const [quizId, quiz] of sums) yield* apply(quizId, quiz.deltas());
      return rows.length;
    });
}
