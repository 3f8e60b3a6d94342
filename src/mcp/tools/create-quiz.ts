import { z } from 'zod';
import { createQuiz, createQuizBrief } from '../../domain/quizzes/create-quiz';
import {
  DescriptionSchema,
  QuestionsInputSchema,
  SettingsInputSchema,
  TitleSchema,
} from '../../domain/quiz-input';
import { defineTool } from '../tool';
import {
  ListedQuizWrittenSchema,
  QuizWithQuestionsSchema,
  ReplySchema,
  SettingsRecordSchema,
  timestamp,
  TimesReadSchema,
  TimeZoneSchema,
  WarningsSchema,
} from './common';

export const createQuizTool = defineTool({
  name: 'create_quiz',
  title: 'Create a quiz',
  description:
    'Creates a draft quiz (private until publish_quiz); returns the question ids. ' +
    'Each `type` has its own fields.',
  input: z.strictObject({
    title: TitleSchema.describe('The quiz title.'),
    description: DescriptionSchema.optional().describe('Plain text shown above the questions.'),
    questions: QuestionsInputSchema.default([]).describe('In order.'),
    settings: SettingsInputSchema.optional().describe('All optional.'),
    timezone: TimeZoneSchema,
    publish: z.boolean({ error: 'publish must be true or false' }).optional().describe('Also publish.'),
    reply: ReplySchema,
  }),
  // With reply "brief": no description, updated_at or questions, but question_ids and settings.
  output: QuizWithQuestionsSchema.partial({ description: true, updated_at: true, questions: true }).extend({
    published_at: timestamp.nullable().optional().describe('With publish.'),
    question_ids: z.array(z.string()).optional().describe('With reply "brief": in order.'),
    settings: SettingsRecordSchema.omit({
      quiz_id: true,
      slug: true,
      title: true,
      status: true,
      published_at: true,
      public_url: true,
      question_count: true,
      max_score: true,
    })
      .optional()
      .describe('With reply "brief": as get_quiz_settings gives them.'),
    warnings: WarningsSchema,
    times: TimesReadSchema,
  }),
  listedOutput: ListedQuizWrittenSchema.extend({
    published_at: z.string().nullable(),
    question_ids: z.array(z.string()),
    // get_quiz_settings' fields, which its listing names.
    settings: z.object({}),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scope: 'quizzes:write',
  view: true,
  run: ({ reply, ...args }, { deps, principal }) =>
    reply === 'brief'
      ? createQuizBrief(deps, principal.userId, args)
      : createQuiz(deps, principal.userId, args),
});
