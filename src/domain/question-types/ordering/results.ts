import { html } from '../../../web/html';
import { richText } from '../../../web/rich-text';
import { countRow, keyRow, pts, rightNote, type ResultsFace } from '../../../dashboard/question-results-face';

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'ordering'> = {
  type: 'ordering',
  name: 'Put in order',
  breakdown(question, stat, answered, rich) {
    // Per position: how many put the right item there; the most common wrong item beside it.
    const positions = stat?.type === 'ordering' ? stat.positions : [];
    return {
      counted: 'Right there',
      note: rightNote(stat?.type === 'ordering' ? stat.right_count : null, answered)?.replace(
        'Most common answers:',
        'Per position:',
      ),
      bars: positions.map((position) => ({
        label: `${position.position}. ${position.right_item}`,
        count: Math.round((position.right_share ?? 0) * answered),
        kind: 'best',
      })),
      rows: positions.map((position) =>
        countRow(
          html`${position.position}. ${richText(position.right_item, rich)}`,
          position.common_wrong_item
            ? `most often wrong: ${position.common_wrong_item} (${position.common_wrong_count})`
            : '',
          Math.round((position.right_share ?? 0) * answered),
          answered,
        ),
      ),
    };
  },
  answerKey(question, rich) {
    return keyRow(
      'Right order',
      html`<ol class="key-options">
          ${question.items.map((item) => html`<li><bdi>${richText(item.label, rich)}</bdi></li>`)}
        </ol>
        ${
          question.points_per_item === null
            ? `${pts(question.points)} for the whole order`
            : `${pts(question.points_per_item)} per item in its place`
        }`,
    );
  },
};
