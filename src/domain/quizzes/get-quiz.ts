import type { DomainDeps } from '../deps';
import {
  questionsInclude,
  quizWithQuestionsRecord,
  settingsRecord,
  type QuizWithQuestions,
} from '../quiz-records';
import { quizNotFound, resolveQuiz } from './resolve-quiz';

/** The caller's quiz with its questions, or the not-found error (rule 2). */
export async function loadOwnedQuiz(
  deps: DomainDeps,
  ownerId: string,
  ref: string,
): Promise<QuizWithQuestions> {
  if (deps.reads) {
    // An ID match always wins and is the usual reference (assistants pass
    // the quiz_id they were given): one lookup by ID loads it without resolving candidates.
    const byId = await deps.reads.quizWithQuestions(ownerId, ref.trim());
    if (byId) return byId;
  }
  const { id } = await resolveQuiz(deps, ownerId, ref);
  const quiz = deps.reads
    ? await deps.reads.quizWithQuestions(ownerId, id)
    : await deps.db.quiz.findFirst({ where: { id, ownerId }, include: questionsInclude });
  // Deleted between the two reads: the same answer as if it had never existed.
  if (!quiz) throw quizNotFound(ref);
  return quiz;
}

export async function getQuizQuestions(deps: DomainDeps, ownerId: string, ref: string) {
  return quizWithQuestionsRecord(deps.baseUrl, await loadOwnedQuiz(deps, ownerId, ref));
}

export async function getQuizSettings(deps: DomainDeps, ownerId: string, ref: string) {
  return settingsRecord(deps.baseUrl, await loadOwnedQuiz(deps, ownerId, ref));
}
