import type { Prisma } from '../generated/sqlite/client';

/** How Prisma loads a quiz with its questions and options in order (repositories/quiz-rows.ts has the shape). */
export const questionsInclude = {
  questions: { orderBy: { position: 'asc' }, include: { options: { orderBy: { position: 'asc' } } } },
} as const satisfies Prisma.QuizInclude;
