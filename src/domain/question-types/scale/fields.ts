import { z } from 'zod';
import { LIMITS } from '../../limits';
import { inputField, integerFrom, statCount, type TypeFields } from '../shared-fields';

/** A scale question's fields in the tools' input, in its record and in its statistics. */
export const scaleFields = {
  input: {
    scale_min: inputField(
      integerFrom('scale_min', LIMITS.scaleMinLowest, LIMITS.scaleMinHighest).optional(),
      (takers) => `${takers}: lowest (default 1).`,
    ),
    scale_max: inputField(
      integerFrom('scale_max', LIMITS.scaleMaxLowest, LIMITS.scaleMaxHighest).optional(),
      (takers) => `${takers}: highest.`,
    ),
    scale_labels: inputField(
      z
        .array(
          z
            .string({ error: 'scale_labels must hold strings' })
            .trim()
            // Checked, not published: the words' length is no part of what a model needs to know.
            .refine((label) => label.length <= LIMITS.scaleLabelMax, {
              error: `a scale label takes at most ${LIMITS.scaleLabelMax} characters`,
            }),
          {
            error:
              "scale_labels must be an array of two strings: the lowest end's words, then the highest end's",
          },
        )
        .refine((labels) => labels.length <= 2, {
          error: "scale_labels takes two strings: the lowest end's words, then the highest end's",
        })
        .optional(),
      (takers) => `${takers}: end words, lowest first.`,
    ),
  },
  record: {
    type: z.literal('scale'),
    scale_min: z.number().int(),
    scale_max: z.number().int(),
    scale_labels: z.array(z.string()).describe('The lowest end\'s words, then the highest\'s; "": none.'),
  },
  statistics: {
    type: z.literal('scale'),
    distribution: z
      .array(z.object({ value: z.number().int(), count: statCount }))
      .describe('Answers per value.'),
    mean: z.number().nullable(),
    median: z.number().nullable(),
    net_promoter: z
      .object({
        score: z.number().int().nullable(),
        promoters: statCount,
        passives: statCount,
        detractors: statCount,
      })
      .nullable()
      .describe('From 0 to 10 only: % promoters (9-10) minus % detractors (0-6).'),
  },
  attempt: {
    scale_min: z.number().int().describe('The lowest value of an opinion scale.'),
    scale_max: z.number().int().describe('The highest value of an opinion scale.'),
    scale_labels: z
      .array(z.string())
      .describe('The words for the two ends of an opinion scale, lowest first ("" when unnamed).'),
  },
  answer: {
    value: inputField(z.number().int().nullable().optional(), (takers) => `${takers}: the value picked.`),
  },
} satisfies TypeFields<'scale'>;
