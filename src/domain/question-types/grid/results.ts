import { html } from '../../../web/html';
import { formatNumber } from '../../../web/page-shell';
import { countRow, keyRow, pts, rightNote, type ResultsFace } from '../../../dashboard/question-results-face';

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'grid'> = {
  type: 'grid',
  name: 'Grid',
  breakdown(question, stat, answered) {
    // Per row and column, how many chose it; a keyed row's right share in its label.
    const figures = stat?.type === 'grid' ? stat : null;
    const cells = (figures?.rows ?? []).flatMap((row) =>
      row.counts.map((count, column) => ({ row, column, count })),
    );
    return {
      counted: 'Chosen',
      note: rightNote(figures?.right_count ?? null, answered)?.replace(
        'Most common answers:',
        'Per row and column:',
      ),
      bars: cells.map(({ row, column, count }) => ({
        label: `${row.row}: ${question.columns[column] ?? ''}`,
        count,
        kind: 'plain',
      })),
      rows: cells.map(({ row, column, count }) =>
        countRow(
          `${row.row}: ${question.columns[column] ?? ''}`,
          column === 0 && row.right_share !== null
            ? `row right: ${formatNumber(Math.round(row.right_share * 100))}%`
            : '',
          count,
          answered,
        ),
      ),
    };
  },
  answerKey(question) {
    return keyRow(
      question.right_columns ? 'Right columns' : 'Grid',
      question.right_columns
        ? html`<ul class="key-options">
              ${question.items.map(
                (item, index) =>
                  html`<li>
                    <bdi>${item.label}</bdi>:
                    ${(question.right_columns?.[index] ?? []).map(
                      (column, at) => html`${at > 0 ? ', ' : ''}<bdi>${question.columns[column] ?? ''}</bdi>`,
                    )}
                  </li>`,
              )}
            </ul>
            ${pts(question.points_per_item)} per row`
        : html`${question.items.length} rows by ${question.columns.length} columns; a survey, not scored`,
    );
  },
};
