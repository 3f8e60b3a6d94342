import { z } from 'zod';
import { updateQuiz } from '../../domain/quizzes/update-quiz';
import {
  DescriptionSchema,
  QuestionsInputSchema,
  SettingsInputSchema,
  TitleSchema,
} from '../../domain/quiz-input';
import { defineTool } from '../tool';
import { QuizRefSchema, QuizWithQuestionsSchema } from './common';

export const updateQuizTool = defineTool({
  name: 'update_quiz',
  title: 'Update a quiz',
  description:
    'Changes one of your quizzes. `questions` REPLACES all current questions with the list you send (send the ' +
    "complete list, not just the changes). To keep a question's id and statistics, send its `question_id` with it: " +
    'it is kept when the type, answer key and scores are unchanged (text, labels and explanation may change); ' +
    'otherwise, and for items without one, the question gets a new id. `title`, `description` and `settings` are optional. ' +
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
    remark_past_responses: z
      .boolean({ error: 'remark_past_responses must be true or false' })
      .optional()
      .describe(
        'After fixing an answer key: true keeps the id of each question sent with its question_id (same type and number of ' +
          'options) and marks its past answers again under the new key; each re-marked response keeps its original score.',
      ),
    title: TitleSchema.optional().describe(
      'New title, 1-200 characters. The slug and public link stay the same.',
    ),
    description: DescriptionSchema.nullable()
      .optional()
      .describe('New description, plain text (at most 5000 characters); null or "" removes it.'),
    settings: SettingsInputSchema.optional().describe(
      'Settings to change; anything left out stays as it is.',
    ),
  }),
  output: QuizWithQuestionsSchema.extend({
    remarked_responses: z
      .number()
      .int()
      .optional()
      .describe('With remark_past_responses: how many past responses got new marks.'),
  }),
  // Not idempotent: a repeated call without question_ids gives the questions new ids each time.
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  scope: 'quizzes:write',
  view: true,
  run: (args, { deps, principal }) =>
    updateQuiz(deps, principal.userId, {
      ref: args.quiz_id,
      questions: args.questions,
      title: args.title,
      description: args.description,
      settings: args.settings,
      confirmEditPublished: args.confirm_edit_published,
      remarkPastResponses: args.remark_past_responses,
    }),
});
