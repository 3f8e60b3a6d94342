import { z } from 'zod';
import { NO_ANSWER, type QuestionTypeDefinition, type SubmittedAnswer } from '../definition';
import type { StatisticsOf } from '../shared-fields';
import { noPointsPossible } from '../warnings';
import { GRID_LIMITS, type gridFields } from './fields';

/**
 * A grid (Google Forms' multiple-choice and checkbox grids): rows asked against the same
 * columns, one column per row or, with `checkboxes`, any. With a key (`right`: per row the
 * right columns) each row answered exactly right earns `pointsPerRow`; without one it is a
 * survey, unscored like a scale.
 */
export interface GridQuestion {
  id: string;
  type: 'grid';
  rows: readonly string[];
  columns: readonly string[];
  checkboxes: boolean;
  /** Per row, its right columns by index (ascending); null: a survey, never marked. */
  right: ReadonlyArray<readonly number[]> | null;
  pointsPerRow: number;
}

export type GridKey = Omit<GridQuestion, 'id'>;

/** Per row, the chosen columns by index, ascending ([]: the row left empty). */
export type GridCells = ReadonlyArray<readonly number[]>;

export { GRID_LIMITS };

/** Between a row and its columns, between columns, and between rows, in the answer's text. */
export const ROW_MARK = ': ';
export const COLUMN_SEPARATOR = ', ';
export const ROW_SEPARATOR = '; ';
/** A row left empty, in the answer's text. */
const EMPTY_ROW = '—';

/** The rows answered exactly as the key says (a checkbox row: its right columns and no other). */
export function rightRows(key: Pick<GridKey, 'right'>, cells: GridCells): number {
  if (!key.right || cells.length !== key.right.length) return 0;
  return key.right.filter((right, row) => sameColumns(right, cells[row]!)).length;
}

const sameColumns = (a: readonly number[], b: readonly number[]) => {
  const left = [...new Set(a)].sort((x, y) => x - y);
  const right = [...new Set(b)].sort((x, y) => x - y);
  return left.length === right.length && left.every((column, index) => column === right[index]);
};

export const gridMaxPoints = (key: Pick<GridKey, 'right' | 'pointsPerRow' | 'rows'>) =>
  key.right ? Math.max(key.pointsPerRow, 0) * key.rows.length : 0;

export const gridPoints = (key: Pick<GridKey, 'right' | 'pointsPerRow'>, cells: GridCells) =>
  key.right ? Math.max(key.pointsPerRow, 0) * rightRows(key, cells) : 0;

/** One row's columns as text ("Agree", "Red, Blue"), a dash when empty. */
export const rowText = (columns: readonly string[], chosen: readonly number[]) =>
  chosen.length === 0 ? EMPTY_ROW : chosen.map((column) => columns[column] ?? '').join(COLUMN_SEPARATOR);

/** The whole answer as one string: "Row: column; Row: column, column". */
export const gridText = (rows: readonly string[], columns: readonly string[], cells: GridCells) =>
  rows.map((row, index) => `${row}${ROW_MARK}${rowText(columns, cells[index] ?? [])}`).join(ROW_SEPARATOR);

/**
 * The running figures count an answer under its cells: "g:", then each row's columns joined by
 * "+", rows by "|" ("g:0|2+3|" : row 1 the first column, row 2 the third and fourth, row 3 none).
 */
const STAT_PREFIX = 'g:';

export const gridStatKey = (cells: GridCells) =>
  `${STAT_PREFIX}${cells.map((chosen) => chosen.join('+')).join('|')}`;

function cellsOfStatKey(key: string, rows: number): number[][] | null {
  if (!key.startsWith(STAT_PREFIX)) return null;
  const parts = key.slice(STAT_PREFIX.length).split('|');
  if (parts.length !== rows) return null;
  return parts.map((part) => (part === '' ? [] : part.split('+').map(Number)));
}

/** Per row: its answers per column, how many answered it, and (keyed) the share that got it right. */
export interface GridRowFigure {
  row: string;
  counts: number[];
  right_share: number | null;
}

/** The per-row figures from the answers' counts by cells (flat in the number of responses). */
export function gridFigures(
  question: Pick<GridKey, 'rows' | 'columns' | 'right'>,
  counts: ReadonlyMap<string, number>,
): { right_count: number | null; rows: GridRowFigure[] } {
  const perRow = question.rows.map(() => question.columns.map(() => 0));
  const rightPerRow = question.rows.map(() => 0);
  let answered = 0;
  let wholeRight = 0;
  for (const [key, count] of counts) {
    const cells = cellsOfStatKey(key, question.rows.length);
    if (!cells) continue;
    answered += count;
    cells.forEach((chosen, row) => {
      for (const column of new Set(chosen)) {
        if (column >= 0 && column < question.columns.length) perRow[row]![column]! += count;
      }
      if (question.right && sameColumns(question.right[row] ?? [], chosen)) rightPerRow[row]! += count;
    });
    if (question.right && rightRows({ right: question.right }, cells) === question.rows.length) {
      wholeRight += count;
    }
  }
  return {
    right_count: question.right ? wholeRight : null,
    rows: question.rows.map((row, index) => ({
      row,
      counts: perRow[index]!,
      right_share: question.right && answered > 0 ? rightPerRow[index]! / answered : null,
    })),
  };
}

/**
 * A submitted answer's cells for this grid: per row a column index, a list of them, or null
 * (none); the cells, ascending per row, or why they cannot be read.
 */
export function readCells(
  question: Pick<GridKey, 'rows' | 'columns' | 'checkboxes'>,
  given: unknown,
): { cells: number[][] } | { problem: string } {
  const help = `a grid question takes rows: ${question.rows.length} entries, one per row, each a column index from 0 to ${question.columns.length - 1}${question.checkboxes ? ', a list of them' : ''} or null.`;
  if (!Array.isArray(given) || given.length !== question.rows.length) return { problem: help };
  const fits = (column: unknown): column is number =>
    typeof column === 'number' && Number.isInteger(column) && column >= 0 && column < question.columns.length;
  const cells: number[][] = [];
  for (const entry of given as unknown[]) {
    const chosen = entry === null ? [] : Array.isArray(entry) ? (entry as unknown[]) : [entry];
    if (!chosen.every(fits) || new Set(chosen).size !== chosen.length) return { problem: help };
    if (!question.checkboxes && chosen.length > 1) {
      return { problem: `${help} This grid takes one column per row.` };
    }
    cells.push([...chosen].sort((a, b) => a - b));
  }
  if (cells.every((chosen) => chosen.length === 0)) {
    return { problem: `${help} Choose in at least one row, or leave the question out.` };
  }
  return { cells };
}

/** A problem with one of the grid's fields as sent, in English with its code and figures. */
export type GridIssue = (
  field: 'items' | 'columns' | 'right_columns',
  message: string,
  code: 'too_few' | 'too_many' | 'repeated' | 'invalid',
  params?: Readonly<Record<string, string | number>>,
) => void;

export interface GridInput {
  items?: ReadonlyArray<{ label: string }> | undefined;
  columns?: readonly string[] | undefined;
  checkboxes?: boolean | undefined;
  right_columns?: ReadonlyArray<readonly number[]> | undefined;
}

/** The rules across its fields, beyond what each field's schema checks. */
export function checkGridInput(input: GridInput, issue: GridIssue): void {
  const rows = input.items ?? [];
  const columns = input.columns ?? [];
  if (rows.length < GRID_LIMITS.rowsMin) {
    issue(
      'items',
      `a grid question needs at least ${GRID_LIMITS.rowsMin} row in items ({label})`,
      'too_few',
      {
        min: GRID_LIMITS.rowsMin,
        got: rows.length,
      },
    );
  }
  if (columns.length < GRID_LIMITS.columnsMin) {
    issue(
      'columns',
      `a grid question needs ${GRID_LIMITS.columnsMin}-${GRID_LIMITS.columnsMax} columns (got ${columns.length})`,
      'too_few',
      { min: GRID_LIMITS.columnsMin, got: columns.length },
    );
  }
  repeated(
    rows.map((row) => row.label),
    (index, first) =>
      issue(
        'items',
        `items[${index}] repeats the row of items[${first}]: each row needs its own text`,
        'repeated',
        {
          line: first + 1,
        },
      ),
  );
  repeated(columns, (index, first) =>
    issue(
      'columns',
      `columns[${index}] repeats columns[${first}]: each column needs its own label`,
      'repeated',
      {
        line: first + 1,
      },
    ),
  );
  const right = input.right_columns;
  if (right === undefined) return;
  if (right.length !== rows.length) {
    issue(
      'right_columns',
      `right_columns needs one entry per row (${rows.length}), each a list of right column indexes; leave it out for a survey`,
      'invalid',
    );
    return;
  }
  right.forEach((chosen, row) => {
    const within = chosen.every((column) => column >= 0 && column < columns.length);
    const count = new Set(chosen).size;
    if (!within || count !== chosen.length || count === 0 || (!input.checkboxes && count !== 1)) {
      const what = input.checkboxes ? 'one or more distinct column indexes' : 'one column index';
      issue(
        'right_columns',
        `right_columns[${row}] must hold ${what} from 0 to ${Math.max(columns.length - 1, 0)}`,
        'invalid',
      );
    }
  });
}

function repeated(labels: readonly string[], found: (index: number, first: number) => void) {
  const seen = new Map<string, number>();
  labels.forEach((label, index) => {
    const first = seen.get(label);
    if (first === undefined) seen.set(label, index);
    else found(index, first);
  });
}

/** Its fields as the tools return them; `right_columns` only when it has a key. */
export interface GridRecord {
  items: Array<{ label: string }>;
  columns: string[];
  checkboxes: boolean;
  right_columns?: number[][];
  points_per_item: number;
}

/** Its answer as stored: per row the columns chosen, and the rows' and columns' labels then. */
const valueSchema = z.object({
  cells: z.array(z.array(z.number().int())),
  rows: z.array(z.string()),
  columns: z.array(z.string()),
});

const sortedCells = (cells: GridCells) => cells.map((chosen) => [...chosen].sort((a, b) => a - b));

export const grid: QuestionTypeDefinition<GridQuestion, GridRecord, z.infer<typeof valueSchema>> = {
  name: 'grid',
  summary: 'grid (rows x columns)',
  guide: [
    `The respondent answers each row of \`items\` (${GRID_LIMITS.rowsMin}-${GRID_LIMITS.rowsMax} {label}) in one of \`columns\` (${GRID_LIMITS.columnsMin}-${GRID_LIMITS.columnsMax} labels), or in`,
    'any number of them with `checkboxes: true`. `right_columns` gives per row its right column indexes',
    '(`[[0], [2]]`); each row answered exactly right earns `points_per_item` (default 1). Without',
    '`right_columns` it is a survey: unscored, like a scale, and out of the item analysis.',
  ],
  statisticsGuide: 'give per row its `counts` per column and, with a key, `right_share`',
  reference: {
    fields: `\`items\`: the rows, ${GRID_LIMITS.rowsMin}-${GRID_LIMITS.rowsMax} of \`{label}\`; \`columns\`: ${GRID_LIMITS.columnsMin}-${GRID_LIMITS.columnsMax} labels; \`checkboxes\` (default false: one column per row); \`right_columns\` (per row its right column indexes; none: a survey); \`points_per_item\` (default 1)`,
    marked:
      '`points_per_item` for each row answered exactly as `right_columns` says. Without `right_columns` not marked: a survey, out of the score.',
    answer: '`rows`: per row a column index, a list of them (checkboxes), or null',
    limit: {
      bound: `${GRID_LIMITS.rowsMin}-${GRID_LIMITS.rowsMax} rows`,
      then: `${GRID_LIMITS.columnsMin}-${GRID_LIMITS.columnsMax} columns`,
    },
  },
  keyHint:
    'a grid question lists its rows in items, its columns, and per row the right column indexes, e.g. items: [{"label": "Paris"}, {"label": "Rome"}], columns: ["France", "Italy"], right_columns: [[0], [1]]',
  takes: ['items', 'columns', 'checkboxes', 'right_columns', 'points_per_item'],
  checkInput: (input, issue) => checkGridInput(input, issue),
  fromInput: (input) => ({
    type: 'grid',
    rows: (input.items ?? []).map((item) => item.label),
    columns: [...(input.columns ?? [])],
    checkboxes: input.checkboxes ?? false,
    right: input.right_columns ? sortedCells(input.right_columns) : null,
    pointsPerRow: input.points_per_item ?? 1,
  }),
  keySchema: z.object({
    rows: z.array(z.string()),
    columns: z.array(z.string()),
    checkboxes: z.boolean(),
    right: z.array(z.array(z.number().int())).nullable(),
    pointsPerRow: z.number().int(),
  }),
  toStored: (key) => ({
    rows: [...key.rows],
    columns: [...key.columns],
    checkboxes: key.checkboxes,
    right: key.right ? sortedCells(key.right) : null,
    pointsPerRow: key.pointsPerRow,
  }),
  record: (key) => ({
    items: key.rows.map((label) => ({ label })),
    columns: [...key.columns],
    checkboxes: key.checkboxes,
    ...(key.right ? { right_columns: sortedCells(key.right) } : {}),
    points_per_item: key.pointsPerRow,
  }),
  importing: {
    shape: 'matrix',
    build: (source, score) => {
      const matrix = source.matrix;
      return {
        items: (matrix?.rows ?? []).map((label) => ({ label })),
        columns: [...(matrix?.columns ?? [])],
        checkboxes: matrix?.checkboxes ?? false,
        ...(matrix?.right ? { right_columns: sortedCells(matrix.right) } : {}),
        points_per_item: score(matrix?.right ? matrix.pointsPerRow : 1),
      };
    },
  },
  exporting: (record) => ({
    shape: 'matrix',
    grade: record.right_columns ? record.points_per_item * record.items.length : 0,
    answers: [],
    matrix: {
      rows: record.items.map((item) => item.label),
      columns: [...record.columns],
      checkboxes: record.checkboxes,
      right: record.right_columns ?? null,
      pointsPerRow: record.points_per_item,
    },
    unsaid: [],
  }),
  // A survey earns nothing by design; a keyed grid whose rows earn nothing is probably a slip.
  warnings: (record) =>
    !record.right_columns || record.points_per_item > 0
      ? []
      : noPointsPossible('points_per_item', 'points_per_item is not above 0'),
  unscored: (key) => key.right === null,
  maxPoints: gridMaxPoints,
  points: (key, answer) => ('cells' in answer ? gridPoints(key, answer.cells) : 0),
  answerKey: (key) =>
    JSON.stringify([key.type, key.rows, key.columns, key.checkboxes, key.right, key.pointsPerRow]),
  // Answers name rows and columns by index: they carry over while both counts stay, and a
  // checkbox grid cannot read back as one that takes one column per row.
  answersCarryOver: (previous, next) =>
    previous.rows.length === next.rows.length &&
    previous.columns.length === next.columns.length &&
    (next.checkboxes || !previous.checkboxes),
  shufflesOptions: false,
  answerField: {
    name: 'rows',
    schema: z
      .array(
        z.union([z.number().int(), z.array(z.number().int()).max(GRID_LIMITS.columnsMax), z.null()], {
          error: 'each entry of rows is a column index, a list of them, or null',
        }),
        { error: 'rows must be an array with one entry per row of the grid' },
      )
      .max(GRID_LIMITS.rowsMax, { error: `rows takes at most ${GRID_LIMITS.rowsMax} entries` }),
    help: 'rows (grid)',
    description: 'grid: per row a column index, a list of them (checkboxes), or null.',
    jsonSchema: {
      type: 'array',
      items: { type: ['integer', 'array', 'null'], items: { type: 'integer', minimum: 0 } },
      maxItems: GRID_LIMITS.rowsMax,
    },
  },
  parseAnswer: (question, answer) => {
    const read = readCells(question, answer.rows);
    return 'problem' in read ? { field: 'rows', message: read.problem } : { cells: read.cells };
  },
  // The form's reader hands over the rows as JSON (grid/form.ts); anything else is refused.
  formAnswer: (value) => {
    try {
      return { rows: JSON.parse(value) as SubmittedAnswer['rows'] };
    } catch {
      return { rows: [] };
    }
  },
  valueSchema,
  storedAnswer: (question, choice) =>
    'cells' in choice
      ? { cells: sortedCells(choice.cells), rows: [...question.rows], columns: [...question.columns] }
      : undefined,
  statKeys: (value) => ({ statKey: gridStatKey(value.cells), statValue: null, statNum: null }),
  choiceOf: (value) => ({ cells: value.cells }),
  answerText: (value) => gridText(value.rows, value.columns, value.cells),
  typedValue: (value) => ({ rows: value ? value.cells.map((chosen) => [...chosen]) : null }),
  columns: (value) => ({ ...NO_ANSWER, text: gridText(value.rows, value.columns, value.cells) }),
  // A spreadsheet reads each row apart: one column per row, its columns' labels joined.
  csv: {
    columns: (question) => [...question.rows],
    cells: (value, count) =>
      Array.from({ length: count }, (_, row) => {
        const chosen = value.cells[row];
        return chosen && chosen.length > 0 ? rowText(value.columns, chosen) : null;
      }),
  },
  respondentFields: (question) => ({
    items: question.rows.map((label) => ({ label })),
    columns: [...question.columns],
    checkboxes: question.checkboxes,
  }),
  rightAnswers: (question) =>
    question.right ? [gridText(question.rows, question.columns, question.right)] : [],
  // Marked per row: the item analysis reads its points, as for the other types marked in parts.
  analysisKeys: () => null,
  // Counted by the cells chosen (its running figures); per row and column from those counts.
  statistics: (question, { counts, round }): StatisticsOf<typeof gridFields> => {
    const { right_count, rows } = gridFigures(question, counts);
    return { right_count, rows: rows.map((row) => ({ ...row, right_share: round(row.right_share) })) };
  },
  commonAnswers: 'none',
  answerIsTyped: false,
};
