import { matchesAcceptedAnswer } from '../../answer-text';
import { html } from '../../../web/html';
import { countRow, keyRow, pts, rightNote, type ResultsFace } from '../../../dashboard/question-results-face';

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'short_text'> = {
  type: 'short_text',
  name: 'Typed answer',
  breakdown(question, stat, answered, _rich) {
    const common = stat?.type === 'short_text' ? stat.common_answers : [];
    const accepted = question.accepted_answers;
    const earns = (answer: string) =>
      accepted.length > 0 && matchesAcceptedAnswer(answer, accepted) ? question.points : 0;
    return {
      counted: 'Given',
      note: rightNote(stat?.type === 'short_text' ? stat.right_count : null, answered),
      bars: common.map((entry) => ({
        label: entry.answer,
        count: entry.count,
        kind: earns(entry.answer) > 0 ? 'best' : 'plain',
      })),
      rows: common.map((entry) =>
        countRow(entry.answer, `${earns(entry.answer)} pts`, entry.count, answered),
      ),
    };
  },
  answerKey(question, _rich) {
    return question.accepted_answers.length === 0
      ? keyRow('Accepted answers', 'None: the answers are collected, not scored')
      : keyRow(
          'Accepted answers',
          html`${question.accepted_answers.map(
            (answer, index) => html`${index > 0 ? ', ' : ''}<bdi>${answer}</bdi>`,
          )}
          (${pts(question.points)})`,
        );
  },
};
