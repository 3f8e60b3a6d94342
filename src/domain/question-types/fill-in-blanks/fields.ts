import { z } from 'zod';
import { LIMITS } from '../../limits';
import {
  inputField,
  opaqueList,
  statCount,
  statShare,
  trimmed,
  unlisted,
  type TypeFields,
} from '../shared-fields';

/** A fill_in_blanks question's fields in the tools' input, in its record and in its statistics. */
export const fillInBlanksFields = {
  input: {
    // A blank's own bounds are checked, not published: the type's guide in the skill gives them.
    blanks: inputField(
      z
        .array(
          z.strictObject({
            accepted_answers: z
              .array(unlisted(trimmed('accepted answer', LIMITS.acceptedAnswerMax)), {
                error: 'accepted_answers must be an array of strings',
              })
              .refine((answers) => answers.length <= LIMITS.acceptedAnswersMax, {
                error: `accepted_answers takes at most ${LIMITS.acceptedAnswersMax} answers`,
              })
              .optional()
              .describe('Typed: right answers.'),
            options: z
              .array(unlisted(trimmed('option', LIMITS.optionLabelMax)), {
                error: 'options must be an array of labels',
              })
              .refine((options) => options.length <= LIMITS.blankOptionsMax, {
                error: `a blank takes at most ${LIMITS.blankOptionsMax} options`,
              })
              .optional()
              .describe(`Choice list: ${LIMITS.blankOptionsMin}-${LIMITS.blankOptionsMax} labels.`),
            correct_option: z
              .number({
                error: 'correct_option must be a whole number: the 0-based index of the right option',
              })
              .int({ error: 'correct_option must be a whole number: the 0-based index of the right option' })
              .refine((index) => index >= 0, { error: 'correct_option must be at least 0' })
              .optional()
              .describe('Its index in options.'),
            points: z
              .number({ error: 'points must be a whole number' })
              .int({ error: 'points must be a whole number' })
              .refine((points) => points >= LIMITS.pointsMin && points <= LIMITS.pointsMax, {
                error: `points must be from ${LIMITS.pointsMin} to ${LIMITS.pointsMax}`,
              })
              .optional()
              .describe('Default 1.'),
          }),
          { error: 'blanks must be an array of { accepted_answers } or { options, correct_option }' },
        )
        .max(LIMITS.blanksMax, { error: `a question takes at most ${LIMITS.blanksMax} blanks` })
        .optional(),
      (takers) => `${takers}: entry n keys [[n]].`,
    ),
  },
  record: {
    type: z.literal('fill_in_blanks'),
    blanks: z
      .array(
        z.object({
          accepted_answers: z.array(z.string()).optional().describe('A typed blank: its right answers.'),
          options: z.array(z.string()).optional().describe('A choice-list blank: its labels.'),
          correct_option: z.number().int().optional().describe('The right option, 0 first.'),
          points: z.number().int(),
        }),
      )
      .describe('Entry n keys the [[n]] marker of text.'),
  },
  statistics: {
    type: z.literal('fill_in_blanks'),
    blanks: z
      .array(
        z.object({
          blank: statCount.describe('Its [[n]] number.'),
          right_share: statShare.nullable().describe('Share of answers with this blank right.'),
          common_wrong_answer: z.string().nullable().describe('The wrong answer given most often.'),
          common_wrong_count: statCount,
        }),
      )
      .describe('Per blank.'),
  },
  attempt: {
    blank_count: z
      .number()
      .int()
      .describe('How many numbered blanks the text has; answer `blanks` in their order.'),
  },
  attemptPatterns: {
    '^blank_[0-9]+_options$': opaqueList(
      'option_id',
      "A choice-list blank's options (blank_1_options for blank 1), in the order to show; answer that blank with an option_id.",
    ),
  },
  answer: {
    blanks: inputField(
      z.array(z.string().nullable()).nullable().optional(),
      (takers) => `${takers}: per blank, the text typed or the option chosen; null if empty.`,
    ),
  },
} satisfies TypeFields<'fill_in_blanks'>;
