import { z } from 'zod';
import { EDIT_OPERATIONS_MAX, EDIT_OPS, editQuestions } from '../../domain/quizzes/edit-questions';
import { questionFigures, RESPONDENT_TEXT_NOTE } from '../../domain/reporting/get-results';
import { LIMITS, QuestionFieldsSchema, withTypeMisfits } from '../../domain/quiz-input';
import { defineTool } from '../tool';
import { mayRead } from '../write-only-answer';
import {
  ConfirmEditPublishedSchema,
  ListedWarningsSchema,
  QuizRefSchema,
  ReplySchema,
  StatusSchema,
  WarningsSchema,
} from './common';

const OperationSchema = withTypeMisfits(
  QuestionFieldsSchema.partial().extend({
    op: z.enum(EDIT_OPS, { error: `op must be ${EDIT_OPS.map((op) => `"${op}"`).join(', ')}` }),
    position: z
      .number({ error: 'position must be a whole number from 1' })
      .int({ error: 'position must be a whole number from 1' })
      .min(1, { error: 'position must be at least 1 (the first question)' })
      .max(LIMITS.questionsMax + 1, { error: `position must be at most ${LIMITS.questionsMax + 1}` })
      .optional(),
  }),
);

/** What the edit did: per operation, the question, its place and whether its id was kept. */
const EditSummarySchema = z.object({
  quiz_id: z.string(),
  slug: z.string(),
  title: z.string(),
  status: StatusSchema,
  question_count: z.number().int(),
  max_score: z.number().int(),
  version_raised: z.boolean().describe('False: only texts changed, attempts in progress go on.'),
  changes: z.array(
    z.object({
      op: z.enum(EDIT_OPS),
      question_id: z.string().nullable().describe('remove: the id removed.'),
      position: z.number().int().nullable().describe('1-based, after the edit; null once removed.'),
      fields: z.array(z.string()).optional().describe('update: the fields sent.'),
      id: z
        .enum(['kept', 'renewed'])
        .optional()
        .describe(
          'update: renewed when the answer key changed, or was sent without quizzes:read (statistics start over).',
        ),
      previous_question_id: z.string().optional().describe('The id before it was renewed.'),
    }),
  ),
  remarked_responses: z.number().int().optional(),
  overridden_kept: z
    .number()
    .int()
    .optional()
    .describe('Answers the owner overrode, which the re-marking left as set; absent when none.'),
  warnings: WarningsSchema,
  message: z.string(),
  figures: z
    .array(z.record(z.string(), z.unknown()))
    .optional()
    .describe('With reply "brief": get_results\' questions for those added or updated, after re-marking.'),
  figures_withheld: z.string().optional().describe('Why figures are absent: they need quizzes:read.'),
  student_text_note: z.string().optional().describe("Present when the figures hold respondents' text."),
});

/** Said in place of the figures to a credential that may not read them. */
const FIGURES_WITHHELD = 'figures need a credential with quizzes:read';

export const editQuestionsTool = defineTool({
  name: 'edit_questions',
  title: 'Edit questions',
  description:
    'Changes single questions of a quiz without resending the rest; all operations apply, in order, or none. ' +
    'Ids and statistics stay while keys and scores do; texts-only edits let attempts in progress go on.',
  input: z.strictObject({
    quiz_id: QuizRefSchema,
    operations: z
      .array(OperationSchema, { error: 'operations must be an array of { op, ... } objects' })
      .min(1, { error: 'operations needs at least one operation' })
      .max(EDIT_OPERATIONS_MAX, { error: `at most ${EDIT_OPERATIONS_MAX} operations per call` })
      .describe(
        'add: a question, at position (1-based; default last). ' +
          'update: question_id and the fields to change (options replaced whole). ' +
          'remove: question_id. move: question_id, position. Fields as in create_quiz.',
      ),
    confirm_edit_published: ConfirmEditPublishedSchema,
    remark_past_responses: z
      .boolean({ error: 'remark_past_responses must be true or false' })
      .optional()
      .describe('As in update_quiz.'),
    reply: ReplySchema,
  }),
  output: EditSummarySchema,
  listedOutput: z.object({
    quiz_id: z.string(),
    slug: z.string(),
    title: z.string(),
    status: z.string(),
    question_count: z.number(),
    max_score: z.number(),
    version_raised: z.boolean(),
    changes: z.array(
      z.object({
        op: z.string(),
        question_id: z.string().nullable(),
        position: z.number().nullable(),
        fields: z.array(z.string()),
        id: z.string(),
        previous_question_id: z.string(),
      }),
    ),
    remarked_responses: z.number(),
    warnings: ListedWarningsSchema,
    message: z.string(),
    // get_results' questions, which its listing names.
    figures: z.array(z.object({})),
    figures_withheld: z.string(),
    student_text_note: z.string(),
  }),
  describedIn: { tool: 'create_quiz', properties: ['operations'] },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  scope: 'quizzes:write',
  run: async (args, { deps, principal }) => {
    const reader = mayRead(principal);
    const edited = await editQuestions(deps, principal.userId, {
      ref: args.quiz_id,
      operations: args.operations,
      confirmEditPublished: args.confirm_edit_published,
      remarkPastResponses: args.remark_past_responses,
      mayRead: reader,
    });
    if (args.reply !== 'brief') return edited;
    if (!reader) return { ...edited, figures_withheld: FIGURES_WITHHELD };
    const ids = edited.changes
      .filter((change) => change.op === 'add' || change.op === 'update')
      .flatMap((change) => (change.question_id === null ? [] : [change.question_id]));
    const figures = await questionFigures(deps, principal.userId, edited.quiz_id, ids);
    // Common answers are respondents' words, marked as get_results marks them.
    const studentText = figures.some(
      (question) => (question as { common_answers?: unknown[] }).common_answers?.length,
    );
    return { ...edited, figures, ...(studentText ? { student_text_note: RESPONDENT_TEXT_NOTE } : {}) };
  },
});
