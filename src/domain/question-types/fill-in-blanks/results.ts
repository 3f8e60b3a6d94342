import { html } from '../../../web/html';
import { countRow, keyRow, pts, type ResultsFace } from '../../../dashboard/question-results-face';

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'fill_in_blanks'> = {
  type: 'fill_in_blanks',
  name: 'Fill in the blanks',
  breakdown(question, stat, answered, _rich) {
    // Per blank: how many got it right; the most common wrong answer beside it.
    const blanks = stat?.type === 'fill_in_blanks' ? stat.blanks : [];
    const label = (blank: number) => `Blank ${blank}`;
    return {
      counted: 'Right',
      bars: blanks.map((blank) => ({
        label: label(blank.blank),
        count: Math.round((blank.right_share ?? 0) * answered),
        kind: 'best',
      })),
      rows: blanks.map((blank) =>
        countRow(
          label(blank.blank),
          blank.common_wrong_answer
            ? `most often wrong: ${blank.common_wrong_answer} (${blank.common_wrong_count})`
            : '',
          Math.round((blank.right_share ?? 0) * answered),
          answered,
        ),
      ),
    };
  },
  answerKey(question, _rich) {
    return keyRow(
      'Blanks',
      html`<ol class="key-options">
        ${question.blanks.map(
          (blank) =>
            html`<li>
              <bdi
                >${blank.options ? (blank.options[blank.correct_option ?? 0] ?? '') : (blank.accepted_answers ?? []).join(', ')}</bdi
              >${blank.options ? ` (from ${blank.options.length} options)` : ''}: ${pts(blank.points)}
            </li>`,
        )}
      </ol>`,
    );
  },
};
