// Item analysis from running sums, held to a data set worked out by hand and to a second,
// independent implementation written here the plain way (arrays, two passes), on edge cases:
// one response, all equal scores, zero variance, a question worth nothing.
import { discrimination, facility, reliability, sumsOf } from '../../src/domain/reporting/item-analysis';

/** The plain way: population moments straight from the columns. */
function reference(rows: number[][], maxima: number[]) {
  const n = rows.length;
  const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
  const pvar = (values: number[]) => {
    const m = mean(values);
    return mean(values.map((v) => (v - m) ** 2));
  };
  const totals = rows.map((row) => row.reduce((a, b) => a + b, 0));
  const columns = maxima.map((_, i) => rows.map((row) => row[i]!));
  const r = (a: number[], b: number[]) => {
    const ma = mean(a);
    const mb = mean(b);
    const cov = mean(a.map((v, i) => (v - ma) * (b[i]! - mb)));
    const denominator = Math.sqrt(pvar(a) * pvar(b));
    return denominator === 0 ? null : cov / denominator;
  };
  return {
    facility: columns.map((col, i) => (maxima[i]! > 0 ? mean(col) / maxima[i]! : null)),
    discrimination: columns.map((col) =>
      n < 2
        ? null
        : r(
            col,
            totals.map((t, j) => t - col[j]!),
          ),
    ),
    alpha:
      n < 2 || pvar(totals) === 0
        ? null
        : (maxima.length / (maxima.length - 1)) *
          (1 - columns.reduce((s, c) => s + pvar(c), 0) / pvar(totals)),
  };
}

function analyse(rows: number[][], maxima: number[]) {
  const { items, totals } = sumsOf(rows, maxima);
  return {
    facility: items.map(facility),
    discrimination: items.map((item) => discrimination(item, totals)),
    alpha: reliability(items, totals),
  };
}

test('a data set worked out by hand: facility, discrimination, KR-20', () => {
  // Four respondents, three right/wrong questions: a perfect Guttman pattern.
  const rows = [
    [1, 1, 1],
    [1, 1, 0],
    [1, 0, 0],
    [0, 0, 0],
  ];
  const result = analyse(rows, [1, 1, 1]);
  expect(result.facility).toEqual([0.75, 0.5, 0.25]);
  // Question 1 against the rest: cov 0.1875, var 0.1875 and 0.6875 -> r = 0.5222.
  expect(result.discrimination[0]).toBeCloseTo(0.5222, 4);
  // KR-20: 3/2 x (1 - (0.1875 + 0.25 + 0.1875) / 1.25) = 0.75.
  expect(result.alpha).toBeCloseTo(0.75, 10);
});

test('a larger mixed data set agrees with the plain implementation to 1e-9', () => {
  const maxima = [1, 2, 3, 0, 2];
  const rows = Array.from({ length: 57 }, (_, n) =>
    maxima.map((max, i) => (max === 0 ? 0 : ((n * (i + 3) + i * i) % (max + 2)) - (i === 2 ? 1 : 0))),
  );
  const ours = analyse(rows, maxima);
  const theirs = reference(rows, maxima);
  ours.facility.forEach((value, i) => {
    if (theirs.facility[i] === null) expect(value).toBeNull();
    else expect(value).toBeCloseTo(theirs.facility[i]!, 9);
  });
  ours.discrimination.forEach((value, i) => {
    if (theirs.discrimination[i] === null) expect(value).toBeNull();
    else expect(value).toBeCloseTo(theirs.discrimination[i]!, 9);
  });
  expect(ours.alpha).toBeCloseTo(theirs.alpha!, 9);
});

test('edge cases: one response, all scores equal, a question worth nothing', () => {
  expect(analyse([[1, 0]], [1, 1])).toEqual({ facility: [1, 0], discrimination: [null, null], alpha: null });
  const equal = analyse(
    [
      [1, 1],
      [1, 1],
      [1, 1],
    ],
    [1, 1],
  );
  expect(equal).toEqual({ facility: [1, 1], discrimination: [null, null], alpha: null });
  const worthless = analyse(
    [
      [0, 1],
      [0, 0],
    ],
    [0, 1],
  );
  expect(worthless.facility).toEqual([null, 0.5]);
  expect(worthless.discrimination[0]).toBeNull();
  expect(facility({ n: 0, sumX: 0, sumX2: 0, sumXT: 0, max: 2 })).toBeNull();
});
