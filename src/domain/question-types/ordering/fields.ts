import { z } from 'zod';
import {
  attemptItems,
  inputField,
  itemsInput,
  pointsInput,
  pointsPerItemInput,
  pointsRecord,
  statCount,
  statShare,
  type TypeFields,
} from '../shared-fields';

/** An ordering question's fields in the tools' input, in its record and in its statistics. */
export const orderingFields = {
  input: {
    items: itemsInput,
    points: pointsInput,
    points_per_item: pointsPerItemInput,
  },
  record: {
    type: z.literal('ordering'),
    items: z.array(z.object({ label: z.string() })).describe('In the right order.'),
    points: pointsRecord,
    points_per_item: z.number().int().nullable().describe('Null: points for the whole order.'),
  },
  statistics: {
    type: z.literal('ordering'),
    right_count: statCount.describe('Answers with the whole order right.'),
    positions: z
      .array(
        z.object({
          position: statCount.describe('1 is first.'),
          right_item: z.string(),
          right_share: statShare.nullable().describe('Share of answers with the right item here.'),
          common_wrong_item: z.string().nullable().describe('The wrong item put here most often.'),
          common_wrong_count: statCount,
        }),
      )
      .describe('Per position of the right order.'),
  },
  attempt: { items: attemptItems },
  answer: {
    order: inputField(
      z.array(z.number().int()).nullable().optional(),
      (takers) => `${takers}: the order chosen, as item indexes in the right order (0 first).`,
    ),
  },
} satisfies TypeFields<'ordering'>;
