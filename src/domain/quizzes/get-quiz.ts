import { nowOf, type DomainDeps } from '../deps';
import type { QuizWithQuestions } from '../../db/repositories';
import { quizWithQuestionsRecord, settingsRecord } from '../quiz-records';
import { quizNotFound, resolveQuiz } from './resolve-quiz';
import { endpointCountForQuiz } from '../webhooks/endpoints';

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

export async function getQuizQuestions(deps: DomainDeps, ownerId: string, ref: string) {
  return quizWithQuestionsRecord(deps.baseUrl, await loadOwnedQuiz(deps, ownerId, ref));
}

/** The settings, and how many webhook endpoints receive the quiz's events (never which). */
export async function getQuizSettings(deps: DomainDeps, ownerId: string, ref: string) {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  return {
    ...settingsRecord(deps.baseUrl, quiz, nowOf(deps)),
    webhook_endpoints: await endpointCountForQuiz(deps.repos, ownerId, quiz.id),
  };
}
