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
} from './question-types';
import { typedInputShape } from './question-types/merge-fields';
import { imageFields, OptionInputSchema, trimmed } from './question-types/shared-fields';

/** An argument the tool's schema does not know, most often a misspelt name. */
export const UNKNOWN_ARGUMENT =
  'is not a known field: remove it (check the spelling against the tool schema)';

export { LIMITS };

/**
 * What callers send to create or change a quiz, with its bounds (limits.ts).
 * The MCP tools publish these schemas (as JSON Schema) and validate with them; the dashboard
 * and any other adapter use the same ones, so every door enforces the same rules.
 */
export const ImageInputSchema = z.object({
  alt: imageFields.alt.describe('What it shows, for screen readers.'),
  url: imageFields.url.describe('Public https address, or ours as answered.'),
  data: imageFields.data.describe('Or base64 (512 KB per call).'),
  upload_id: imageFields.upload_id.describe("Or get_quiz_links' upload."),
});

export type ImageInput = z.output<typeof ImageInputSchema>;

export { OptionInputSchema };

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
 * adapters) or report only "must match exactly one schema" (Mastra) could not send it. The
 * typed fields are the types' own (their fields.ts), merged once each over the registry.
 */
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
  ...typedInputShape(),
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
