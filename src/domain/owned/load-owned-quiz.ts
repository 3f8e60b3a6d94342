import type { QuizWithQuestions } from '../../db/repositories';
import type { DomainDeps } from '../deps';
import { quizNotFound, resolveQuiz } from './resolve-quiz';

/** The caller's quiz with its questions, or the not-found error (the same whether it is someone else's or gone). */
export async function loadOwnedQuiz(
  deps: DomainDeps,
  ownerId: string,
  ref: string,
): Promise<QuizWithQuestions> {
  // An ID match always wins and is the usual reference (assistants pass
  // the quiz_id they were given): one lookup by ID loads it without resolving candidates.
  const byId = await deps.repos.quizzes.quizWithQuestions(ownerId, ref.trim());
  if (byId) return byId;
  const { id } = await resolveQuiz(deps, ownerId, ref);
  const quiz = await deps.repos.quizzes.quizWithQuestions(ownerId, id);
  // Deleted between the two reads: the same answer as if it had never existed.
  if (!quiz) throw quizNotFound(ref);
  return quiz;
}
