import type { Repositories } from '../../db/repositories';
import { DomainError } from '../errors';

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
