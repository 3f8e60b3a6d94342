import { z } from 'zod';
import { invalidInput } from './errors';
import { FIRST, toFieldIssues, type FieldIssueWording } from './field-issues';
import { LIMITS } from './limits';
import { settingsInputShape } from './quiz-settings';
import {
  QUESTION_TYPE_DEFINITIONS,
  QUESTION_TYPES,
  definitionOf,
  isQuestionType,
  TYPED_FIELDS,
  type TypedField,
} from './question-types';

/** An argument the tool's schema does not know, most often a misspelt name. */
export const UNKNOWN_ARGUMENT =
  'is not a known field: remove it (check the spelling against the tool schema)';

export { LIMITS };

/**
 * What callers send to create or change a quiz, with its bounds (limits.ts).
 * The MCP tools publish these schemas (as JSON Schema) and validate with them; the dashboard
 * and any other adapter use the same ones, so every door enforces the same rules.
 */
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

/**
 * A picture: its words, and where its bytes come from (one of url, data, upload_id). Loose on purpose, so
 * the `{url, alt, width, height}` an answer shows can be sent back as it is (width and height
 * are read from the picture). Resolved into stored pictures by images/resolve-images.ts.
 */
const imageFields = {
  alt: trimmed('image.alt', LIMITS.imageAltMax),
  url: z
    .string({ error: 'image.url must be a string: an https:// address' })
    .max(2000, { error: 'image.url is too long: at most 2000 characters' })
    .optional(),
  data: z
    .string({ error: 'image.data must be a string of base64' })
    .max(Math.ceil((LIMITS.imageDataPerCallBytes * 4) / 3) + 4, {
      error: 'image.data is too long: at most 512 KB of pictures per call as data; send it by url',
    })
    .optional(),
  upload_id: z
    .string({ error: 'image.upload_id must be a string: the id an upload link answered' })
    .max(100, { error: 'image.upload_id is too long: send the id an upload link answered' })
    .optional(),
};

export const ImageInputSchema = z.object({
  alt: imageFields.alt.describe('What it shows, for screen readers.'),
  url: imageFields.url.describe('Public https address, or ours as answered.'),
  data: imageFields.data.describe('Or base64 (512 KB per call).'),
  upload_id: imageFields.upload_id.describe("Or get_quiz_links' upload."),
});

/** An option's picture: the same fields, described once (the question's). */
const OptionImageSchema = z.object(imageFields);

export type ImageInput = z.output<typeof ImageInputSchema>;

export const OptionInputSchema = z.strictObject({
  label: trimmed('label', LIMITS.optionLabelMax).describe('Shown to respondents.'),
  score: integerIn('score').default(0).describe('Points for choosing it (default 0).'),
  image: OptionImageSchema.nullable().optional().describe("As the question's image."),
});

/** When respondents may see the answer key (domain/taking/answer-review.ts). */
export const SHOW_CORRECT_ANSWERS = ['never', 'after_submit', 'after_close'] as const;

export { QUESTION_TYPES, type QuestionType } from './question-types';

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
const numberIn = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(-LIMITS.numberMagnitudeMax, { error: `${field} must be at least -${LIMITS.numberMagnitudeMax}` })
    .max(LIMITS.numberMagnitudeMax, { error: `${field} must be at most ${LIMITS.numberMagnitudeMax}` });

/** A string schema whose bounds are checked but not published (a nested field the skill describes). */
const unlisted = (schema: z.ZodString) =>
  z
    .string({ error: 'must be a string' })
    .superRefine((value, ctx) => {
      const read = schema.safeParse(value);
      if (!read.success)
        for (const issue of read.error.issues) ctx.addIssue({ ...issue, code: 'custom', input: value });
    })
    .transform((value) => value.trim());

/** The types that take a typed field, in the registry's order: how its description starts. */
const takenBy = (field: TypedField) =>
  QUESTION_TYPE_DEFINITIONS.filter((definition) => definition.takes.includes(field))
    .map((definition) => definition.name)
    .join(', ');

/** A whole number within bounds, as JSON Schema's minimum and maximum (never an enum of integers). */
const integerFrom = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a whole number from ${min} to ${max}` })
    .int({ error: `${field} must be a whole number from ${min} to ${max}` })
    .min(min, { error: `${field} must be a whole number from ${min} to ${max}` })
    .max(max, { error: `${field} must be a whole number from ${min} to ${max}` });

export const QuestionFieldsSchema = z.strictObject({
  type: z
    .enum(QUESTION_TYPES, { error: `type must be ${QUESTION_TYPES.map((t) => `"${t}"`).join(', ')}` })
    .describe(`${QUESTION_TYPE_DEFINITIONS.map((definition) => definition.summary).join('; ')}.`),
  question_id: QuestionIdSchema.optional().describe('update_quiz: the question it edits.'),
  text: trimmed('text', LIMITS.questionTextMax).describe('The question.'),
  image: ImageInputSchema.nullable()
    .optional()
    .describe(
      'PNG, JPEG, WebP or GIF up to 2 MB; answered as {url,alt,width,height}. Left out: kept; null: none.',
    ),
  // Null (as get_quiz_questions returns it) is none, so a question read can be sent back as is.
  explanation: trimmed('explanation', LIMITS.explanationMax)
    .nullable()
    .optional()
    .describe('Why the right answer is right.'),
  points: integerIn('points')
    .optional()
    .describe(`${takenBy('points')}: for a right answer (default 1).`),
  correct_answer: z
    .enum(['yes', 'no'], { error: 'correct_answer must be "yes" or "no"' })
    .optional()
    .describe(`${takenBy('correct_answer')}: the right one (default "yes").`),
  options: z
    .array(OptionInputSchema, { error: 'options must be an array of { label, score }' })
    .max(LIMITS.optionsMax, { error: `a question takes at most ${LIMITS.optionsMax} options` })
    .optional()
    .describe(`Choice types: ${LIMITS.optionsMin}-${LIMITS.optionsMax}, in display order.`),
  accepted_answers: z
    .array(trimmed('accepted answer', LIMITS.acceptedAnswerMax), {
      error: 'accepted_answers must be an array of strings',
    })
    .max(LIMITS.acceptedAnswersMax, {
      error: `accepted_answers takes at most ${LIMITS.acceptedAnswersMax} answers`,
    })
    .optional()
    .describe(
      `${takenBy('accepted_answers')}: right answers; case and spacing ignored, accents not. None or []: collects text.`,
    ),
  correct_number: numberIn('correct_number')
    .optional()
    .describe(`${takenBy('correct_number')}: the right value.`),
  tolerance: numberIn('tolerance')
    .min(0, { error: 'tolerance must be at least 0' })
    .optional()
    .describe(`${takenBy('tolerance')}: allowed distance, inclusive (default 0).`),
  items: z
    .array(z.strictObject({ label: OptionInputSchema.shape.label }), {
      error: 'items must be an array of { label }',
    })
    .max(LIMITS.orderingItemsMax, { error: `a question takes at most ${LIMITS.orderingItemsMax} items` })
    .optional()
    .describe(
      `${takenBy('items')}: ${LIMITS.orderingItemsMin}-${LIMITS.orderingItemsMax} {label}, in the right order.`,
    ),
  points_per_item: integerIn('points_per_item')
    .min(0, { error: 'points_per_item must be at least 0' })
    .optional()
    .describe(`${takenBy('points_per_item')}: per item in place, instead of points.`),
  // A blank's own bounds are checked, not published: the type's guide in the skill gives them.
  blanks: z
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
          .number({ error: 'correct_option must be a whole number: the 0-based index of the right option' })
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
    .optional()
    .describe(`${takenBy('blanks')}: entry n keys [[n]].`),
  scale_min: integerFrom('scale_min', LIMITS.scaleMinLowest, LIMITS.scaleMinHighest)
    .optional()
    .describe(`${takenBy('scale_min')}: lowest (default 1).`),
  scale_max: integerFrom('scale_max', LIMITS.scaleMaxLowest, LIMITS.scaleMaxHighest)
    .optional()
    .describe(`${takenBy('scale_max')}: highest.`),
  scale_labels: z
    .array(
      z
        .string({ error: 'scale_labels must hold strings' })
        .trim()
        // Checked, not published: the words' length is no part of what a model needs to know.
        .refine((label) => label.length <= LIMITS.scaleLabelMax, {
          error: `a scale label takes at most ${LIMITS.scaleLabelMax} characters`,
        }),
      {
        error: "scale_labels must be an array of two strings: the lowest end's words, then the highest end's",
      },
    )
    .refine((labels) => labels.length <= 2, {
      error: "scale_labels takes two strings: the lowest end's words, then the highest end's",
    })
    .optional()
    .describe(`${takenBy('scale_labels')}: end words, lowest first.`),
  rubric: z
    .array(
      z.strictObject({
        criterion: trimmed('criterion', LIMITS.rubricTextMax).describe('What it judges.'),
        levels: z
          .array(
            z.strictObject({
              label: trimmed('label', LIMITS.rubricTextMax).describe('e.g. "clear thesis".'),
              points: integerFrom('points', 0, LIMITS.pointsMax).describe('Its points.'),
            }),
            { error: 'levels must be an array of { label, points }' },
          )
          .min(LIMITS.rubricLevelsMin, {
            error: `a criterion takes ${LIMITS.rubricLevelsMin}-${LIMITS.rubricLevelsMax} levels`,
          })
          .max(LIMITS.rubricLevelsMax, {
            error: `a criterion takes ${LIMITS.rubricLevelsMin}-${LIMITS.rubricLevelsMax} levels`,
          })
          .describe('Lowest first.'),
      }),
      { error: 'rubric must be an array of { criterion, levels: [{ label, points }] }' },
    )
    .max(LIMITS.rubricCriteriaMax, { error: `a rubric takes at most ${LIMITS.rubricCriteriaMax} criteria` })
    .optional()
    .describe(`${takenBy('rubric')}: its maximum is the sum of each criterion's top level.`),
  min_words: integerFrom('min_words', 1, LIMITS.essayWordsMax)
    .optional()
    .describe(`${takenBy('min_words')}: fewest words.`),
  max_words: integerFrom('max_words', 1, LIMITS.essayWordsMax)
    .optional()
    .describe(`${takenBy('max_words')}: most words.`),
  pairs: z
    .array(
      z.strictObject({
        prompt: unlisted(trimmed('prompt', LIMITS.optionLabelMax)).describe('Asked.'),
        match: unlisted(trimmed('match', LIMITS.optionLabelMax)).describe('Its answer.'),
      }),
      { error: 'pairs must be an array of { prompt, match }' },
    )
    .max(LIMITS.matchingPairsMax, { error: `a question takes at most ${LIMITS.matchingPairsMax} pairs` })
    .optional()
    .describe(`${takenBy('pairs')}: ${LIMITS.matchingPairsMin}-${LIMITS.matchingPairsMax}.`),
  extra_matches: z
    .array(z.strictObject({ label: unlisted(trimmed('label', LIMITS.optionLabelMax)).describe('Shown.') }), {
      error: 'extra_matches must be an array of { label }',
    })
    // Checked, not published: the skill and the API reference state the bound.
    .refine((extras) => extras.length <= LIMITS.extraMatchesMax, {
      error: `a question takes at most ${LIMITS.extraMatchesMax} extra_matches`,
    })
    .optional()
    .describe(`${takenBy('extra_matches')}: distractors.`),
  points_per_pair: integerIn('points_per_pair')
    .min(0, { error: 'points_per_pair must be at least 0' })
    .optional()
    .describe(`${takenBy('points_per_pair')}: per right pair (default 1).`),
});

type QuestionFields = z.output<typeof QuestionFieldsSchema>;

/**
 * What a question of a known type gets wrong for its type, found before (and instead of) what
 * the flat schema says of the same field: a typed field its type does not take, or options
 * written as strings. Each says how the type marks its right answer, with an example, since
 * "must be yes or no" or "expected object" would not. It reads the fields as sent, so it runs
 * even when the flat schema refused them.
 */
function typeMisfits(question: unknown, ctx: z.RefinementCtx): void {
  if (question === null || typeof question !== 'object') return;
  const fields = question as Record<string, unknown>;
  if (typeof fields.type !== 'string' || !isQuestionType(fields.type)) return;
  const definition = definitionOf(fields.type);
  for (const field of TYPED_FIELDS) {
    if (fields[field] !== undefined && !definition.takes.includes(field)) {
      const owners = QUESTION_TYPE_DEFINITIONS.filter((type) => type.takes.includes(field)).map(
        (type) => type.name,
      );
      ctx.addIssue({
        code: 'custom',
        path: [field],
        params: { ...FIRST, code: 'not_for_type', type: fields.type },
        message: `a ${fields.type} question takes no ${field} (only ${owners.join(', ')}): remove it; ${definition.keyHint}`,
      });
    }
  }
  const options = fields.options;
  if (
    definition.takes.includes('options') &&
    Array.isArray(options) &&
    options.some((option) => option === null || typeof option !== 'object')
  ) {
    ctx.addIssue({
      code: 'custom',
      path: ['options'],
      params: { ...FIRST, code: 'invalid' },
      message: `each option is an object { label, score }, not a string: ${definition.keyHint}`,
    });
  }
}

/** Runs typeMisfits whatever the flat schema found. */
const ALWAYS = { when: () => true };

/** The names a question takes for its own type; the type's key hint when none is close. */
function questionFieldsOf(value: unknown, names: readonly string[]) {
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !isQuestionType(type) || !names.includes('type')) return { names };
  const definition = definitionOf(type);
  const typed: readonly string[] = TYPED_FIELDS;
  return {
    names: names.filter(
      (name) => !typed.includes(name) || (definition.takes as readonly string[]).includes(name),
    ),
    hint: definition.keyHint,
  };
}

/** How the tools and editor word a refusal: an unknown field answered with the closest names. */
export function inputWording(schema: z.ZodType): FieldIssueWording {
  return { unknownField: UNKNOWN_ARGUMENT, schema, fieldsOf: questionFieldsOf };
}

/** The checks of one question that need its type: typeMisfits first, then the type's own rules. */
function perTypeRules(question: QuestionFields, ctx: z.RefinementCtx): void {
  definitionOf(question.type).checkInput(question, (field, message, code, params) =>
    ctx.addIssue({ code: 'custom', path: [field], message, params: { ...params, code } }),
  );
}

export const QuestionInputSchema = QuestionFieldsSchema.superRefine(typeMisfits, ALWAYS).superRefine(
  perTypeRules,
);

/** An edit operation's question fields, with the same per-type misfits found first. */
export const withTypeMisfits = <S extends z.ZodObject>(schema: S) => schema.superRefine(typeMisfits, ALWAYS);

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

export { LANGUAGES, TIME_LIMIT_MAX_MINUTES, type Language } from './quiz-settings';

/** Every setting of the table (quiz-settings.ts), each optional: what a caller leaves out stays. */
export const SettingsInputSchema = z.strictObject(settingsInputShape()).partial();

export type OptionInput = z.output<typeof OptionInputSchema>;
export type QuestionInput = z.output<typeof QuestionInputSchema>;
export type SettingsInput = z.output<typeof SettingsInputSchema>;

export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, summary?: string): z.output<S> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw invalidInput(toFieldIssues(result.error, input, inputWording(schema)), summary);
  }
  return result.data;
}
