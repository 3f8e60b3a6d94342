import { z } from 'zod';
import { createQuiz } from '../../domain/quizzes/create-quiz';
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
  }),
  output: QuizWithQuestionsSchema.extend({ warnings: WarningsSchema, times: TimesReadSchema }),
  listedOutput: ListedQuizWrittenSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scope: 'quizzes:write',
  view: true,
  run: (args, { deps, principal }) => createQuiz(deps, principal.userId, args),
});
