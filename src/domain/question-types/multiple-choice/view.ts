import type { ViewFace } from '../../../mcp/apps/view/view-types';

/** A multiple-choice question in the in-chat view: its options with their scores; the top one is best. */
export const multipleChoiceView: ViewFace<'multiple_choice'> = {
  type: 'multiple_choice',
  key: (question) => [
    { list: question.options.map((option) => ({ owned: option.label, text: ` · ${option.score} pts` })) },
  ],
  bars: (question) => {
    const top = Math.max(...question.options.map((option) => option.score));
    return question.options.map((option) => ({
      label: option.label,
      count: option.count,
      best: option.score > 0 && option.score === top,
      owned: true,
    }));
  },
};
