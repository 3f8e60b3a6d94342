import type { ViewFace } from '../../../mcp/apps/view/face/view-face';

/** What the face reads: of the question, and of its statistics. */
interface Preview {
  scale_min: number;
  scale_max: number;
  scale_labels: readonly string[];
}
interface Result {
  distribution: ReadonlyArray<{ value: number; count: number }>;
  mean: number | null;
  median: number | null;
  net_promoter: {
    score: number | null;
    promoters: number;
    passives: number;
    detractors: number;
  } | null;
}

const figure = (value: number | null) => (value === null ? '–' : String(Math.round(value * 10) / 10));

/** An opinion scale in the in-chat view: its ends, then its answers per value with their mean and median. */
export const face: ViewFace<'scale', Preview, Result> = {
  type: 'scale',
  key: (question) => {
    const [low, high] = question.scale_labels;
    const end = (value: number, words: string | undefined) => (words ? `${value} (${words})` : String(value));
    return [
      {
        note: `Opinion scale · ${end(question.scale_min, low)} to ${end(question.scale_max, high)} · unscored`,
      },
    ];
  },
  bars: (question) =>
    question.distribution.map((entry) => ({ label: String(entry.value), count: entry.count, best: false })),
  // From 0 to 10, its Net Promoter score with its counts too.
  figures: (question) => {
    const nps = question.net_promoter;
    const text = [`Mean ${figure(question.mean)}`, `median ${figure(question.median)}`];
    if (nps) {
      text.push(
        `Net Promoter score ${figure(nps.score)} (${nps.promoters} promoters, ${nps.passives} passives, ${nps.detractors} detractors)`,
      );
    }
    return text.join(' · ');
  },
};
