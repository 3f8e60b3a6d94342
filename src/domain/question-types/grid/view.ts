import type { ViewFace } from '../../../mcp/apps/view/face/view-face';

/** What the face reads: of the question, and of its statistics. */
interface Preview {
  items: ReadonlyArray<{ label: string }>;
  columns: readonly string[];
  checkboxes: boolean;
  right_columns?: ReadonlyArray<readonly number[]> | undefined;
  points_per_item: number;
}
interface Result {
  rows: ReadonlyArray<{ row: string; counts: readonly number[] }>;
}

/** A grid in the in-chat view: its columns and each row's right ones, then per row and column how many chose it. */
export const face: ViewFace<'grid', Preview, Result> = {
  type: 'grid',
  key: (question) => {
    const kind = question.checkboxes ? 'any per row' : 'one per row';
    const marked = question.right_columns
      ? `${question.points_per_item} per row right`
      : 'a survey, unscored';
    return [
      { note: `Grid · ${question.columns.join(' / ')} · ${kind} · ${marked}` },
      {
        list: question.items.map((item, index) => {
          const right = (question.right_columns?.[index] ?? []).map(
            (column) => question.columns[column] ?? '',
          );
          return { text: right.length ? `${item.label}: ${right.join(', ')}` : item.label };
        }),
      },
    ];
  },
  bars: (question) =>
    question.rows.flatMap((row) =>
      row.counts.map((count, column) => ({ label: `${row.row}: ${column + 1}`, count, best: false })),
    ),
};
