import { z } from 'zod';
import { listQuizzes } from '../../domain/quizzes/list-quizzes';
import { defineTool, READ_ONLY } from '../tool';
import { CursorSchema, LimitSchema, QuizSummarySchema, timestamp } from './common';

export const listQuizzesTool = defineTool({
  name: 'list_quizzes',
  title: 'List my quizzes',
  description:
    'Lists your quizzes, newest first: ID, title, slug, status (draft or published), question and response counts, ' +
    'and the public link of published ones. Returns up to `limit` quizzes (default 20); pass `next_cursor` as `cursor` for more.',
  input: z.strictObject({ limit: LimitSchema, cursor: CursorSchema }),
  output: z.object({
    quizzes: z.array(
      QuizSummarySchema.extend({
        question_count: z.number().int(),
        response_count: z.number().int(),
        public_url: z.string().nullable(),
        created_at: timestamp,
        updated_at: timestamp,
      }),
    ),
    next_cursor: z
      .string()
      .nullable()
      .describe('Pass as `cursor` to get the next page; null on the last page.'),
  }),
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  view: true,
  run: (args, { deps, principal }) => listQuizzes(deps, principal.userId, args),
});
