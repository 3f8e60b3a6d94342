import type { Repositories } from '../../db/repositories';
import { findOwnedResponse, responseNotFound } from '../owned/owned-response';
import { responseDeletedEvent } from '../webhooks/events';

type Responses = Pick<Repositories, 'responses'>;

/**
 * Removes one response and its answers, for an owner cleaning junk out of their results. The
 * summary, statistics and pass rate are computed from the rows, so they change at once.
 */
export async function deleteResponse(
  repos: Responses,
  ownerId: string,
  quizId: string,
  responseId: string,
): Promise<void> {
  const response = await findOwnedResponse(repos, ownerId, quizId, responseId);
  const event = responseDeletedEvent({ id: quizId, ownerId }, response.id, new Date());
  if (!(await repos.responses.delete(quizId, response.id, event))) throw responseNotFound();
}
