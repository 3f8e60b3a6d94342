import { z } from 'zod';
import { LIMITS } from '../../limits';
import {
  inputField,
  pointsInput,
  pointsRecord,
  rightCount,
  statCount,
  textAnswer,
  trimmed,
  type TypeFields,
} from '../shared-fields';

/** A short_text question's fields in the tools' input, in its record and in its statistics. */
export const shortTextFields = {
  input: {
    points: pointsInput,
    accepted_answers: inputField(
      z
        .array(trimmed('accepted answer', LIMITS.acceptedAnswerMax), {
          error: 'accepted_answers must be an array of strings',
        })
        .max(LIMITS.acceptedAnswersMax, {
          error: `accepted_answers takes at most ${LIMITS.acceptedAnswersMax} answers`,
        })
        .optional(),
      (takers) =>
        `${takers}: right answers; case and spacing ignored, accents not. None or []: collects text.`,
    ),
  },
  record: {
    type: z.literal('short_text'),
    points: pointsRecord,
    accepted_answers: z.array(z.string()).describe('Empty: the question collects text and scores nothing.'),
  },
  statistics: {
    type: z.literal('short_text'),
    right_count: rightCount,
    common_answers: z.array(z.object({ answer: z.string(), count: statCount })),
  },
  attempt: {},
  answer: { text_answer: textAnswer },
} satisfies TypeFields<'short_text'>;
