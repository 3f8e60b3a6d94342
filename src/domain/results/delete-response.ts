import type { Repositories } from '../../db/repositories';
import { DomainError } from '../errors';
import { responseDeletedEvent } from '../webhooks/events';

/** What the owner sees of a response before deleting it. */
export interface OwnedResponse {
  id: string;
  quizId: string;
  respondentName: string | null;
  respondentEmail: string | null;
  score: number;
  maxScore: number;
  submittedAt: Date;
}

type Responses = Pick<Repositories, 'responses'>;

export function responseNotFound(): DomainError {
  return new DomainError(
    'response_not_found',
    'There is no such response on this quiz: it may have been deleted already.',
  );
}

/** A response of one of the owner's quizzes; another owner's response is "not found" too. */
export async function findOwnedResponse(
  { responses }: Responses,
  ownerId: string,
  quizId: string,
  responseId: string,
): Promise<OwnedResponse> {
  const response = await responses.owned(ownerId, quizId, responseId);
  if (!response) throw responseNotFound();
  return response;
}

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
