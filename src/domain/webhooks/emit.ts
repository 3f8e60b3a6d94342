import type { QuizRow, Repositories } from '../../db/repositories';
import { quizClosedEvent } from './events';

/**
 * quiz.closed for a quiz whose closing time came: when the owner closes it now (close_quiz), or
 * when the job of scheduled-closes.ts notices the time passed. Any number of callers, on any
 * number of instances, write it once per closing: the quiz is marked with the time it closed at
 * in the transaction that writes the event (and the event's id is derived from both).
 */
export function emitScheduledClose(
  { quizzes }: Pick<Repositories, 'quizzes'>,
  quiz: Pick<QuizRow, 'id' | 'ownerId' | 'slug' | 'title'>,
  closesAt: Date,
): Promise<boolean> {
  return quizzes.markClosed(quiz.id, closesAt, quizClosedEvent(quiz, closesAt, 'closes_at'));
}
