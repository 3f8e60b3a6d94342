import { countRow, keyRow, pts, type ResultsFace } from '../../../dashboard/question-results-face';

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'yes_no'> = {
  type: 'yes_no',
  name: 'Yes / no',
  breakdown(question, stat, answered, _rich) {
    const yes = stat?.type === 'yes_no' ? stat.yes_count : 0;
    const no = stat?.type === 'yes_no' ? stat.no_count : 0;
    // A yes/no question's points go to its answer key; the other answer earns 0.
    const earns = (answer: 'yes' | 'no') => (question.correct_answer === answer ? question.points : 0);
    return {
      counted: 'Chosen',
      bars: [
        { label: 'Yes', count: yes, kind: earns('yes') > 0 ? 'best' : 'plain' },
        { label: 'No', count: no, kind: earns('no') > 0 ? 'best' : 'plain' },
      ],
      rows: [
        countRow('Yes', `${earns('yes')} pts`, yes, answered),
        countRow('No', `${earns('no')} pts`, no, answered),
      ],
    };
  },
  answerKey(question, _rich) {
    return keyRow(
      'Right answer',
      `${question.correct_answer === 'no' ? 'No' : 'Yes'}, ${pts(question.points)}`,
    );
  },
};
