import { z } from 'zod';
import {
  attemptOptions,
  optionCounts,
  optionsInput,
  choiceOptionsRecord,
  type TypeFields,
} from '../shared-fields';

/** A multiple_select question's fields in the tools' input, in its record and in its statistics. */
export const multipleSelectFields = {
  input: { options: optionsInput },
  record: { type: z.literal('multiple_select'), options: choiceOptionsRecord },
  statistics: { type: z.literal('multiple_select'), options: optionCounts },
  attempt: { options: attemptOptions },
} satisfies TypeFields<'multiple_select'>;
