import { z } from 'zod';
import { invalidInput } from './errors';
import { toFieldIssues } from './field-issues';

/** An argument the tool's schema does not know, most often a misspelt name. */
export const UNKNOWN_ARGUMENT =
  'is not a known field: remove it (check the spelling against the tool schema)';

/**
 * What callers send to create or change a quiz, with its bounds (the README's Tools section).
 * The MCP tools publish these schemas (as JSON Schema) and validate with them; the dashboard
 * and any other adapter use the same ones, so every door enforces the same rules.
 */
export const LIMITS = {
  titleMax: 200,
  questionTextMax: 2000,
  questionsMax: 100,
  optionsMin: 2,
  optionsMax: 20,
  optionLabelMax: 200,
  pointsMin: -1000,
  pointsMax: 1000,
} as const;

const trimmed = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, { error: `${field} must not be empty` })
    .max(max, {
      error: (issue) =>
        `${field} is too long: at most ${max} characters (got ${String((issue.input as string).length)})`,
    });

const integerIn = (field: string) =>
  z
    .number({ error: `${field} must be an integer between ${LIMITS.pointsMin} and ${LIMITS.pointsMax}` })
    .int({ error: `${field} must be a whole number` })
    .min(LIMITS.pointsMin, { error: `${field} must be at least ${LIMITS.pointsMin}` })
    .max(LIMITS.pointsMax, { error: `${field} must be at most ${LIMITS.pointsMax}` });

export const OptionInputSchema = z.strictObject({
  label: trimmed('label', LIMITS.optionLabelMax).describe('Text of the option shown to respondents.'),
  score: integerIn('score')
    .default(0)
    .describe(
      `Points earned by choosing this option (${LIMITS.pointsMin} to ${LIMITS.pointsMax}, default 0).`,
    ),
});

export const YesNoQuestionSchema = z.strictObject({
  type: z.literal('yes_no'),
  text: trimmed('text', LIMITS.questionTextMax).describe('The question text.'),
  points: integerIn('points')
    .default(1)
    .describe(
      `Points earned by answering "yes"; "no" earns 0 (${LIMITS.pointsMin} to ${LIMITS.pointsMax}, default 1).`,
    ),
});

export const MultipleChoiceQuestionSchema = z.strictObject({
  type: z.literal('multiple_choice'),
  text: trimmed('text', LIMITS.questionTextMax).describe('The question text.'),
  options: z
    .array(OptionInputSchema, { error: 'options must be an array of { label, score }' })
    .min(LIMITS.optionsMin, {
      error: (issue) =>
        `a multiple_choice question needs at least ${LIMITS.optionsMin} options (got ${String((issue.input as unknown[]).length)})`,
    })
    .max(LIMITS.optionsMax, {
      error: `a multiple_choice question takes at most ${LIMITS.optionsMax} options`,
    })
    .describe(
      `The choices, in display order (${LIMITS.optionsMin}-${LIMITS.optionsMax}). Respondents pick one.`,
    ),
});

export const QuestionInputSchema = z.discriminatedUnion(
  'type',
  [YesNoQuestionSchema, MultipleChoiceQuestionSchema],
  {
    error: 'type must be "yes_no" or "multiple_choice"',
  },
);

export const QuestionsInputSchema = z
  .array(QuestionInputSchema, { error: 'questions must be an array of question objects' })
  .max(LIMITS.questionsMax, { error: `a quiz takes at most ${LIMITS.questionsMax} questions` });

export const TitleSchema = trimmed('title', LIMITS.titleMax);

export const SettingsInputSchema = z
  .strictObject({
    accepting_responses: z
      .boolean({ error: 'accepting_responses must be true or false' })
      .describe('Whether the public page takes new responses (only matters once published).'),
    show_score_to_respondent: z
      .boolean({ error: 'show_score_to_respondent must be true or false' })
      .describe('Show the score, percent and pass/fail after submitting.'),
    pass_mark_percent: z
      .number({ error: 'pass_mark_percent must be a number from 0 to 100, or null for no pass mark' })
      .min(0, { error: 'pass_mark_percent must be at least 0' })
      .max(100, { error: 'pass_mark_percent must be at most 100' })
      .nullable()
      .describe('Percent needed to pass (0-100), or null for no pass mark.'),
    collect_name: z
      .boolean({ error: 'collect_name must be true or false' })
      .describe('Ask respondents for their name.'),
    collect_email: z
      .boolean({ error: 'collect_email must be true or false' })
      .describe('Ask respondents for their email address.'),
    require_all_answers: z
      .boolean({ error: 'require_all_answers must be true or false' })
      .describe('Refuse submissions that leave a question unanswered.'),
  })
  .partial();

export type OptionInput = z.output<typeof OptionInputSchema>;
export type QuestionInput = z.output<typeof QuestionInputSchema>;
export type SettingsInput = z.output<typeof SettingsInputSchema>;

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, summary?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw invalidInput(toFieldIssues(result.error, input, { unknownField: UNKNOWN_ARGUMENT }), summary);
  }
  return result.data;
}
