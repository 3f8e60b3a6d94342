import { z } from 'zod';
import { createQuiz } from '../../domain/quizzes/create-quiz';
import {
  DescriptionSchema,
  QuestionsInputSchema,
  SettingsInputSchema,
  TitleSchema,
} from '../../domain/quiz-input';
import { defineTool } from '../tool';
import { ListedQuizWrittenSchema, QuizWithQuestionsSchema } from './common';

export const createQuizTool = defineTool({
  name: 'create_quiz',
  title: 'Create a quiz',
  description:
    "Creates a draft quiz (private until publish_quiz) and returns it with each question's question_id. " +
    'Types: "yes_no" (the `correct_answer`, default "yes", earns `points`; the other earns 0) and "multiple_choice" ' +
    '(2-20 `options`, each `label` earning its `score`). Any question may carry an `explanation`. Up to 100 questions.',
  input: z.strictObject({
    title: TitleSchema.describe('Title of the quiz, 1-200 characters.'),
    description: DescriptionSchema.optional().describe(
      'Plain text shown above the questions (at most 5000 characters).',
    ),
    questions: QuestionsInputSchema.default([]).describe('The questions, in order (at most 100).'),
    settings: SettingsInputSchema.optional().describe(
      'Optional settings; anything left out keeps its default.',
    ),
  }),
  output: QuizWithQuestionsSchema,
  listedOutput: ListedQuizWrittenSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scope: 'quizzes:write',
  view: true,
  run: (args, { deps, principal }) => createQuiz(deps, principal.userId, args),
});
