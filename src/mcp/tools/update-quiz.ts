import { z } from 'zod';
import { updateQuiz } from '../../domain/quizzes/update-quiz';
import {
  DescriptionSchema,
  QuestionsInputSchema,
  SettingsInputSchema,
  TitleSchema,
} from '../../domain/quiz-input';
import { confirmAskingPerson } from '../approvals/confirm';
import { AskPersonSchema } from '../approvals/person';
import { defineTool } from '../tool';
import { mayRead } from '../write-only-answer';
import {
  ConfirmEditPublishedSchema,
  ListedQuizWrittenSchema,
  QuizRefSchema,
  QuizWithQuestionsSchema,
  TimesReadSchema,
  TimeZoneSchema,
  WarningsSchema,
} from './common';

export const updateQuizTool = defineTool({
  name: 'update_quiz',
  title: 'Update a quiz',
  description:
    'Changes a quiz (edit_questions sends less for a few questions). `questions` REPLACES them all: send each kept ' +
    'one with its `question_id` (id and statistics kept while type, key and scores are; renewed without quizzes:read).',
  input: z.strictObject({
    quiz_id: QuizRefSchema,
    questions: QuestionsInputSchema.optional().describe(
      'In order. Fields as in create_quiz; omitted fields take their defaults.',
    ),
    confirm_edit_published: ConfirmEditPublishedSchema,
    remark_past_responses: z
      .boolean({ error: 'remark_past_responses must be true or false' })
      .optional()
      .describe('After fixing a key: keep the ids sent (same type, option count), re-mark past answers.'),
    title: TitleSchema.optional().describe('Slug and public link stay the same.'),
    description: DescriptionSchema.nullable().optional().describe('null or "" removes it.'),
    settings: SettingsInputSchema.optional().describe(
      'Fields as in create_quiz; anything left out stays as it is.',
    ),
    timezone: TimeZoneSchema.describe('As in create_quiz.'),
    ask_person: AskPersonSchema,
  }),
  output: QuizWithQuestionsSchema.extend({
    warnings: WarningsSchema,
    times: TimesReadSchema,
    remarked_responses: z
      .number()
      .int()
      .optional()
      .describe('With remark_past_responses: how many past responses got new marks.'),
    overridden_kept: z
      .number()
      .int()
      .optional()
      .describe('Answers the owner overrode, which the re-marking left as set; absent when none.'),
  }),
  listedOutput: ListedQuizWrittenSchema.extend({
    remarked_responses: z.number(),
  }),
  // Not idempotent: a repeated call without question_ids gives the questions new ids each time.
  describedIn: { tool: 'create_quiz', properties: ['questions', 'settings'] },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  scope: 'quizzes:write',
  view: true,
  // With ask_person a client that can show a form asks the teacher to confirm (approvals/confirm.ts).
  run: (args, context) =>
    confirmAskingPerson(context, {
      kind: 'update',
      argument: 'confirm_edit_published',
      askPerson: args.ask_person,
      ref: args.quiz_id,
      args,
      confirmed: args.confirm_edit_published,
      run: (confirmed) =>
        updateQuiz(context.deps, context.principal.userId, {
          ref: args.quiz_id,
          questions: args.questions,
          title: args.title,
          description: args.description,
          settings: args.settings,
          timezone: args.timezone,
          confirmEditPublished: confirmed,
          remarkPastResponses: args.remark_past_responses,
          mayRead: mayRead(context.principal),
        }),
    }),
});
