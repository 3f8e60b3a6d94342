import type { ViewFace } from '../../../mcp/apps/view/view-types';

/** A typed answer in the in-chat view: the accepted answers, then the answers given most. */
export const shortTextView: ViewFace<'short_text'> = {
  type: 'short_text',
  key: (question) => {
    const accepted = question.accepted_answers;
    return [
      {
        note: accepted.length
          ? `Typed answer · “${accepted.join('”, “')}” scores ${question.points}`
          : 'Typed answer · collects text, scores nothing',
      },
    ];
  },
  bars: (question) =>
    question.common_answers.map((entry) => ({ label: entry.answer, count: entry.count, best: false })),
};
