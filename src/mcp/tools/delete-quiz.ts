import { z } from 'zod';
import { deleteQuiz } from '../../domain/quizzes/delete-quiz';
import { confirmAskingPerson } from '../approvals/confirm';
import { AskPersonSchema } from '../approvals/person';
import { defineTool } from '../tool';
import { QuizRefSchema } from './common';

export const deleteQuizTool = defineTool({
  name: 'delete_quiz',
  title: 'Delete a quiz',
  description:
    'Deletes a quiz, its questions and ALL its responses, for good. ' +
    'Without confirm: true nothing is deleted; the answer says what would go.',
  input: z.strictObject({
    quiz_id: QuizRefSchema,
    confirm: z
      .boolean({ error: 'confirm must be true or false' })
      .optional()
      .describe('Must be true to delete.'),
    ask_person: AskPersonSchema,
  }),
  output: z.object({
    quiz_id: z.string(),
    slug: z.string(),
    title: z.string(),
    deleted: z.literal(true),
    deleted_questions: z.number().int(),
    deleted_responses: z.number().int(),
    message: z.string(),
  }),
  listedOutput: z.object({
    quiz_id: z.string(),
    slug: z.string(),
    title: z.string(),
    deleted: z.boolean(),
    deleted_questions: z.number(),
    deleted_responses: z.number(),
    message: z.string(),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  scope: 'quizzes:write',
  // With ask_person a client that can show a form asks the teacher instead (approvals/confirm.ts).
  run: (args, context) =>
    confirmAskingPerson(context, {
      kind: 'delete',
      argument: 'confirm',
      askPerson: args.ask_person,
      ref: args.quiz_id,
      args,
      confirmed: args.confirm,
      run: (confirm) => deleteQuiz(context.deps, context.principal.userId, args.quiz_id, confirm),
    }),
});
