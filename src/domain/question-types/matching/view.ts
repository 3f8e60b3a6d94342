import type { ViewFace } from '../../../mcp/apps/view/face/view-face';

/** What the face reads: of the question, and of its statistics. */
interface Preview {
  points_per_pair: number;
  pairs: ReadonlyArray<{ prompt: string; match: string }>;
  extra_matches: ReadonlyArray<{ label: string }>;
}
interface Result {
  answered_count: number;
  pairs: ReadonlyArray<{ prompt: string; right_match: string; right_share: number | null }>;
}

/** A matching question in the in-chat view: its pairs and extra matches, then per pair how many matched it. */
export const face: ViewFace<'matching', Preview, Result> = {
  type: 'matching',
  key: (question) => {
    const extras = question.extra_matches.map((extra) => extra.label);
    return [
      {
        note: `Matching · ${question.points_per_pair} per pair${extras.length ? ` · also offered: ${extras.join(', ')}` : ''}`,
      },
      { list: question.pairs.map((pair) => ({ text: `${pair.prompt} → ${pair.match}` })) },
    ];
  },
  bars: (question) =>
    question.pairs.map((pair) => ({
      label: `${pair.prompt} → ${pair.right_match}`,
      count: Math.round((pair.right_share ?? 0) * question.answered_count),
      best: true,
    })),
};
