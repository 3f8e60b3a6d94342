import type { Prisma } from '../generated/sqlite/client';

/** How Prisma loads a quiz with its questions in order (quiz-rows.ts has the shape). */
export const questionsInclude = {
  questions: { orderBy: { position: 'asc' } },
} as const satisfies Prisma.QuizInclude;

/**
 * Columns a quiz row never carries: the link secret signs the quiz's links and is read alone,
 * where a link is made or checked, so it does not travel with every read of the quiz.
 */
export const QUIZ_ROW_OMIT = { linkSecret: true, closedEventAt: true } as const satisfies Prisma.QuizOmit;
