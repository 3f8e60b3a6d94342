import { z } from 'zod';
import {
  inputField,
  numberAnswer,
  pointsInput,
  pointsRecord,
  rightCount,
  statCount,
  toleranceInput,
  unlisted,
  type TypeFields,
} from '../shared-fields';
import { FORMULA_LIMITS } from './formula';
import { VARIABLE_LIMITS } from './variables';

const variableShape = 'variables must be an array of { name, min, max, decimals or step, unit }';

/** A variable as checked; its fields are named by the type's guide, not published in tools/list. */
const VariableSchema = z.strictObject({
  name: z.string({ error: 'name must be a string' }).max(VARIABLE_LIMITS.nameLength, {
    error: `name takes at most ${VARIABLE_LIMITS.nameLength} characters`,
  }),
  min: z.number({ error: 'min must be a number' }),
  max: z.number({ error: 'max must be a number' }),
  decimals: z.number({ error: 'decimals must be a whole number' }).optional(),
  step: z.number({ error: 'step must be a number above 0' }).optional(),
  unit: z
    .string({ error: 'unit must be a string, such as "km"' })
    .trim()
    .max(VARIABLE_LIMITS.unitLength, { error: `unit takes at most ${VARIABLE_LIMITS.unitLength} characters` })
    .optional(),
});

const VariableListSchema = z
  .array(VariableSchema, { error: variableShape })
  .max(VARIABLE_LIMITS.count, { error: `a question takes at most ${VARIABLE_LIMITS.count} variables` });

/**
 * Published as an array whose items the guide names, with no `items` schema: an empty one is a
 * finding of portability checks, and clients that build a validator from `{ "type": "object" }`
 * refuse every key of it. The items are checked by VariableListSchema all the same.
 */
const publishedAsArray = z.unknown().meta({ type: 'array' });

/** A calculated question's fields in the tools' input, in its record and in its statistics. */
export const calculatedFields = {
  input: {
    points: pointsInput,
    formula: inputField(
      unlisted(
        z.string().max(FORMULA_LIMITS.length, {
          error: `formula takes at most ${FORMULA_LIMITS.length} characters`,
        }),
      ).optional(),
      (takers) => `${takers}: answer over variables.`,
    ),
    variables: inputField(
      publishedAsArray
        .superRefine((value, ctx) => {
          const read = VariableListSchema.safeParse(value);
          if (!read.success)
            for (const issue of read.error.issues) ctx.addIssue({ ...issue, code: 'custom', input: value });
        })
        .transform((value) => VariableListSchema.parse(value))
        .optional(),
      (takers) => `${takers}: one per {name} of text.`,
    ),
    tolerance: toleranceInput,
    tolerance_type: inputField(
      z
        .enum(['absolute', 'relative'], { error: 'tolerance_type must be "absolute" or "relative"' })
        .optional(),
      (takers) => `${takers}: relative: a share.`,
    ),
  },
  record: {
    type: z.literal('calculated'),
    points: pointsRecord,
    formula: z.string(),
    // Its items' fields, named by create_quiz's guide.
    variables: publishedAsArray,
    tolerance: z.number(),
    tolerance_type: z.enum(['absolute', 'relative']),
  },
  statistics: {
    type: z.literal('calculated'),
    right_count: rightCount,
    common_values: z.array(z.object({ value: z.number(), count: statCount })),
  },
  attempt: {},
  answer: { number: numberAnswer },
} satisfies TypeFields<'calculated'>;
