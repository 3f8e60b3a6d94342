// The grid type's rules: its fields' checks, the answer's cells, its marking per row against a
// key (or none, a survey) and its figures per row from the counts by cells, worked out by hand.
import {
  checkGridInput,
  gridFigures,
  gridMaxPoints,
  gridPoints,
  gridStatKey,
  gridText,
  readCells,
  type GridInput,
  type GridKey,
} from '../../src/domain/question-types/grid';

const keyed: GridKey = {
  type: 'grid',
  rows: ['Paris', 'Rome', 'Lima'],
  columns: ['France', 'Italy', 'Peru'],
  checkboxes: false,
  right: [[0], [1], [2]],
  pointsPerRow: 2,
};
const survey: GridKey = { ...keyed, right: null, pointsPerRow: 1 };
const ticks: GridKey = {
  type: 'grid',
  rows: ['Red', 'Green'],
  columns: ['Flag of Italy', 'Flag of Peru', 'Flag of France'],
  checkboxes: true,
  right: [[0, 1, 2], [0]],
  pointsPerRow: 1,
};

const problems = (input: GridInput) => {
  const found: string[] = [];
  checkGridInput(input, (field, message) => found.push(`${field}: ${message}`));
  return found;
};

describe('a grid as the tools take it', () => {
  const rows = [{ label: 'Paris' }, { label: 'Rome' }];
  test('rows and 2-10 columns, with or without a key, are taken', () => {
    expect(problems({ items: rows, columns: ['Yes', 'No'] })).toEqual([]);
    expect(problems({ items: rows, columns: ['A', 'B', 'C'], right_columns: [[0], [2]] })).toEqual([]);
    expect(
      problems({ items: rows, columns: ['A', 'B'], checkboxes: true, right_columns: [[0, 1], [1]] }),
    ).toEqual([]);
  });

  test.each<[GridInput, string]>([
    [{ items: [], columns: ['A', 'B'] }, 'items: a grid question needs at least 1 row'],
    [{ items: rows, columns: ['A'] }, 'columns: a grid question needs 2-10 columns (got 1)'],
    [
      { items: [{ label: 'x' }, { label: 'x' }], columns: ['A', 'B'] },
      'items: items[1] repeats the row of items[0]',
    ],
    [{ items: rows, columns: ['A', 'A'] }, 'columns: columns[1] repeats columns[0]'],
    [
      { items: rows, columns: ['A', 'B'], right_columns: [[0]] },
      'right_columns: right_columns needs one entry per row (2)',
    ],
    [
      { items: rows, columns: ['A', 'B'], right_columns: [[0], [2]] },
      'right_columns: right_columns[1] must hold one column index from 0 to 1',
    ],
    [
      { items: rows, columns: ['A', 'B'], right_columns: [[0], [0, 1]] },
      'right_columns[1] must hold one column index',
    ],
    [
      { items: rows, columns: ['A', 'B'], right_columns: [[0], []] },
      'right_columns[1] must hold one column index',
    ],
    [
      { items: rows, columns: ['A', 'B'], checkboxes: true, right_columns: [[0, 0], [1]] },
      'right_columns[0] must hold one or more distinct column indexes from 0 to 1',
    ],
  ])('%j is refused by name: %s', (input, message) => {
    expect(problems(input).join('\n')).toContain(message);
  });
});

describe('a grid answer', () => {
  test('takes per row a column index, a list (checkboxes) or null, sorted per row', () => {
    expect(readCells(keyed, [0, null, [2]])).toEqual({ cells: [[0], [], [2]] });
    expect(readCells(ticks, [[2, 0], 1])).toEqual({ cells: [[0, 2], [1]] });
  });

  test.each<[GridKey, unknown, RegExp]>([
    [keyed, [0, 1], /takes rows: 3 entries, one per row, each a column index from 0 to 2 or null/],
    [keyed, 'x', /takes rows: 3 entries/],
    [keyed, [0, 1, 3], /from 0 to 2/],
    [keyed, [0, 1, 1.5], /from 0 to 2/],
    [keyed, [[0, 1], 1, 2], /This grid takes one column per row/],
    [ticks, [[0, 0], []], /a list of them or null/],
    [keyed, [null, [], null], /Choose in at least one row/],
  ])('refuses %j: %s', (question, given, message) => {
    const read = readCells(question, given);
    expect('problem' in read && read.problem).toMatch(message);
  });

  test('its text names each row with its columns, a dash for an empty row', () => {
    expect(gridText(ticks.rows, ticks.columns, [[0, 2], []])).toBe(
      'Red: Flag of Italy, Flag of France; Green: —',
    );
  });
});

describe('marking a grid', () => {
  test('a keyed grid earns points_per_item per row answered exactly right', () => {
    expect(gridMaxPoints(keyed)).toBe(6);
    expect(gridPoints(keyed, [[0], [1], [2]])).toBe(6);
    expect(gridPoints(keyed, [[0], [2], []])).toBe(2);
    // A checkbox row counts only with all its right columns and no other.
    expect(gridMaxPoints(ticks)).toBe(2);
    expect(gridPoints(ticks, [[0, 1, 2], [0]])).toBe(2);
    expect(
      gridPoints(ticks, [
        [0, 1],
        [0, 2],
      ]),
    ).toBe(0);
    expect(gridPoints(ticks, [[0, 1, 2], [2]])).toBe(1);
  });

  test('a survey grid earns nothing and can earn nothing', () => {
    expect(gridMaxPoints(survey)).toBe(0);
    expect(gridPoints(survey, [[0], [1], [2]])).toBe(0);
  });

  test('an answer of another shape earns nothing', () => {
    expect(gridPoints(keyed, [[0], [1]])).toBe(0);
  });
});

describe("a grid's figures from the counts by cells", () => {
  // Three answers [[0],[1],[2]] (all right), one [[0],[0],[]] (row 1 right), one [[1],[1],[2]].
  const counts = new Map([
    [gridStatKey([[0], [1], [2]]), 3],
    [gridStatKey([[0], [0], []]), 1],
    [gridStatKey([[1], [1], [2]]), 1],
    ['right', 4], // another type's key is not the grid's
  ]);

  test('count each column per row and give each row its right share, and the answers wholly right', () => {
    expect(gridFigures(keyed, counts)).toEqual({
      right_count: 3,
      rows: [
        // Paris: France 3 + 1, Italy 1; right 4 of 5.
        { row: 'Paris', counts: [4, 1, 0], right_share: 0.8 },
        // Rome: France 1, Italy 3 + 1; right 4 of 5.
        { row: 'Rome', counts: [1, 4, 0], right_share: 0.8 },
        // Lima: left empty once, Peru 4; right 4 of 5.
        { row: 'Lima', counts: [0, 0, 4], right_share: 0.8 },
      ],
    });
  });

  test('a survey grid has its counts per column and no right share', () => {
    const figures = gridFigures(survey, counts);
    expect(figures.right_count).toBeNull();
    expect(figures.rows.map((row) => row.counts)).toEqual([
      [4, 1, 0],
      [1, 4, 0],
      [0, 0, 4],
    ]);
    expect(figures.rows.every((row) => row.right_share === null)).toBe(true);
  });

  test('a checkbox grid counts each ticked column of a row', () => {
    const ticked = new Map([
      [gridStatKey([[0, 1, 2], [0]]), 2],
      [gridStatKey([[0], []]), 1],
    ]);
    expect(gridFigures(ticks, ticked)).toEqual({
      right_count: 2,
      rows: [
        { row: 'Red', counts: [3, 2, 2], right_share: 2 / 3 },
        { row: 'Green', counts: [2, 0, 0], right_share: 2 / 3 },
      ],
    });
  });

  test('no answers give no share', () => {
    expect(gridFigures(keyed, new Map()).rows[0]).toEqual({
      row: 'Paris',
      counts: [0, 0, 0],
      right_share: null,
    });
  });
});
