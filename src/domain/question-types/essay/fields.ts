import { z } from 'zod';
import { LIMITS } from '../../limits';
import {
  inputField,
  integerFrom,
  pointsInput,
  pointsRecord,
  statCount,
  textAnswer,
  trimmed,
  type TypeFields,
} from '../shared-fields';

/** An essay question's fields in the tools' input, in its record and in its statistics. */
export const essayFields = {
  input: {
    points: pointsInput,
    rubric: inputField(
      z
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
        .max(LIMITS.rubricCriteriaMax, {
          error: `a rubric takes at most ${LIMITS.rubricCriteriaMax} criteria`,
        })
        .optional(),
      (takers) => `${takers}: its maximum is the sum of each criterion's top level.`,
    ),
    min_words: inputField(
      integerFrom('min_words', 1, LIMITS.essayWordsMax).optional(),
      (takers) => `${takers}: fewest words.`,
    ),
    max_words: inputField(
      integerFrom('max_words', 1, LIMITS.essayWordsMax).optional(),
      (takers) => `${takers}: most words.`,
    ),
  },
  record: {
    type: z.literal('essay'),
    points: pointsRecord,
    rubric: z.array(
      z.object({
        criterion: z.string(),
        levels: z.array(z.object({ label: z.string(), points: z.number().int() })),
      }),
    ),
    min_words: z.number().int().nullable(),
    max_words: z.number().int().nullable(),
  },
  statistics: {
    type: z.literal('essay'),
    right_count: statCount.nullable().describe('Answers graded above 0.'),
    pending_count: statCount.describe('Answers waiting for a final grade: left out of these figures.'),
  },
  attempt: {
    min_words: z.number().int().describe('The fewest words an essay answer may have, when set.'),
    max_words: z.number().int().describe('The most words an essay answer may have, when set.'),
  },
  answer: {
    text_answer: textAnswer,
    grade_state: inputField(
      z.enum(['pending', 'proposed', 'final']).optional(),
      (takers) => `${takers}: its grade; pending and proposed earn 0 so far.`,
    ),
  },
} satisfies TypeFields<'essay'>;
