import { z } from 'zod';
import { readQuizQuestions } from '../../domain/quizzes/get-quiz';
import { defineTool, READ_ONLY } from '../tool';
import {
  ListedQuestionSchema,
  ListedQuizWithQuestionsSchema,
  QUESTION_TYPES,
  QuestionRecordSchema,
  QuizRefSchema,
  QuizWithQuestionsSchema,
} from './common';

const position = (field: string) =>
  z
    .number({ error: `${field} must be a whole number from 1` })
    .int({ error: `${field} must be a whole number from 1` })
    .refine((value) => value >= 1, { error: `${field} must be at least 1: positions start at 1` })
    .optional();

/**
 * A question as respondents see it: no key, no scores, no explanation. Its types are the
 * records' own, so a new type without its record schema still fails the typecheck here.
 */
type RecordType = z.output<typeof QuestionRecordSchema>['type'];
const RespondentQuestionSchema = z.object({
  question_id: z.string(),
  type: z.enum(QUESTION_TYPES as [RecordType, ...RecordType[]]),
  text: z.string(),
  options: z.array(z.object({ label: z.string() })).optional(),
  // A scale's range and end words: what a respondent needs to answer it.
  scale_min: z.number().int().optional(),
  scale_max: z.number().int().optional(),
  scale_labels: z.array(z.string()).optional(),
});

export const getQuizQuestionsTool = defineTool({
  name: 'get_quiz_questions',
  title: 'Get quiz questions',
  description:
    'One of your quizzes with its questions, keys and explanations; or a few, or as respondents see them.',
  input: z.strictObject({
    quiz_id: QuizRefSchema,
    view: z
      .enum(['respondent'], { error: 'view must be "respondent", or left out for the owner\'s view' })
      .optional()
      .describe('respondent: no keys, scores or explanations.'),
    question_ids: z
      .array(z.string({ error: 'question_ids must be question_id strings' }))
      .refine((ids) => ids.length >= 1 && ids.length <= 100, {
        error: 'question_ids must name 1 to 100 questions',
      })
      .optional()
      .describe('Only these.'),
    from: position('from').describe('First position (1-based).'),
    to: position('to').describe('Last position.'),
  }),
  output: QuizWithQuestionsSchema.extend({
    view: z.literal('respondent').optional(),
    questions: z.array(
      z
        .union([QuestionRecordSchema, RespondentQuestionSchema])
        .and(z.object({ position: z.number().int().optional().describe('With question_ids or from/to.') })),
    ),
  }),
  listedOutput: ListedQuizWithQuestionsSchema.extend({
    view: z.string(),
    questions: z.array(ListedQuestionSchema.extend({ position: z.number() })),
  }),
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  view: true,
  run: (args, { deps, principal }) =>
    readQuizQuestions(deps, principal.userId, args.quiz_id, {
      view: args.view,
      questionIds: args.question_ids,
      from: args.from,
      to: args.to,
    }),
});
