// The score histogram's bins: one per score when few, at most about a dozen ranges when many,
// and never one that mixes passed and not passed scores.
import { binLabel, scoreBins } from '../../src/dashboard/charts';

test('few scores: one bin each, split at the pass mark', () => {
  const bins = scoreBins([{ score: 2, count: 3 }], { min: 0, max: 4, passScore: 2.4 });
  expect(bins.map(binLabel)).toEqual(['0', '1', '2', '3', '4']);
  expect(bins.map((bin) => bin.passed)).toEqual([false, false, false, true, true]);
  expect(bins.map((bin) => bin.count)).toEqual([0, 0, 3, 0, 0]);
});

test('many scores: ranges that cover every score once, none across the pass mark', () => {
  const counts = Array.from({ length: 101 }, (_, score) => ({ score, count: 1 }));
  const bins = scoreBins(counts, { min: 0, max: 100, passScore: 55 });
  expect(bins.length).toBeLessThanOrEqual(13);
  expect(bins.reduce((sum, bin) => sum + bin.count, 0)).toBe(101);
  for (const [index, bin] of bins.entries()) {
    if (index > 0) expect(bin.from).toBe(bins[index - 1]!.to + 1);
    expect(bin.passed).toBe(bin.from >= 55);
    expect(bin.to < 55 || bin.from >= 55).toBe(true);
  }
  expect(bins[0]!.from).toBe(0);
  expect(bins.at(-1)!.to).toBe(100);
});

test('negative scores widen the range; no pass mark means no verdict', () => {
  const bins = scoreBins(
    [
      { score: -2, count: 1 },
      { score: 3, count: 2 },
    ],
    { min: 0, max: 3, passScore: null },
  );
  expect(bins.map(binLabel)).toEqual(['-2', '-1', '0', '1', '2', '3']);
  expect(bins.every((bin) => bin.passed === null)).toBe(true);
});
