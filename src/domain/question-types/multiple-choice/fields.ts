import { z } from 'zod';
import {
  attemptOptions,
  optionCounts,
  optionsInput,
  choiceOptionsRecord,
  type TypeFields,
} from '../shared-fields';

/** A multiple_choice question's fields in the tools' input, in its record and in its statistics. */
export const multipleChoiceFields = {
  input: { options: optionsInput },
  record: { type: z.literal('multiple_choice'), options: choiceOptionsRecord },
  statistics: { type: z.literal('multiple_choice'), options: optionCounts },
  attempt: { options: attemptOptions },
  answer: {},
} satisfies TypeFields<'multiple_choice'>;
