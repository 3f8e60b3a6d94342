import type { DomainDeps } from '../deps';
import { ConfirmationRequired } from '../errors';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { quizNotFound } from '../owned/resolve-quiz';
import { quizDeletedEvent } from '../webhooks/events';

/** Removes a quiz with its questions and all its responses, only with `confirm: true`. */
export async function deleteQuiz(
  deps: DomainDeps,
  ownerId: string,
  ref: string,
  confirm: boolean | undefined,
) {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  const responseCount = await deps.repos.responses.countForQuiz(quiz.id);
  if (confirm !== true) {
    throw new ConfirmationRequired(
      `Deleting "${quiz.title}" (slug ${quiz.slug}) removes it, its ${quiz.questions.length} question(s) and its ` +
        `${responseCount} response(s) for good. Nothing was deleted.`,
      { argument: 'confirm', lead: 'To go ahead' },
    );
  }
  const event = quizDeletedEvent(quiz, new Date(), responseCount);
  if (!(await deps.repos.quizzes.delete(ownerId, quiz.id, event))) throw quizNotFound(ref);
  return {
    quiz_id: quiz.id,
    slug: quiz.slug,
    title: quiz.title,
    deleted: true as const,
    deleted_questions: quiz.questions.length,
    deleted_responses: responseCount,
    message: `Deleted "${quiz.title}" with its ${quiz.questions.length} question(s) and ${responseCount} response(s).`,
  };
}
