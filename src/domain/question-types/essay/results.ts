import { html } from '../../../web/html';
import { keyRow, pts, share, type ResultsFace } from '../../../dashboard/question-results-face';

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'essay'> = {
  type: 'essay',
  name: 'Essay',
  breakdown(question, stat, answered, _rich) {
    // Graded by hand: how many earned points so far; the answers are read in the grading queue.
    const right = stat?.type === 'essay' ? stat.right_count : null;
    return {
      counted: 'Graded above 0',
      note:
        right === null
          ? undefined
          : `${right} of ${answered} ${answered === 1 ? 'answer' : 'answers'} graded above 0${share(right, answered)}.`,
      bars: [],
      rows: [],
    };
  },
  answerKey(question, _rich) {
    return question.rubric.length === 0
      ? keyRow('Graded by hand', `up to ${pts(question.points)}`)
      : keyRow(
          'Rubric',
          html`<ul class="key-options">
            ${question.rubric.map(
              (criterion) =>
                html`<li>
                  <bdi>${criterion.criterion}</bdi>:
                  ${criterion.levels.map(
                    (level, index) =>
                      html`${index > 0 ? '; ' : ''}<bdi>${level.label}</bdi> ${pts(level.points)}`,
                  )}
                </li>`,
            )}
          </ul>`,
        );
  },
};
