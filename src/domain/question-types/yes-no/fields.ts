import { z } from 'zod';
import { inputField, pointsInput, pointsRecord, statCount, type TypeFields } from '../shared-fields';

/** A yes_no question's fields in the tools' input, in its record and in its statistics. */
export const yesNoFields = {
  input: {
    points: pointsInput,
    correct_answer: inputField(
      z.enum(['yes', 'no'], { error: 'correct_answer must be "yes" or "no"' }).optional(),
      (takers) => `${takers}: the right one (default "yes").`,
    ),
  },
  record: {
    type: z.literal('yes_no'),
    points: pointsRecord,
    correct_answer: z.enum(['yes', 'no']).describe('The answer that earns the points.'),
  },
  statistics: {
    type: z.literal('yes_no'),
    yes_count: statCount,
    no_count: statCount,
    correct_answer: z.enum(['yes', 'no']).describe('The answer that earns the points.'),
  },
  attempt: {},
  answer: {},
} satisfies TypeFields<'yes_no'>;
