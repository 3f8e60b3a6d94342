import type { Repositories } from '../../db/repositories';
import { quizNotFound } from './resolve-quiz';

/**
 * Exact-ID ownership check for URLs such as /dashboard/quizzes/:id. MCP tools accept a title
 * or slug too (resolveQuiz); a URL names one quiz by its ID only, so a path segment that
 * happens to equal a title never resolves. Someone else's quiz and a missing one give the
 * same error.
 */
export async function requireOwnedQuizId(
  { quizzes }: Pick<Repositories, 'quizzes'>,
  ownerId: string,
  quizId: string,
): Promise<string> {
  const id = await quizzes.ownedId(ownerId, quizId);
  if (!id) throw quizNotFound(quizId);
  return id;
}
