import type { Prisma } from '../generated/sqlite/client';

/** A quiz as the database gives it: its row, and with its questions and options in order. */
export const questionsInclude = {
  questions: { orderBy: { position: 'asc' }, include: { options: { orderBy: { position: 'asc' } } } },
} as const satisfies Prisma.QuizInclude;

export type QuizWithQuestions = Prisma.QuizGetPayload<{ include: typeof questionsInclude }>;
export type QuestionRow = QuizWithQuestions['questions'][number];
export type QuizRow = Prisma.QuizGetPayload<object>;
