import type { ViewFace } from '../../../mcp/apps/view/view-types';

/** An ordering question in the in-chat view: the right order, then per position how many put it right. */
export const orderingView: ViewFace<'ordering'> = {
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
