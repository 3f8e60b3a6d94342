import { listQuizzes } from '../domain/quizzes/list-quizzes';
import type { Completer } from './prompt';

/** How many of the caller's newest quizzes completion looks through. */
const COMPLETION_WINDOW = 100;

/**
 * Completes a quiz reference (the `quiz_id` of a prompt or of `quiz://{quiz_id}`) from the
 * caller's own quizzes only: the titles and slugs that start with, or contain, what was typed,
 * prefix matches first. Without the read scope it suggests nothing.
 */
export const completeQuizRef: Completer = async (value, { deps, principal }) => {
  if (!principal.scopes.has('quizzes:read')) return [];
  const { quizzes } = await listQuizzes(deps, principal.userId, { limit: COMPLETION_WINDOW });
  const typed = value.trim().toLowerCase();
  const starts: string[] = [];
  const contains: string[] = [];
  for (const quiz of quizzes) {
    for (const candidate of [quiz.title, quiz.slug]) {
      const key = candidate.toLowerCase();
      if (key.startsWith(typed)) starts.push(candidate);
      else if (key.includes(typed)) contains.push(candidate);
    }
  }
  return [...new Set([...starts, ...contains])];
};
