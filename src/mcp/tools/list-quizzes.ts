import { z } from 'zod';
import { listQuizzes, QUIZ_LIST_STATUSES } from '../../domain/quizzes/list-quizzes';
import { defineTool, READ_ONLY } from '../tool';
import { CursorSchema, LimitSchema, ListedQuizSchema, QuizSummarySchema, timestamp } from './common';

export const listQuizzesTool = defineTool({
  name: 'list_quizzes',
  title: 'List my quizzes',
  description: 'Your quizzes, newest first, with status, counts and public link.',
  input: z.strictObject({
    limit: LimitSchema,
    cursor: CursorSchema,
    status: z
      .enum(QUIZ_LIST_STATUSES, { error: `status must be one of ${QUIZ_LIST_STATUSES.join(', ')}` })
      .optional()
      .describe('open/closed: published, taking responses or not.'),
    search: z
      .string({ error: 'search must be a string: part of a title' })
      .refine((text) => text.length <= 200, { error: 'search is too long: send part of a title' })
      .optional()
      .describe('Part of the title.'),
  }),
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
    next_cursor: z.string().nullable(),
  }),
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  view: true,
  run: (args, { deps, principal }) =>
    listQuizzes(deps, principal.userId, { ...args, limit: args.limit ?? 20 }),
});
