import type { ViewFace } from '../../../mcp/apps/view/face/view-face';

/** What the face reads: of the question, and of its statistics. */
interface Preview {
  blanks: ReadonlyArray<{
    points: number;
    options?: readonly string[] | null;
    correct_option?: number | null;
    accepted_answers?: readonly string[] | null;
  }>;
}
interface Result {
  answered_count: number;
  blanks: ReadonlyArray<{ blank: number; right_share: number | null }>;
}

/** A fill-in-the-blanks question in the in-chat view: each blank's right answer, then how many got it. */
export const face: ViewFace<'fill_in_blanks', Preview, Result> = {
  type: 'fill_in_blanks',
  key: (question) => [
    { note: 'Fill in the blanks · each blank scores its points' },
    {
      list: question.blanks.map((blank) => {
        const right = blank.options
          ? `${blank.options[blank.correct_option ?? 0] ?? ''} (choice of ${blank.options.length})`
          : (blank.accepted_answers ?? []).join(' / ');
        return { text: `${right} · ${blank.points}` };
      }),
      ordered: true,
    },
  ],
  bars: (question) =>
    question.blanks.map((blank) => ({
      label: `Blank ${blank.blank}`,
      count: Math.round((blank.right_share ?? 0) * question.answered_count),
      best: true,
    })),
};
