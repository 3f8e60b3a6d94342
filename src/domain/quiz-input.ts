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
  explanationMax: 2000,
  descriptionMax: 5000,
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

/** When respondents may see the answer key (domain/results/answer-review.ts). */
export const SHOW_CORRECT_ANSWERS = ['never', 'after_submit', 'after_close'] as const;

/** The question types, in the order the tools describe them. */
export const QUESTION_TYPES = ['yes_no', 'multiple_choice'] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** A question's id as the tools hand it out: what `question_id` may hold when sent back. */
const QuestionIdSchema = z
  .string({ error: 'question_id must be a string: the question_id that get_quiz_questions returned' })
  .trim()
  .min(1, { error: 'question_id must not be empty' })
  .max(64, { error: 'question_id is too long: pass the question_id that get_quiz_questions returned' });

/**
 * One flat object for every type: `type` an enum, each type's fields optional in the schema and
 * required or refused per type here (`perTypeRules`), answered as field errors such as
 * `questions[3].options: ...`. No oneOf: clients that merge a union's variants (LangChain's
 * adapters) or report only "must match exactly one schema" (Mastra) could not send it.
 */
const QuestionFieldsSchema = z.strictObject({
  type: z
    .enum(QUESTION_TYPES, { error: `type must be ${QUESTION_TYPES.map((t) => `"${t}"`).join(' or ')}` })
    .describe('yes_no: a yes/no question with an answer key. multiple_choice: pick one of `options`.'),
  question_id: QuestionIdSchema.optional().describe(
    'update_quiz only: the question_id of the question this item edits, to keep its id and statistics (see update_quiz).',
  ),
  text: trimmed('text', LIMITS.questionTextMax).describe('The question text.'),
  explanation: trimmed('explanation', LIMITS.explanationMax)
    .optional()
    .describe(`Why the right answer is right (at most ${LIMITS.explanationMax} characters).`),
  points: integerIn('points')
    .optional()
    .describe(
      `yes_no: points for the right answer, the other earns 0 (${LIMITS.pointsMin} to ${LIMITS.pointsMax}, default 1).`,
    ),
  correct_answer: z
    .enum(['yes', 'no'], { error: 'correct_answer must be "yes" or "no"' })
    .optional()
    .describe('yes_no: the answer that earns the points (default "yes").'),
  options: z
    .array(OptionInputSchema, { error: 'options must be an array of { label, score }' })
    .max(LIMITS.optionsMax, {
      error: `a multiple_choice question takes at most ${LIMITS.optionsMax} options`,
    })
    .optional()
    .describe(
      `multiple_choice: the choices in display order (${LIMITS.optionsMin}-${LIMITS.optionsMax}); respondents pick one.`,
    ),
});

type QuestionFields = z.output<typeof QuestionFieldsSchema>;

/** Which fields a type takes beyond type, question_id, text and explanation. */
const TYPE_FIELDS: Record<QuestionType, ReadonlyArray<'points' | 'correct_answer' | 'options'>> = {
  yes_no: ['points', 'correct_answer'],
  multiple_choice: ['options'],
};

function perTypeRules(question: QuestionFields, ctx: z.RefinementCtx): void {
  const takes = TYPE_FIELDS[question.type];
  for (const field of ['points', 'correct_answer', 'options'] as const) {
    if (question[field] !== undefined && !takes.includes(field)) {
      const owners = QUESTION_TYPES.filter((type) => TYPE_FIELDS[type].includes(field));
      ctx.addIssue({
        code: 'custom',
        path: [field],
        message: `a ${question.type} question takes no ${field} (only ${owners.join(', ')}): remove it`,
      });
    }
  }
  if (question.type === 'multiple_choice') {
    const count = question.options?.length ?? 0;
    if (count < LIMITS.optionsMin) {
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: `a multiple_choice question needs at least ${LIMITS.optionsMin} options (got ${count})`,
      });
    }
  }
}

export const QuestionInputSchema = QuestionFieldsSchema.superRefine(perTypeRules);

export const QuestionsInputSchema = z
  .array(QuestionInputSchema, { error: 'questions must be an array of question objects' })
  .max(LIMITS.questionsMax, { error: `a quiz takes at most ${LIMITS.questionsMax} questions` });

export const TitleSchema = trimmed('title', LIMITS.titleMax);

/** Plain text with line breaks; an empty one (or null, in update_quiz) removes it. */
export const DescriptionSchema = z
  .string({ error: 'description must be a string of plain text' })
  .trim()
  .max(LIMITS.descriptionMax, {
    error: (issue) =>
      `description is too long: at most ${LIMITS.descriptionMax} characters (got ${String((issue.input as string).length)})`,
  });

/** The languages of the respondent pages' own words (respondent/messages/ has one file each). */
export const LANGUAGES = ['en', 'es', 'pt', 'fr', 'de', 'ar'] as const;
export type Language = (typeof LANGUAGES)[number];

export const TIME_LIMIT_MAX_MINUTES = 600;

// An instant, never a wall-clock time: without its offset "09:00" means a different moment to each reader.
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/i;
const instant = (field: string) =>
  z
    .string({ error: `${field} must be an ISO-8601 date and time with an offset, or null` })
    .refine((value) => INSTANT.test(value), {
      error: `${field} needs a date, a time and an offset, such as 2026-03-01T09:00:00+01:00 or 2026-03-01T08:00:00Z`,
    })
    .refine((value) => !Number.isNaN(Date.parse(value)), { error: `${field} is not a real date and time` })
    .nullable();

const wholeOrNull = (field: string, min: number, max?: number) => {
  const range = max === undefined ? `at least ${min}` : `from ${min} to ${max}`;
  const base = z
    .number({ error: `${field} must be a whole number ${range}, or null` })
    .int({ error: `${field} must be a whole number ${range}, or null` })
    .min(min, { error: `${field} must be at least ${min}` });
  return (max === undefined ? base : base.max(max, { error: `${field} must be at most ${max}` })).nullable();
};

/** How a quiz is taken (domain/attempts/): kept apart so each door lists them the same. */
const TakingSettingsShape = {
  time_limit_minutes: wholeOrNull('time_limit_minutes', 1, TIME_LIMIT_MAX_MINUTES).describe(
    'Minutes per attempt; null: none.',
  ),
  opens_at: instant('opens_at').describe('ISO-8601 with offset; null: none.'),
  closes_at: instant('closes_at').describe('ISO-8601 with offset; null: none.'),
  shuffle_questions: z
    .boolean({ error: 'shuffle_questions must be true or false' })
    .describe('Per-attempt question order.'),
  shuffle_options: z
    .boolean({ error: 'shuffle_options must be true or false' })
    .describe('Per-attempt option order.'),
  question_pool_size: wholeOrNull('question_pool_size', 1, LIMITS.questionsMax).describe(
    'Random questions per attempt; null: all.',
  ),
  max_attempts_per_email: wholeOrNull('max_attempts_per_email', 1).describe(
    'Submissions per email; needs collect_email.',
  ),
  language: z
    .enum(LANGUAGES, { error: `language must be one of ${LANGUAGES.join(', ')}` })
    .describe("Respondent pages' language (default en)."),
};

export const SettingsInputSchema = z
  .strictObject({
    accepting_responses: z
      .boolean({ error: 'accepting_responses must be true or false' })
      .describe('The public page takes responses (once published).'),
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
    show_correct_answers: z
      .enum(SHOW_CORRECT_ANSWERS, {
        error: `show_correct_answers must be ${SHOW_CORRECT_ANSWERS.map((v) => `"${v}"`).join(', ')}`,
      })
      .describe(
        'When respondents see each answer marked with the key: "never" (default), "after_submit", or ' +
          '"after_close" (once closed, so the key is not passed on).',
      ),
    allow_embedding: z
      .boolean({ error: 'allow_embedding must be true or false' })
      .describe('Let other sites show the public quiz page in a frame (an embed); off by default.'),
    ...TakingSettingsShape,
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
