import { z } from 'zod';
import {
  inputField,
  numberAnswer,
  numberIn,
  pointsInput,
  pointsRecord,
  rightCount,
  statCount,
  toleranceInput,
  type TypeFields,
} from '../shared-fields';

/** A number question's fields in the tools' input, in its record and in its statistics. */
export const numberFields = {
  input: {
    points: pointsInput,
    correct_number: inputField(
      numberIn('correct_number').optional(),
      (takers) => `${takers}: the right value.`,
    ),
    tolerance: toleranceInput,
  },
  record: {
    type: z.literal('number'),
    points: pointsRecord,
    correct_number: z.number(),
    tolerance: z.number(),
  },
  statistics: {
    type: z.literal('number'),
    right_count: rightCount,
    common_values: z.array(z.object({ value: z.number(), count: statCount })),
  },
  attempt: {},
  answer: { number: numberAnswer },
} satisfies TypeFields<'number'>;
