import { z } from 'zod';
import { listQuizzes } from '../../domain/quizzes/list-quizzes';
import { defineTool, READ_ONLY } from '../tool';
import { CursorSchema, LimitSchema, ListedQuizSchema, QuizSummarySchema, timestamp } from './common';

export const listQuizzesTool = defineTool({
  name: 'list_quizzes',
  title: 'List my quizzes',
  description:
    'Lists your quizzes, newest first, with status, question and response counts and public link. ' +
    'Up to `limit` (default 20); pass `next_cursor` as `cursor` for more.',
  input: z.strictObject({ limit: LimitSchema, cursor: CursorSchema }),
  output: z.object({
    quizzes: z.array(
      QuizSummarySchema.extend({
        question_count: z.number().int(),
        response_count: z.number().int(),
        public_url: z.string().nullable(),
        is_open: z.boolean(),
        created_at: timestamp,
        updated_at: timestamp,
      }),
    ),
    next_cursor: z
      .string()
      .nullable()
      .describe('Pass as `cursor` to get the next page; null on the last page.'),
  }),
  listedOutput: z.object({
    quizzes: z.array(
      ListedQuizSchema.omit({ max_score: true }).extend({
        question_count: z.number(),
        response_count: z.number(),
        is_open: z.boolean(),
        created_at: z.string(),
        updated_at: z.string(),
      }),
    ),
    next_cursor: z.string().nullable().describe('Pass as `cursor` for the next page; null on the last.'),
  }),
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  view: true,
  run: (args, { deps, principal }) => listQuizzes(deps, principal.userId, args),
});
