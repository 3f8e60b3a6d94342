import type { Db } from '../../db/database';
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

function responseNotFound(): DomainError {
  return new DomainError(
    'response_not_found',
    'There is no such response on this quiz: it may have been deleted already.',
  );
}

/** A response of one of the owner's quizzes; another owner's response is "not found" too. */
export async function findOwnedResponse(
  db: Db,
  ownerId: string,
  quizId: string,
  responseId: string,
): Promise<OwnedResponse> {
  const response = await db.response.findFirst({
    where: { id: responseId, quizId, quiz: { ownerId } },
    select: {
      id: true,
      quizId: true,
      respondentName: true,
      respondentEmail: true,
      score: true,
      maxScore: true,
      submittedAt: true,
    },
  });
  if (!response) throw responseNotFound();
  return response;
}

/**
 * Removes one response and its answers, for an owner cleaning junk out of their results. The
 * summary, statistics and pass rate are computed from the rows, so they change at once.
 */
export async function deleteResponse(
  db: Db,
  ownerId: string,
  quizId: string,
  responseId: string,
): Promise<void> {
  const response = await findOwnedResponse(db, ownerId, quizId, responseId);
  const [, deleted] = await db.$transaction([
    db.answer.deleteMany({ where: { responseId: response.id, quizId } }),
    db.response.deleteMany({ where: { id: response.id, quizId } }),
  ]);
  if (deleted.count === 0) throw responseNotFound();
}
