import type { ViewFace } from '../../../mcp/apps/view/face/view-face';

/** What the face reads: of the question, and of its statistics. */
interface Preview {
  correct_number: number;
  tolerance: number;
  points: number;
}
interface Result {
  common_values: ReadonlyArray<{ value: number; count: number }>;
}

/** A number question in the in-chat view: the right number and its tolerance, then the values given. */
export const face: ViewFace<'number', Preview, Result> = {
  type: 'number',
  key: (question) => {
    const within = question.tolerance > 0 ? ` ± ${question.tolerance}` : '';
    return [{ note: `Number · ${question.correct_number}${within} scores ${question.points}` }];
  },
  bars: (question) =>
    [...question.common_values]
      .sort((a, b) => a.value - b.value)
      .map((entry) => ({ label: String(entry.value), count: entry.count, best: false })),
};
