/**
 * Item analysis from running sums, so that the sums can be kept per question as responses
 * arrive and the figures read in constant time at any count, without a pass over every response.
 *
 * For a question with maximum `max`, over the `n` responses that answered it, where x is the
 * question's points and T the response's total score:
 * - facility: the mean share of the maximum earned, mean(x) / max (null when max is 0);
 * - discrimination: the corrected item-total correlation, Pearson's r between x and T - x
 *   (the rest of the test), so that the question does not correlate with itself;
 * and for the quiz, reliability as Cronbach's alpha over the questions' points, which equals
 * KR-20 when every question is marked right or wrong. Population moments throughout (divided by
 * n), as KR-20 defines them; a figure that needs a variance is null when it is 0 or n < 2.
 */
export interface ItemSums {
  /** Responses that were shown the question. */
  n: number;
  /** Σx, Σx², and Σx·T with T the response's total. */
  sumX: number;
  sumX2: number;
  sumXT: number;
  /** The question's maximum points. */
  max: number;
}

export interface TotalSums {
  n: number;
  /** ΣT and ΣT² over the responses. */
  sumT: number;
  sumT2: number;
}

const variance = (n: number, sum: number, sumSquares: number) => sumSquares / n - (sum / n) ** 2;
/** Rounding noise of a variance that is 0 in exact arithmetic. */
const ZERO = 1e-12;

export function facility(item: ItemSums): number | null {
  if (item.n === 0 || item.max <= 0) return null;
  return item.sumX / item.n / item.max;
}

export function discrimination(item: ItemSums, totals: TotalSums): number | null {
  const { n } = item;
  if (n < 2 || totals.n !== n) return null;
  const meanX = item.sumX / n;
  const meanRest = (totals.sumT - item.sumX) / n;
  const covariance = (item.sumXT - item.sumX2) / n - meanX * meanRest;
  const varX = variance(n, item.sumX, item.sumX2);
  const varRest = (totals.sumT2 - 2 * item.sumXT + item.sumX2) / n - meanRest ** 2;
  if (varX <= ZERO || varRest <= ZERO) return null;
  return covariance / Math.sqrt(varX * varRest);
}

export function reliability(items: readonly ItemSums[], totals: TotalSums): number | null {
  const k = items.length;
  const { n } = totals;
  if (k < 2 || n < 2 || items.some((item) => item.n !== n)) return null;
  const varT = variance(n, totals.sumT, totals.sumT2);
  if (varT <= ZERO) return null;
  const sumVarItems = items.reduce((sum, item) => sum + variance(n, item.sumX, item.sumX2), 0);
  return (k / (k - 1)) * (1 - sumVarItems / varT);
}

/** The sums of a data set given whole: one row of question points per response. */
export function sumsOf(rows: ReadonlyArray<readonly number[]>, maxima: readonly number[]) {
  const totals: TotalSums = { n: rows.length, sumT: 0, sumT2: 0 };
  const items: ItemSums[] = maxima.map((max) => ({ n: rows.length, sumX: 0, sumX2: 0, sumXT: 0, max }));
  for (const row of rows) {
    const total = row.reduce((sum, x) => sum + x, 0);
    totals.sumT += total;
    totals.sumT2 += total * total;
    row.forEach((x, index) => {
      const item = items[index]!;
      item.sumX += x;
      item.sumX2 += x * x;
      item.sumXT += x * total;
    });
  }
  return { items, totals };
}
