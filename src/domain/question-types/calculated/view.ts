import type { ViewFace } from '../../../mcp/apps/view/face/view-face';

/** What the face reads: of the question, and of its statistics. */
interface Preview {
  formula: string;
  tolerance: number;
  tolerance_type: string;
  points: number;
}
interface Result {
  common_values: ReadonlyArray<{ value: number; count: number }>;
}

/** A calculated question in the in-chat view: its formula and tolerance, then the values given. */
export const face: ViewFace<'calculated', Preview, Result> = {
  type: 'calculated',
  key: (question) => {
    const within =
      question.tolerance > 0
        ? ` ± ${question.tolerance}${question.tolerance_type === 'relative' ? ' (relative)' : ''}`
        : '';
    return [{ note: `Own numbers · ${question.formula}${within} scores ${question.points}` }];
  },
  bars: (question) =>
    [...question.common_values]
      .sort((a, b) => a.value - b.value)
      .map((entry) => ({ label: String(entry.value), count: entry.count, best: false })),
};
