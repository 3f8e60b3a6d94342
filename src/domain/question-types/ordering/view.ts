import type { ViewFace } from '../../../mcp/apps/view/face/view-face';

/** What the face reads: of the question, and of its statistics. */
interface Preview {
  points: number;
  points_per_item: number | null;
  items: ReadonlyArray<{ label: string }>;
}
interface Result {
  answered_count: number;
  positions: ReadonlyArray<{ position: number; right_item: string; right_share: number | null }>;
}

/** An ordering question in the in-chat view: the right order, then per position how many put it right. */
export const face: ViewFace<'ordering', Preview, Result> = {
  type: 'ordering',
  key: (question) => {
    const per = question.points_per_item;
    return [
      {
        note: `Put in order · ${per === null ? `the whole order scores ${question.points}` : `${per} per item in place`}`,
      },
      { list: question.items.map((item) => ({ owned: item.label })), ordered: true },
    ];
  },
  bars: (question) =>
    question.positions.map((position) => ({
      label: `${position.position}. ${position.right_item}`,
      count: Math.round((position.right_share ?? 0) * question.answered_count),
      best: true,
    })),
};
