import { formatNumber } from '../../../web/page-shell';
import { countRow, keyRow, pts, rightNote, type ResultsFace } from '../../../dashboard/question-results-face';

interface Variable {
  name: string;
  min: number;
  max: number;
  unit?: string;
}

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'calculated'> = {
  type: 'calculated',
  name: 'Own numbers per attempt',
  breakdown(_question, stat, answered) {
    // Each respondent had their own numbers: the values given show no key, only the count right.
    const common = [...(stat?.type === 'calculated' ? stat.common_values : [])].sort(
      (a, b) => a.value - b.value,
    );
    return {
      counted: 'Given',
      note: rightNote(stat?.type === 'calculated' ? stat.right_count : null, answered),
      bars: common.map((entry) => ({ label: formatNumber(entry.value), count: entry.count, kind: 'plain' })),
      rows: common.map((entry) => countRow(formatNumber(entry.value), '', entry.count, answered)),
    };
  },
  answerKey(question) {
    const over = (question.variables as Variable[])
      .map(
        (variable) =>
          `${variable.name} from ${formatNumber(variable.min)} to ${formatNumber(variable.max)}${variable.unit ? ` ${variable.unit}` : ''}`,
      )
      .join(', ');
    const within =
      question.tolerance > 0
        ? `, give or take ${formatNumber(question.tolerance)}${question.tolerance_type === 'relative' ? ' of the answer' : ''}`
        : '';
    return keyRow('Formula', `${question.formula} over ${over}${within} (${pts(question.points)})`);
  },
};
