import { z } from 'zod';
import { createQuiz } from '../../domain/quizzes/create-quiz';
import {
  DescriptionSchema,
  QuestionsInputSchema,
  SettingsInputSchema,
  TitleSchema,
} from '../../domain/quiz-input';
import { defineTool } from '../tool';
import { QuizWithQuestionsSchema } from './common';

export const createQuizTool = defineTool({
  name: 'create_quiz',
  title: 'Create a quiz',
  description:
    'Creates a new quiz in draft status and returns its quiz_id, slug, status and questions (each with its question_id). ' +
    'Question types: "yes_no" (the `correct_answer`, "yes" unless you say "no", earns `points`; the other earns 0) and ' +
    '"multiple_choice" (2-20 options, each with a `label` and the `score` it earns). Each question may carry an ' +
    '`explanation` of its right answer. Up to 100 questions. Drafts are private: publish_quiz makes it public.',
  input: z.strictObject({
    title: TitleSchema.describe('Title of the quiz, 1-200 characters.'),
    description: DescriptionSchema.optional().describe(
      'What the quiz is about, plain text with line breaks (at most 5000 characters); shown above the questions.',
    ),
    questions: QuestionsInputSchema.default([]).describe('The questions, in order (at most 100).'),
    settings: SettingsInputSchema.optional().describe(
      'Optional settings; anything left out keeps its default.',
    ),
  }),
  output: QuizWithQuestionsSchema,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  scope: 'quizzes:write',
  view: true,
  run: (args, { deps, principal }) => createQuiz(deps, principal.userId, args),
});
