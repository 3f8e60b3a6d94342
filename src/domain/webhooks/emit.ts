import type { QuizRow, Repositories } from '../../db/repositories';
import { quizClosedEvent } from './events';

/**
 * quiz.closed for a quiz whose closing time passed. For the job that notices closing times:
 * it may call this for a quiz more than once (on every instance, on every round), and the event
 * is written once, since its id is derived from the quiz and the time it closed at.
 */
export async function emitScheduledClose(
  { webhooks }: Pick<Repositories, 'webhooks'>,
  quiz: Pick<QuizRow, 'id' | 'ownerId' | 'slug' | 'title'>,
  closesAt: Date,
): Promise<void> {
  await webhooks.writeEvent(quizClosedEvent(quiz, closesAt, 'closes_at'));
}
