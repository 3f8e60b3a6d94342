import { z } from 'zod';
import { closeQuiz, reopenQuiz } from '../../domain/quizzes/close-quiz';
import { defineTool } from '../tool';
import { QuizRefSchema, TimeZoneSchema, ZonedTimeSchema, localTime } from './common';

export const closeQuizTool = defineTool({
  name: 'close_quiz',
  title: 'Close a quiz',
  description:
    'Stops a published quiz taking responses, now or at `at`. Attempts under way finish in their time limit.',
  input: z.strictObject({
    quiz_id: QuizRefSchema,
    at: localTime('at').optional().describe('When to close (default now).'),
    timezone: TimeZoneSchema,
  }),
  output: z.object({
    quiz_id: z.string(),
    status: z.enum(['draft', 'published']),
    is_open: z.boolean(),
    closes_at: ZonedTimeSchema,
    already_closed: z.boolean(),
    in_progress_attempts: z.number().int().describe('Timed attempts still under way.'),
    message: z.string(),
  }),
  listedOutput: z.object({
    quiz_id: z.string(),
    status: z.string(),
    is_open: z.boolean(),
    closes_at: ZonedTimeSchema,
    already_closed: z.boolean(),
    in_progress_attempts: z.number(),
    message: z.string(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scope: 'quizzes:write',
  toolset: 'grading',
  run: (args, { deps, principal }) =>
    closeQuiz(deps, principal.userId, { ref: args.quiz_id, at: args.at, timezone: args.timezone }),
});

export const reopenQuizTool = defineTool({
  name: 'reopen_quiz',
  title: 'Reopen a quiz',
  description: 'A published quiz takes responses again, until `until`.',
  input: z.strictObject({
    quiz_id: QuizRefSchema,
    until: localTime('until').optional().describe('When to close again (default never).'),
    timezone: TimeZoneSchema,
  }),
  output: z.object({
    quiz_id: z.string(),
    status: z.literal('published'),
    is_open: z.boolean(),
    closes_at: ZonedTimeSchema.nullable(),
    message: z.string(),
  }),
  listedOutput: z.object({
    quiz_id: z.string(),
    status: z.string(),
    is_open: z.boolean(),
    closes_at: ZonedTimeSchema.nullable(),
    message: z.string(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  scope: 'quizzes:write',
  toolset: 'grading',
  run: (args, { deps, principal }) =>
    reopenQuiz(deps, principal.userId, { ref: args.quiz_id, until: args.until, timezone: args.timezone }),
});
