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

/** A tick-all question in the in-chat view: its options with their scores; every scoring one is best. */
export const face: ViewFace<'multiple_select', Preview, Result> = {
  type: 'multiple_select',
  key: (question) => [
    { note: 'Tick all that apply · ticked scores add up' },
    { list: question.options.map((option) => ({ owned: option.label, text: ` · ${option.score} pts` })) },
  ],
  bars: (question) =>
    question.options.map((option) => ({
      label: option.label,
      count: option.count,
      best: option.score > 0,
      owned: true,
    })),
};
