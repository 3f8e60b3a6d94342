import type { ViewFace } from '../../../mcp/apps/view/face/view-face';

/** What the face reads: of the question, and of its statistics. */
interface Preview {
  correct_answer?: string;
  points?: number;
}
interface Result {
  yes_count: number;
  no_count: number;
  correct_answer: string;
}

/** A yes/no question in the in-chat view: the scoring answer, then the two answers' bars. */
export const face: ViewFace<'yes_no', Preview, Result> = {
  type: 'yes_no',
  key: (question) => {
    const key = question.correct_answer === 'no' ? 'No' : 'Yes';
    return [{ note: `Yes / No · “${key}” scores ${question.points ?? 0}` }];
  },
  bars: (question) => [
    { label: 'Yes', count: question.yes_count, best: question.correct_answer !== 'no' },
    { label: 'No', count: question.no_count, best: question.correct_answer === 'no' },
  ],
};
