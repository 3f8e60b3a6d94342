import { z } from 'zod';
import {
  attemptOptions,
  choiceOptionsRecord,
  inputField,
  optionCounts,
  optionsInput,
  type TypeFields,
} from '../shared-fields';

/** A multiple_select question's fields in the tools' input, in its record and in its statistics. */
export const multipleSelectFields = {
  input: { options: optionsInput },
  record: { type: z.literal('multiple_select'), options: choiceOptionsRecord },
  statistics: { type: z.literal('multiple_select'), options: optionCounts },
  attempt: { options: attemptOptions },
  answer: {
    choices: inputField(
      z.array(z.number().int()).nullable().optional(),
      (takers) => `${takers}: the ticked indexes.`,
    ),
  },
} satisfies TypeFields<'multiple_select'>;
