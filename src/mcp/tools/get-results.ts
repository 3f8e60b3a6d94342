import { z } from 'zod';
import {
  queryResults,
  RESPONSE_FIELDS,
  RESPONSE_ORDERS,
  type ResponseField,
} from '../../domain/reporting/get-results';
import { answerShape, unionOverTypes } from '../../domain/question-types/merge-fields';
import { defineTool, READ_ONLY } from '../tool';
import {
  CursorSchema,
  ListedQuizSchema,
  QuizRefSchema,
  QuizSummarySchema,
  SignedLinkSchema,
  timestamp,
} from './common';
import { csvLink } from '../../domain/links/quiz-links';

const count = z.number().int();
const share = z.number().min(0).max(1);

/** Item analysis fields every question carries. */
const itemAnalysis = {
  facility: z
    .number()
    .nullable()
    .describe('Mean share of the maximum earned, 0-1; null when worth nothing or unseen.'),
  discrimination: z
    .number()
    .nullable()
    .describe(
      'Corrected item-total correlation, -1 to 1: Pearson r with the rest of the score; null without spread.',
    ),
  top_shares: z
    .array(share)
    .nullable()
    .describe(
      'Share of the top 27% (by percent) choosing each answer, 0-1, in order: yes then no, or each option; null under 4 responses.',
    ),
  bottom_shares: z.array(share).nullable().describe('The same for the bottom 27%.'),
  flags: z
    .array(
      z.object({
        flag: z.enum([
          'too_easy',
          'too_hard',
          'negative_discrimination',
          'weak_discrimination',
          'wrong_option_favoured',
        ]),
        reason: z.string(),
      }),
    )
    .describe('What may be wrong with the question, each with the reason in words; none under 5 responses.'),
};
const statHead = {
  question_id: z.string(),
  text: z.string(),
  answered_count: count,
  average_points: z.number().nullable(),
  ...itemAnalysis,
};
/** A percent bound: checked here, its range in the description rather than the listing's keywords. */
const percentBound = (field: string, description: string) =>
  z
    .number({ error: `${field} must be a percent from 0 to 100` })
    .refine((value) => value >= 0 && value <= 100, { error: `${field} must be a percent from 0 to 100` })
    .optional()
    .describe(description);
const RESPONSE_FIELD_NAMES: readonly string[] = RESPONSE_FIELDS;
// The types' fields of an answer, in the order tools/list has always shown them: the grade last.
const { grade_state: gradeState, ...typedAnswer } = answerShape([
  'choices',
  'text_answer',
  'number',
  'order',
  'matches',
  'value',
  'blanks',
  'grade_state',
]);

export const getResultsTool = defineTool({
  name: 'get_results',
  title: 'Get quiz results',
  description:
    "Your quiz's results: summary, question statistics, item analysis and `limit` responses. " +
    "Figures span versions; a question's, while it kept its id.",
  input: z.strictObject({
    quiz_id: QuizRefSchema,
    limit: z
      .number({ error: 'limit must be a whole number from 0 to 100' })
      .int({ error: 'limit must be a whole number from 0 to 100' })
      .min(0, { error: 'limit must be at least 0' })
      .max(100, { error: 'limit must be at most 100' })
      .optional()
      .describe('Default 5; 0: none.'),
    cursor: CursorSchema,
    include_answers: z
      .boolean({ error: 'include_answers must be true or false' })
      .optional()
      .describe('False: no answers (default true).'),
    score_below: percentBound('score_below', 'Only responses under this percent.'),
    score_above: percentBound('score_above', 'Only those over it.'),
    order: z
      .enum(RESPONSE_ORDERS, { error: `order must be one of ${RESPONSE_ORDERS.join(', ')}` })
      .optional()
      .describe('Default time_desc.'),
    fields: z
      .array(
        z.string().refine((name) => RESPONSE_FIELD_NAMES.includes(name), {
          error: `not a response field: use ${RESPONSE_FIELDS.join(', ')}`,
        }),
      )
      .refine((names) => names.length <= RESPONSE_FIELDS.length, {
        error: `fields: at most ${RESPONSE_FIELDS.length}, each once`,
      })
      .optional()
      .describe('Only these response fields, e.g. respondent, percent.'),
    include_statistics: z
      .boolean({ error: 'include_statistics must be true or false' })
      .optional()
      .describe('False: no questions or item_analysis.'),
    csv_link: z
      .boolean({ error: 'csv_link must be true or false' })
      .optional()
      .describe('True: also a signed CSV link (csv).'),
  }),
  output: z.object({
    quiz: QuizSummarySchema,
    summary: z.object({
      response_count: count.describe('Responses received.'),
      average_score: z.number().nullable().describe('Mean score, in points; null without responses.'),
      average_percent: z.number().nullable().describe('Mean score as a percent of the maximum, 0-100.'),
      highest_score: z.number().int().nullable().describe('Best score, in points.'),
      lowest_score: z.number().int().nullable().describe('Lowest score, in points.'),
      max_score: count.describe('Maximum score of the quiz as it is now, in points.'),
      pass_mark_percent: z.number().nullable().describe('Percent needed to pass, 0-100; null without one.'),
      pass_count: count.describe('Responses that passed.'),
      pass_rate: z
        .number()
        .nullable()
        .describe('Share of graded responses that passed, 0-1; null without a pass mark.'),
      pass_percent: z
        .number()
        .nullable()
        .describe('The same share as a percent, 0-100, like the other percents; null without a pass mark.'),
      first_submitted_at: timestamp.nullable().describe('When the first response came in.'),
      last_submitted_at: timestamp.nullable().describe('When the latest response came in.'),
      pending_count: count.describe('Responses waiting for a grade (counted above with their score so far).'),
      pending_grades: count
        .optional()
        .describe('Answers waiting for a grade, not in answered_count; absent: none.'),
    }),
    // Left out with include_statistics: false, as is item_analysis.
    questions: z
      .array(
        // Each type's figures are its own (its fields.ts), after what every question has.
        unionOverTypes(statHead, 'statistics'),
      )
      .optional(),
    item_analysis: z
      .object({
        reliability: z.object({
          statistic: z.literal('cronbach_alpha'),
          value: z
            .number()
            .nullable()
            .describe("Cronbach's alpha (KR-20 for right/wrong questions), at most 1."),
          reason: z
            .string()
            .nullable()
            .describe('Why value is null: too few responses or questions, a pooled or edited quiz.'),
        }),
        score_distribution: z
          .array(z.object({ from_percent: z.number(), count }))
          .describe(
            'Responses per tenth of the percent scale: from_percent to the next; the last includes 100.',
          ),
      })
      .optional(),
    matching: z
      .object({
        count: count.describe('Responses the score filter or order lists, over all pages.'),
        no_percent: count.describe('Responses without a percent, not listed.'),
        in_progress: count.describe('Attempts still under way, not yet responses.'),
        note: z.string(),
      })
      .optional()
      .describe('With a score filter or order only.'),
    responses: z.array(
      z
        .object({
          response_id: z.string(),
          submitted_at: timestamp,
          respondent: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
          score: z.number().int(),
          max_score: z.number().int(),
          percent: z.number().nullable(),
          passed: z.boolean().nullable().describe('Null without a pass mark, or while pending.'),
          grading_status: z
            .literal('pending')
            .optional()
            .describe('While an essay waits for its grade: the score so far. Absent: final.'),
          quiz_version: count,
          remarked_at: timestamp
            .nullable()
            .describe('When the owner re-marked it after fixing an answer key; null when never.'),
          original_score: z
            .number()
            .int()
            .nullable()
            .describe('The score it was first given, once re-marked; null when never re-marked.'),
          time_up: z.literal(true).optional().describe('Sent at time-up; blanks scored 0.'),
          answers: z
            .array(
              z.object({
                question_id: z.string(),
                text: z.string(),
                answer: z
                  .string()
                  .nullable()
                  .describe(
                    '"yes"/"no", the chosen label, the ticked labels joined by "; ", the text typed, the number as written, the order ("B, A, C") or the pairs ("Paris → France; Rome → Italy"); null if unanswered.',
                  ),
                option_index: z.number().int().nullable(),
                // Each type's fields of its answer (its fields.ts), before the points.
                ...typedAnswer,
                points: z.number().int(),
                max_points: z.number().int(),
                grade_state: gradeState,
              }),
            )
            .optional()
            .describe('Each question answered, in order; left out with include_answers: false.'),
        })
        // `fields` may leave any of them out.
        .partial(),
    ),
    next_cursor: z.string().nullable(),
    csv: SignedLinkSchema.optional().describe('With csv_link: the responses as CSV.'),
    student_text_note: z.string().optional().describe("Present when respondents' text may be in the answer."),
  }),
  // Every field the answer carries, typed, with no description: `output` describes them.
  listedOutput: z.object({
    quiz: ListedQuizSchema.pick({ quiz_id: true, slug: true, title: true, status: true }),
    summary: z.object({
      response_count: z.number(),
      average_score: z.number().nullable(),
      average_percent: z.number().nullable(),
      highest_score: z.number().nullable(),
      lowest_score: z.number().nullable(),
      max_score: z.number(),
      pass_mark_percent: z.number().nullable(),
      pass_count: z.number(),
      pass_rate: z.number().nullable(),
      pass_percent: z.number().nullable(),
      first_submitted_at: z.string().nullable(),
      last_submitted_at: z.string().nullable(),
      pending_count: z.number(),
      pending_grades: z.number(),
    }),
    questions: z.array(
      z.object({
        question_id: z.string(),
        text: z.string(),
        type: z.string(),
        answered_count: z.number(),
        average_points: z.number().nullable(),
        facility: z.number().nullable(),
        discrimination: z.number().nullable(),
        top_shares: z.array(z.number()).nullable(),
        bottom_shares: z.array(z.number()).nullable(),
        flags: z.array(z.object({ flag: z.string(), reason: z.string() })),
        yes_count: z.number(),
        no_count: z.number(),
        correct_answer: z.string(),
        options: z.array(z.object({ label: z.string(), score: z.number(), count: z.number() })),
        right_count: z.number().nullable(),
        common_answers: z.array(z.object({ answer: z.string(), count: z.number() })),
        common_values: z.array(z.object({ value: z.number(), count: z.number() })),
        // The other types' figures by their type alone: the output schema describes them.
        positions: z.array(z.unknown()),
        blanks: z.array(z.unknown()),
        pairs: z.array(z.unknown()),
        distribution: z.array(z.unknown()),
        mean: z.number().nullable(),
        median: z.number().nullable(),
        net_promoter: z.object({}).nullable(),
      }),
    ),
    item_analysis: z.object({
      reliability: z.object({
        statistic: z.string(),
        value: z.number().nullable(),
        reason: z.string().nullable(),
      }),
      score_distribution: z.array(z.object({ from_percent: z.number(), count: z.number() })),
    }),
    matching: z.object({
      count: z.number(),
      no_percent: z.number(),
      in_progress: z.number(),
      note: z.string(),
    }),
    responses: z.array(
      z.object({
        response_id: z.string(),
        submitted_at: z.string(),
        respondent: z.object({ name: z.string().nullable(), email: z.string().nullable() }),
        score: z.number(),
        max_score: z.number(),
        percent: z.number().nullable(),
        passed: z.boolean().nullable(),
        grading_status: z.string(),
        quiz_version: z.number(),
        remarked_at: z.string().nullable(),
        original_score: z.number().nullable(),
        time_up: z.boolean(),
        answers: z.array(
          z.object({
            question_id: z.string(),
            text: z.string(),
            answer: z.string().nullable(),
            option_index: z.number().nullable(),
            choices: z.array(z.number()).nullable(),
            text_answer: z.string().nullable(),
            number: z.number().nullable(),
            order: z.array(z.number()).nullable(),
            points: z.number(),
            max_points: z.number(),
            grade_state: z.string(),
          }),
        ),
      }),
    ),
    next_cursor: z.string().nullable(),
    csv: SignedLinkSchema.optional(),
    student_text_note: z.string(),
  }),
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  view: true,
  run: async (args, { deps, principal }) => {
    const results = await queryResults(deps, principal.userId, {
      ref: args.quiz_id,
      limit: args.limit ?? 5,
      cursor: args.cursor,
      includeAnswers: args.include_answers,
      scoreBelow: args.score_below,
      scoreAbove: args.score_above,
      order: args.order,
      fields: args.fields as ResponseField[] | undefined,
      includeStatistics: args.include_statistics,
    });
    if (!args.csv_link) return results;
    return { ...results, csv: await csvLink(deps, principal.userId, principal.credential, args.quiz_id) };
  },
});
