import type { Db } from '../../db/database';
import { quizNotFound } from './resolve-quiz';

/**
 * Exact-ID ownership check for URLs such as /dashboard/quizzes/:id. MCP tools accept a title
 * or slug too (resolveQuiz); a URL names one quiz by its ID only, so a path segment that
 * happens to equal a title never resolves. Someone else's quiz and a missing one give the
 * same error.
 */
export async function requireOwnedQuizId(db: Db, ownerId: string, quizId: string): Promise<string> {
  const quiz = await db.quiz.findFirst({ where: { id: quizId, ownerId }, select: { id: true } });
  if (!quiz) throw quizNotFound(quizId);
  return quiz.id;
}
