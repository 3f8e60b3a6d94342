import { z } from 'zod';
import { LIMITS } from '../limits';
import type { QuestionType } from './names';
import type { TypedField } from './definition';

/**
 * The schema helpers every type's fields.ts writes its fields with, and the fields several types
 * share (`points`, `options`), each defined once here and merged once by the surfaces.
 */

export const trimmed = (field: string, max: number) =>
  z
    .string({ error: `${field} must be a string` })
    .trim()
    .min(1, { error: `${field} must not be empty` })
    .max(max, {
      error: (issue) =>
        `${field} is too long: at most ${max} characters (got ${String((issue.input as string).length)})`,
    });

export const integerIn = (field: string) =>
  z
    .number({ error: `${field} must be an integer between ${LIMITS.pointsMin} and ${LIMITS.pointsMax}` })
    .int({ error: `${field} must be a whole number` })
    .min(LIMITS.pointsMin, { error: `${field} must be at least ${LIMITS.pointsMin}` })
    .max(LIMITS.pointsMax, { error: `${field} must be at most ${LIMITS.pointsMax}` });

export const numberIn = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .min(-LIMITS.numberMagnitudeMax, { error: `${field} must be at least -${LIMITS.numberMagnitudeMax}` })
    .max(LIMITS.numberMagnitudeMax, { error: `${field} must be at most ${LIMITS.numberMagnitudeMax}` });

/** A string schema whose bounds are checked but not published (a nested field the skill describes). */
export const unlisted = (schema: z.ZodString) =>
  z
    .string({ error: 'must be a string' })
    .superRefine((value, ctx) => {
      const read = schema.safeParse(value);
      if (!read.success)
        for (const issue of read.error.issues) ctx.addIssue({ ...issue, code: 'custom', input: value });
    })
    .transform((value) => value.trim());

/** A whole number within bounds, as JSON Schema's minimum and maximum (never an enum of integers). */
export const integerFrom = (field: string, min: number, max: number) =>
  z
    .number({ error: `${field} must be a whole number from ${min} to ${max}` })
    .int({ error: `${field} must be a whole number from ${min} to ${max}` })
    .min(min, { error: `${field} must be a whole number from ${min} to ${max}` })
    .max(max, { error: `${field} must be a whole number from ${min} to ${max}` });

/**
 * A picture: its words, and where its bytes come from (one of url, data, upload_id). Loose on purpose, so
 * the `{url, alt, width, height}` an answer shows can be sent back as it is (width and height
 * are read from the picture). Resolved into stored pictures by images/resolve-images.ts.
 */
export const imageFields = {
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

/** An option's picture: the same fields, described once (the question's). */
const OptionImageSchema = z.object(imageFields);

export const OptionInputSchema = z.strictObject({
  label: trimmed('label', LIMITS.optionLabelMax).describe('Shown to respondents.'),
  score: integerIn('score').default(0).describe('Points for choosing it (default 0).'),
  image: OptionImageSchema.nullable().optional().describe("As the question's image."),
});

/**
 * One typed field of the flat question object: its schema, and its description once the
 * surface knows which types take it (`takers`: their names, in the registry's order).
 */
export interface InputField<S extends z.ZodType = z.ZodType> {
  readonly schema: S;
  describe(takers: string): string;
}

export const inputField = <S extends z.ZodType>(
  schema: S,
  describe: (takers: string) => string,
): InputField<S> => ({ schema, describe });

/**
 * What a type's fields.ts holds (zod only): its typed fields of the flat question object (the
 * tools' input), its record's fields as the tools return them after the question's own, and its
 * figures in get_results' statistics after the item analysis every question has.
 */
export interface TypeFields<T extends QuestionType = QuestionType> {
  readonly input: { readonly [F in TypedField]?: InputField };
  readonly record: { readonly type: z.ZodLiteral<T> } & z.ZodRawShape;
  readonly statistics: { readonly type: z.ZodLiteral<T> } & z.ZodRawShape;
  /**
   * What the JSON attempt (POST /api/quizzes/{slug}/attempts) shows of its questions besides their
   * id, type and text: what a respondent needs to answer, and its parts under ids of the attempt
   * (opaque-ids.ts). `attemptPatterns`: such fields named by a pattern, one per part.
   */
  readonly attempt: z.ZodRawShape;
  readonly attemptPatterns?: Readonly<Record<string, z.ZodType>>;
  /**
   * Its fields of an answer in get_results' responses, after what every answer has, each
   * described after the types that have it (as `input`'s are); one several types have is shared.
   */
  readonly answer: { readonly [name: string]: InputField };
}

/** A type's figures in the statistics as its statistics rule returns them (without `type`). */
export type StatisticsOf<F extends TypeFields> = Omit<z.output<z.ZodObject<F['statistics']>>, 'type'>;

/** The text typed, in get_results' answers of the types that collect one. */
export const textAnswer = inputField(
  z.string().nullable().optional(),
  (takers) => `${takers}: the text typed (\`text\` is the question).`,
);

/** The number read, in get_results' answers of the types that take one. */
export const numberAnswer = inputField(
  z.number().nullable().optional(),
  (takers) => `${takers}: the value read.`,
);

/** Every type that takes `points` for a right answer. */
export const pointsInput = inputField(
  integerIn('points').optional(),
  (takers) => `${takers}: for a right answer (default 1).`,
);

/** The choice types' options: described by their kind, since the types' names would not say more. */
export const optionsInput = inputField(
  z
    .array(OptionInputSchema, { error: 'options must be an array of { label, score }' })
    .max(LIMITS.optionsMax, { error: `a question takes at most ${LIMITS.optionsMax} options` })
    .optional(),
  () => `Choice types: ${LIMITS.optionsMin}-${LIMITS.optionsMax}, in display order.`,
);

/** A picture as answers show it: our own address; only present when there is one. */
export const ImageRecordSchema = z
  .object({ url: z.string(), alt: z.string(), width: z.number().int(), height: z.number().int() })
  .optional();

export const pointsRecord = z.number().int();

export const choiceOptionsRecord = z.array(
  z.object({ label: z.string(), score: z.number().int(), image: ImageRecordSchema }),
);

/** A list the JSON attempt shows under opaque ids of its own: each part's id and label. */
export const opaqueList = (idField: string, description: string) =>
  z.array(z.object({ [idField]: z.string(), label: z.string() })).describe(description);

/**
 * `items` in the JSON attempt, which ordering and the grid both show: ordering's items carry the
 * ids its answer names, a grid's rows are answered by position and carry none.
 */
export const attemptItems = z
  .array(
    z.object({
      item_id: z.string().optional().describe('Ordering: answer `order` with these; a grid has none.'),
      label: z.string(),
    }),
  )
  .describe(
    'Ordering: the items to put in order, in the order to show; answer `order` with their item_ids. Grid: its rows, in order; answer `rows` with one entry per row.',
  );

/** The choice types' options in an attempt, in the order to show, each with its canonical index. */
export const attemptOptions = z.array(z.object({ option_index: z.number().int(), label: z.string() }));

/** A count of answers, and a share of them (0-1), as the statistics give them. */
export const statCount = z.number().int();
export const statShare = z.number().min(0).max(1);

export const optionCounts = z.array(
  z.object({ label: z.string(), score: z.number().int(), count: statCount }),
);

/** The typed types' answers counted right: null when the question scores nothing. */
export const rightCount = statCount.nullable();

/**
 * A list of `{label}` several types take (an ordering's items, a grid's rows): one schema, its
 * description built from the types that take it.
 */
export const itemsInput = inputField(
  z
    .array(z.strictObject({ label: OptionInputSchema.shape.label }), {
      error: 'items must be an array of { label }',
    })
    .max(LIMITS.orderingItemsMax, { error: `a question takes at most ${LIMITS.orderingItemsMax} items` })
    .optional(),
  (takers) =>
    `${takers}: ${LIMITS.orderingItemsMin}-${LIMITS.orderingItemsMax} {label}, in the right order, or the rows.`,
);

/** Points per item right, for the types marked item by item (per item in place, per row). */
export const pointsPerItemInput = inputField(
  integerIn('points_per_item').min(0, { error: 'points_per_item must be at least 0' }).optional(),
  (takers) => `${takers}: per item in place, instead of points, or per row right (default 1).`,
);

/** The distance a typed number may be off: the number type's, and the calculated type's. */
export const toleranceInput = inputField(
  numberIn('tolerance').min(0, { error: 'tolerance must be at least 0' }).optional(),
  (takers) => `${takers}: allowed distance, inclusive (default 0).`,
);
