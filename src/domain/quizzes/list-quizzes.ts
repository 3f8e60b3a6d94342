import { decodeCursor, encodeCursor } from '../cursor';
import type { DomainDeps } from '../deps';
import { publicUrl, quizSummary } from '../quiz-records';

export interface ListQuizzesInput {
  limit: number;
  cursor?: string | undefined;
}

/** The caller's quizzes, newest first, a page at a time (keyset on created_at, id). */
export async function listQuizzes({ repos, baseUrl }: DomainDeps, ownerId: string, input: ListQuizzesInput) {
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const rows = await repos.quizzes.listByOwner(ownerId, input.limit + 1, after);
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  return {
    quizzes: page.map((quiz) => ({
      ...quizSummary(quiz),
      question_count: quiz.questionCount,
      response_count: quiz.responseCount,
      public_url: publicUrl(baseUrl, quiz),
      created_at: quiz.createdAt.toISOString(),
      updated_at: quiz.updatedAt.toISOString(),
    })),
    next_cursor: rows.length > input.limit && last ? encodeCursor({ at: last.createdAt, id: last.id }) : null,
  };
}
