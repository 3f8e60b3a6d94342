import type { ViewFace } from '../../../mcp/apps/view/face/view-face';

/** What the face reads: of the question, and of its statistics. */
interface Preview {
  points: number;
  rubric: ReadonlyArray<{ criterion: string; levels: ReadonlyArray<{ label: string; points: number }> }>;
}
interface Result {
  right_count: number | null;
}

/** An essay in the in-chat view: its rubric and the most it can earn, then how many were graded above 0. */
export const face: ViewFace<'essay', Preview, Result> = {
  type: 'essay',
  key: (question) => {
    const top = question.rubric.reduce(
      (sum, criterion) => sum + Math.max(0, ...criterion.levels.map((level) => level.points)),
      0,
    );
    return [
      { note: `Essay · graded by hand · up to ${question.rubric.length > 0 ? top : question.points}` },
      {
        list: question.rubric.map((criterion) => ({
          text: `${criterion.criterion}: ${criterion.levels.map((level) => `${level.label} ${level.points}`).join(' · ')}`,
        })),
      },
    ];
  },
  // Graded by hand: how many were graded above 0.
  bars: (question) => [{ label: 'Graded above 0', count: question.right_count ?? 0, best: true }],
};
