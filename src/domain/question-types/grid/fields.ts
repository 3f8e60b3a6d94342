import { z } from 'zod';
import { LIMITS } from '../../limits';
import {
  inputField,
  attemptItems,
  itemsInput,
  pointsPerItemInput,
  statCount,
  statShare,
  trimmed,
  unlisted,
  type TypeFields,
} from '../shared-fields';

/** A grid's bounds: its rows (its items) and its columns. */
export const GRID_LIMITS = { rowsMin: 1, rowsMax: LIMITS.orderingItemsMax, columnsMin: 2, columnsMax: 10 };

const columnIndexes = 'right_columns holds column indexes: whole numbers, 0 first';

/** A grid's fields in the tools' input, in its record, in its statistics and in the attempt. */
export const gridFields = {
  input: {
    items: itemsInput,
    columns: inputField(
      z
        .array(unlisted(trimmed('column', LIMITS.optionLabelMax)), {
          error: 'columns must be an array of labels',
        })
        .max(GRID_LIMITS.columnsMax, { error: `a grid takes at most ${GRID_LIMITS.columnsMax} columns` })
        .optional(),
      (takers) => `${takers}: ${GRID_LIMITS.columnsMin}-${GRID_LIMITS.columnsMax} labels.`,
    ),
    checkboxes: inputField(
      z.boolean({ error: 'checkboxes must be true or false' }).optional(),
      (takers) => `${takers}: any per row (default one).`,
    ),
    right_columns: inputField(
      z
        .array(
          z.array(z.number({ error: columnIndexes }).int({ error: columnIndexes }), {
            error: 'each entry of right_columns is a list of column indexes',
          }),
          { error: 'right_columns must be an array with a list of column indexes per row' },
        )
        .max(GRID_LIMITS.rowsMax, { error: `right_columns takes at most ${GRID_LIMITS.rowsMax} rows` })
        .optional(),
      (takers) => `${takers}: per row, its right column indexes. None: a survey.`,
    ),
    points_per_item: pointsPerItemInput,
  },
  record: {
    type: z.literal('grid'),
    items: z.array(z.object({ label: z.string() })).describe('Its rows.'),
    columns: z.array(z.string()),
    checkboxes: z.boolean(),
    right_columns: z.array(z.array(z.number().int())).optional().describe('Absent: a survey.'),
    points_per_item: z.number().int(),
  },
  statistics: {
    type: z.literal('grid'),
    right_count: statCount.nullable().describe('Answers with every row right; null: a survey.'),
    rows: z
      .array(
        z.object({
          row: z.string(),
          counts: z.array(statCount).describe('Answers per column.'),
          right_share: statShare.nullable(),
        }),
      )
      .describe('Per row.'),
  },
  attempt: {
    items: attemptItems,
    columns: z.array(z.string()).describe("A grid's columns, in order; answer `rows` with their indexes."),
    checkboxes: z.boolean().describe('A grid that takes any number of columns per row.'),
  },
  answer: {},
} satisfies TypeFields<'grid'>;
