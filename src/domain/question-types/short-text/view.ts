import type { ViewFace } from '../../../mcp/apps/view/face/view-face';

/** What the face reads: of the question, and of its statistics. */
interface Preview {
  accepted_answers: readonly string[];
  points: number;
}
interface Result {
  common_answers: ReadonlyArray<{ answer: string; count: number }>;
}

/** A typed answer in the in-chat view: the accepted answers, then the answers given most. */
export const face: ViewFace<'short_text', Preview, Result> = {
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
