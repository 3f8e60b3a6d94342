import type { QuizListFilter, QuizListing } from '../../db/repositories';
import { decodeCursor, encodeCursor } from '../cursor';
import { isOpen } from '../attempts/taking-rules';
import { nowOf, type DomainDeps } from '../deps';
import { publicUrl, quizSummary } from '../quiz-records';
import { titleKey } from '../owned/resolve-quiz';

/** Published quizzes that take responses (open) or not (closed). */
export const QUIZ_LIST_STATUSES = ['draft', 'published', 'open', 'closed'] as const;
export type QuizListStatus = (typeof QUIZ_LIST_STATUSES)[number];

export interface ListQuizzesInput {
  limit: number;
  cursor?: string | undefined;
  /** Part of the title, in any case. */
  search?: string | undefined;
  status?: QuizListStatus | undefined;
}

function listFilter(input: ListQuizzesInput): QuizListFilter {
  const search = titleKey(input.search ?? '');
  return {
    ...(search ? { titleKeyContains: search } : {}),
    ...(input.status === 'draft' ? { status: 'draft' } : input.status ? { status: 'published' } : {}),
    ...(input.status === 'open' ? { acceptingResponses: true } : {}),
    ...(input.status === 'closed' ? { acceptingResponses: false } : {}),
  };
}

/** The caller's quizzes, newest first, a page at a time (keyset on created_at, id). */
export async function listQuizzes(deps: DomainDeps, ownerId: string, input: ListQuizzesInput) {
  const { rows, next_cursor } = await listPage(deps, ownerId, input);
  const now = nowOf(deps);
  return { quizzes: rows.map((quiz) => listItem(deps.baseUrl, quiz, now)), next_cursor };
}

/** The same list for the owners' dashboard, which also shows whether each quiz takes responses. */
export async function browseQuizzes(deps: DomainDeps, ownerId: string, input: ListQuizzesInput) {
  const { rows, next_cursor } = await listPage(deps, ownerId, input);
  const now = nowOf(deps);
  return {
    quizzes: rows.map((quiz) => ({
      ...listItem(deps.baseUrl, quiz, now),
      accepting_responses: quiz.acceptingResponses,
    })),
    next_cursor,
  };
}

function listItem(baseUrl: string, quiz: QuizListing, now: number) {
  return {
    ...quizSummary(quiz),
    is_open: isOpen(quiz, now),
    question_count: quiz.questionCount,
    response_count: quiz.responseCount,
    public_url: publicUrl(baseUrl, quiz),
    created_at: quiz.createdAt.toISOString(),
    updated_at: quiz.updatedAt.toISOString(),
  };
}

async function listPage({ repos }: DomainDeps, ownerId: string, input: ListQuizzesInput) {
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const rows = await repos.quizzes.listByOwner(ownerId, input.limit + 1, after, listFilter(input));
  const page = rows.slice(0, input.limit);
  const last = page[page.length - 1];
  // SQL's LIKE reads % and _ in the search as wildcards, so the rows may be a superset: keep the
  // exact matches (a page can come out shorter; the cursor still follows the rows read).
  const search = titleKey(input.search ?? '');
  return {
    rows: search ? page.filter((quiz) => quiz.titleKey.includes(search)) : page,
    next_cursor: rows.length > input.limit && last ? encodeCursor({ at: last.createdAt, id: last.id }) : null,
  };
}
