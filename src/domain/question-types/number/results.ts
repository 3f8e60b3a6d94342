import { withinTolerance } from '../../answer-text';
import { formatNumber } from '../../../web/page-shell';
import { countRow, keyRow, pts, rightNote, type ResultsFace } from '../../../dashboard/question-results-face';

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'number'> = {
  type: 'number',
  name: 'Number',
  breakdown(question, stat, answered, _rich) {
    // The most common values, in numeric order: the spread around the right one at a glance.
    const common = [...(stat?.type === 'number' ? stat.common_values : [])].sort((a, b) => a.value - b.value);
    const earns = (value: number) =>
      withinTolerance(value, question.correct_number, question.tolerance) ? question.points : 0;
    return {
      counted: 'Given',
      note: rightNote(stat?.type === 'number' ? stat.right_count : null, answered),
      bars: common.map((entry) => ({
        label: formatNumber(entry.value),
        count: entry.count,
        kind: earns(entry.value) > 0 ? 'best' : 'plain',
      })),
      rows: common.map((entry) =>
        countRow(formatNumber(entry.value), `${earns(entry.value)} pts`, entry.count, answered),
      ),
    };
  },
  answerKey(question, _rich) {
    return keyRow(
      'Right number',
      `${formatNumber(question.correct_number)}${
        question.tolerance > 0 ? `, give or take ${formatNumber(question.tolerance)}` : ''
      } (${pts(question.points)})`,
    );
  },
};
