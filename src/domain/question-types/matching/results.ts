import { html } from '../../../web/html';
import { countRow, keyRow, pts, rightNote, type ResultsFace } from '../../../dashboard/question-results-face';

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'matching'> = {
  type: 'matching',
  name: 'Matching',
  breakdown(question, stat, answered, _rich) {
    // Per pair: how many matched the prompt right; the most common wrong match beside it.
    const pairs = stat?.type === 'matching' ? stat.pairs : [];
    return {
      counted: 'Matched right',
      note: rightNote(stat?.type === 'matching' ? stat.right_count : null, answered)?.replace(
        'Most common answers:',
        'Per pair:',
      ),
      bars: pairs.map((pair) => ({
        label: `${pair.prompt} → ${pair.right_match}`,
        count: Math.round((pair.right_share ?? 0) * answered),
        kind: 'best',
      })),
      rows: pairs.map((pair) =>
        countRow(
          `${pair.prompt} → ${pair.right_match}`,
          pair.common_wrong_match
            ? `most often wrong: ${pair.common_wrong_match} (${pair.common_wrong_count})`
            : '',
          Math.round((pair.right_share ?? 0) * answered),
          answered,
        ),
      ),
    };
  },
  answerKey(question, _rich) {
    return keyRow(
      'Right pairs',
      html`<ul class="key-options">
          ${question.pairs.map((pair) => html`<li><bdi>${pair.prompt}</bdi> → <bdi>${pair.match}</bdi></li>`)}
        </ul>
        ${
          question.extra_matches.length > 0
            ? html`Also offered:
              ${question.extra_matches.map(
                (extra, index) => html`${index > 0 ? ', ' : ''}<bdi>${extra.label}</bdi>`,
              )}. `
            : ''
        }${pts(question.points_per_pair)}
        per pair`,
    );
  },
};
