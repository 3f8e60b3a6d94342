import { z } from 'zod';
import { updateQuiz } from '../../domain/quizzes/update-quiz';
import { QuestionsInputSchema, SettingsInputSchema, TitleSchema } from '../../domain/quiz-input';
import { defineTool } from '../tool';
import { QuizRefSchema, QuizWithQuestionsSchema } from './common';

export const updateQuizTool = defineTool({
  name: 'update_quiz',
  title: 'Update a quiz',
  description:
    'Changes one of your quizzes. `questions` REPLACES all current questions with the list you send (send the ' +
    'complete list, not just the changes; question IDs are new afterwards). `title` and `settings` are optional. ' +
    'A published quiz changes only with confirm_edit_published: true; responses already received keep their scores.',
  input: z.strictObject({
    quiz_id: QuizRefSchema,
    questions: QuestionsInputSchema.optional().describe(
      'The complete new list of questions, in order (at most 100). Replaces every current question.',
    ),
    confirm_edit_published: z
      .boolean({ error: 'confirm_edit_published must be true or false' })
      .optional()
      .describe('Must be true to change a published quiz. Ignored for drafts.'),
    title: TitleSchema.optional().describe(
      'New title, 1-200 characters. The slug and public link stay the same.',
    ),
    settings: SettingsInputSchema.optional().describe(
      'Settings to change; anything left out stays as it is.',
    ),
  }),
  output: QuizWithQuestionsSchema,
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  scope: 'quizzes:write',
  view: true,
  run: (args, { deps, principal }) =>
    updateQuiz(deps, principal.userId, {
      ref: args.quiz_id,
      questions: args.questions,
      title: args.title,
      settings: args.settings,
      confirmEditPublished: args.confirm_edit_published,
    }),
});
