import type { DomainDeps } from '../deps';
import { DomainError } from '../errors';
import { publicUrl, questionRecord } from '../quiz-records';
import { quizWarnings } from './quiz-warnings';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { quizNotFound } from '../owned/resolve-quiz';
import { quizPublishedEvent } from '../webhooks/events';

/** draft -> published. Needs at least one question; publishing twice is a no-op that says so. */
export async function publishQuiz(deps: DomainDeps, ownerId: string, ref: string) {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  const alreadyPublished = quiz.status === 'published';
  if (!alreadyPublished) {
    if (quiz.questions.length === 0) {
      throw new DomainError(
        'invalid_state',
        `"${quiz.title}" has no questions, so it cannot be published. Add questions with update_quiz first.`,
      );
    }
    // Only a draft flips; a concurrent publish leaves the first published_at in place.
    const at = new Date();
    await deps.repos.quizzes.publish(
      quiz.id,
      at,
      quizPublishedEvent(quiz, at, publicUrl(deps.baseUrl, { ...quiz, status: 'published' })!),
    );
  }
  const fresh = await deps.repos.quizzes.byId(quiz.id);
  // Deleted in between: the same answer as if it had never existed.
  if (!fresh) throw quizNotFound(ref);
  const url = publicUrl(deps.baseUrl, fresh);
  return {
    quiz_id: fresh.id,
    slug: fresh.slug,
    title: fresh.title,
    status: 'published' as const,
    published_at: fresh.publishedAt?.toISOString() ?? null,
    public_url: url,
    already_published: alreadyPublished,
    warnings: quizWarnings(
      quiz.questions.map((question) => questionRecord(question)),
      quiz,
    ),
    message: alreadyPublished
      ? `"${fresh.title}" was already published; nothing changed. Its public page is ${url}.`
      : `"${fresh.title}" is published. People can take it at ${url}.`,
  };
}
