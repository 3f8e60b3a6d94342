import type { Repositories } from '../../db/repositories';
import { DomainError } from '../errors';

/**
 * Rebuilds the results' running figures from the stored responses: for an operator after a
 * restore or a hand edit of the rows, or for peace of mind. Safe while the service runs: each
 * quiz is rebuilt in one transaction that submissions to it wait for.
 */
export async function recomputeResultFigures(
  { responses }: Pick<Repositories, 'responses'>,
  quizId?: string,
): Promise<number> {
  const done = await responses.recomputeFigures(quizId);
  if (quizId !== undefined && done === 0)
    throw new DomainError('quiz_not_found', `There is no quiz with id "${quizId}".`);
  return done;
}
