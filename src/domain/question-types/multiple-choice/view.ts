import type { ViewFace } from '../../../mcp/apps/view/face/view-face';

interface Option {
  label: string;
  score: number;
}
/** What the face reads: of the question, and of its statistics. */
interface Preview {
  options: readonly Option[];
}
interface Result {
  options: ReadonlyArray<Option & { count: number }>;
}

/** A multiple-choice question in the in-chat view: its options with their scores; the top one is best. */
export const face: ViewFace<'multiple_choice', Preview, Result> = {
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
