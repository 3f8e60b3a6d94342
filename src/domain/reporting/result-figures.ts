import { PENDING_CODE, type QuizWithQuestions, type ResultRows } from '../../db/repositories';
import { isUnscored, storedDefinition, toScorable } from '../question-types';
import { percentOf } from '../scoring';
import { discrimination, facility, reliability, type ItemSums, type TotalSums } from './item-analysis';

/**
 * Everything get_results, the results page and the view show as figures, computed from the
 * running figures the writes keep (db/response-writes.ts, decision 0016): a few rows per score and
 * per question, so the cost does not grow with the number of responses. Pure: the tests hold it
 * to references computed from the responses themselves.
 */

const round2 = (value: number | null): number | null =>
  value === null ? null : Math.round(value * 100) / 100;

/** The share of respondents in each of the top and bottom groups (Kelley's 27%). */
export const GROUP_SHARE = 0.27;
/** Fewer responses than this to a question, and it gets no flags: the figures would be noise. */
export const MIN_RESPONSES_FOR_FLAGS = 5;
export const FACILITY_HIGH = 0.9;
export const FACILITY_LOW = 0.2;
export const DISCRIMINATION_WEAK = 0.2;

export interface Totals {
  count: number;
  averageScore: number | null;
  averagePercent: number | null;
  highestScore: number | null;
  lowestScore: number | null;
  passed: number;
  failed: number;
  /** Responses waiting for a person's grade. */
  pending: number;
}

export function totalsOf(rows: ResultRows): Totals {
  let count = 0;
  let sum = 0;
  let percentCount = 0;
  let percentSum = 0;
  let passed = 0;
  let failed = 0;
  let pending = 0;
  let highest: number | null = null;
  let lowest: number | null = null;
  for (const row of rows.scores) {
    if (row.count <= 0) continue;
    count += row.count;
    sum += row.score * row.count;
    const percent = percentOf(row.score, row.maxScore);
    if (percent !== null) {
      percentCount += row.count;
      percentSum += percent * row.count;
    }
    if (row.passed === 1) passed += row.count;
    if (row.passed === 0) failed += row.count;
    if (row.passed === PENDING_CODE) pending += row.count;
    highest = highest === null ? row.score : Math.max(highest, row.score);
    lowest = lowest === null ? row.score : Math.min(lowest, row.score);
  }
  return {
    count,
    averageScore: count === 0 ? null : sum / count,
    averagePercent: percentCount === 0 ? null : percentSum / percentCount,
    highestScore: highest,
    lowestScore: lowest,
    passed,
    failed,
    pending,
  };
}

/**
 * How many responses got each score, lowest first, and how many of them wait for a person's
 * grade (their score so far), so a chart does not show those as not passed.
 */
export function scoreCountsOf(rows: ResultRows): Array<{ score: number; count: number; pending: number }> {
  const counts = new Map<number, { count: number; pending: number }>();
  for (const row of rows.scores) {
    const entry = counts.get(row.score) ?? { count: 0, pending: 0 };
    counts.set(row.score, entry);
    entry.count += row.count;
    if (row.passed === PENDING_CODE) entry.pending += row.count;
  }
  return [...counts.entries()]
    .filter(([, entry]) => entry.count > 0)
    .sort(([a], [b]) => a - b)
    .map(([score, entry]) => ({ score, ...entry }));
}

export interface PercentBucket {
  /** The bucket's lower bound; it runs to the next one (the last includes 100). */
  from_percent: number;
  count: number;
}

/** Responses per tenth of the percent scale: [0, 10), [10, 20) ... [90, 100]. */
export function scoreDistributionOf(rows: ResultRows): PercentBucket[] {
  const buckets = Array.from({ length: 10 }, (_, i) => ({
    from_percent: i * 10,
    count: 0,
  }));
  for (const row of rows.scores) {
    const percent = percentOf(row.score, row.maxScore);
    if (percent === null) continue;
    const index = Math.min(9, Math.max(0, Math.floor(percent / 10)));
    buckets[index]!.count += row.count;
  }
  return buckets;
}

type ItemRow = ResultRows['items'][number];

/** The option keys one stored answer key counts for (a list of ticked options counts for each). */
function keysChosen(choiceKey: string): string[] {
  if (choiceKey.startsWith('[')) {
    try {
      const ticked = JSON.parse(choiceKey) as unknown;
      return Array.isArray(ticked) ? ticked.map((index) => String(index)) : [];
    } catch {
      return [];
    }
  }
  return [choiceKey];
}

/**
 * Each key's share among the top and bottom 27% by percent. Responses are ranked by percent
 * bucket (one percent point wide); the bucket that straddles the 27% line counts in proportion.
 */
function groupShares(rows: readonly ItemRow[], keys: readonly string[]) {
  const perBucket = new Map<number, { count: number; keys: Map<string, number> }>();
  for (const row of rows) {
    if (row.bucket < 0) continue; // no percent, no rank
    const bucket = perBucket.get(row.bucket) ?? { count: 0, keys: new Map<string, number>() };
    perBucket.set(row.bucket, bucket);
    bucket.count += row.count;
    for (const key of keysChosen(row.choiceKey))
      bucket.keys.set(key, (bucket.keys.get(key) ?? 0) + row.count);
  }
  const ranked = [...perBucket.entries()].sort(([a], [b]) => b - a).map(([, bucket]) => bucket);
  const total = ranked.reduce((sum, bucket) => sum + bucket.count, 0);
  const size = GROUP_SHARE * total;
  if (size < 1) return null;
  const shares = (order: typeof ranked) => {
    const chosen = new Map<string, number>();
    let left = size;
    for (const bucket of order) {
      if (left <= 0) break;
      const weight = Math.min(1, left / bucket.count);
      left -= bucket.count * weight;
      for (const [key, count] of bucket.keys) chosen.set(key, (chosen.get(key) ?? 0) + count * weight);
    }
    return keys.map((key) => (chosen.get(key) ?? 0) / size);
  };
  return { top: shares(ranked), bottom: shares([...ranked].reverse()) };
}

export interface Flag {
  flag: 'too_easy' | 'too_hard' | 'negative_discrimination' | 'weak_discrimination' | 'wrong_option_favoured';
  reason: string;
}

export interface ItemFigures {
  /** Responses shown the question. */
  seen: number;
  answered: number;
  points: number;
  /** Count per answer key ('yes', 'no', option index). */
  counts: Map<string, number>;
  facility: number | null;
  discrimination: number | null;
  /** Shares aligned with the type's analysis keys (yes, no / each option), or null when the groups are too small. */
  topShares: number[] | null;
  bottomShares: number[] | null;
  flags: Flag[];
}

const fixed2 = (value: number) => (Math.round(value * 100) / 100).toFixed(2);

function flagsOf(
  question: QuizWithQuestions['questions'][number],
  figures: Omit<ItemFigures, 'flags'>,
): Flag[] {
  if (figures.seen < MIN_RESPONSES_FOR_FLAGS) return [];
  const flags: Flag[] = [];
  const { facility: f, discrimination: d } = figures;
  if (f !== null && f >= FACILITY_HIGH)
    flags.push({ flag: 'too_easy', reason: `Almost all earned it (facility ${fixed2(f)}).` });
  if (f !== null && f <= FACILITY_LOW)
    flags.push({ flag: 'too_hard', reason: `Few earned it (facility ${fixed2(f)}).` });
  if (d !== null && d < 0) {
    flags.push({
      flag: 'negative_discrimination',
      reason: `Weaker respondents did better (r ${fixed2(d)}): check the key.`,
    });
  } else if (d !== null && d < DISCRIMINATION_WEAK) {
    flags.push({
      flag: 'weak_discrimination',
      reason: `Barely tells strong from weak (r ${fixed2(d)}).`,
    });
  }
  const analysis = storedDefinition(question.type).analysisKeys(toScorable(question));
  if (figures.topShares && analysis) {
    const { keys, right } = analysis;
    const rightShares = keys.flatMap((key, i) => (right.has(key) ? [figures.topShares![i]!] : []));
    if (rightShares.length > 0) {
      const weakestRight = Math.min(...rightShares);
      keys.forEach((key, i) => {
        const share = figures.topShares![i]!;
        if (right.has(key) || share <= weakestRight) return;
        const label = analysis.label(key, i);
        flags.push({
          flag: 'wrong_option_favoured',
          reason: `Top group chose ${label} over the right one (${fixed2(share)} vs ${fixed2(weakestRight)}).`,
        });
      });
    }
  }
  return flags;
}

/** A question's figures from its rows of result_items. */
export function itemFiguresOf(
  question: QuizWithQuestions['questions'][number],
  rows: readonly ItemRow[],
): ItemFigures {
  let seen = 0;
  let answered = 0;
  const sums = { sumX: 0, sumX2: 0, sumXT: 0, sumT: 0, sumT2: 0, sumMax: 0 };
  const counts = new Map<string, number>();
  for (const row of rows) {
    seen += row.count;
    if (row.choiceKey !== '') answered += row.count;
    sums.sumX += row.sumX;
    sums.sumX2 += row.sumX2;
    sums.sumXT += row.sumXT;
    sums.sumT += row.sumT;
    sums.sumT2 += row.sumT2;
    sums.sumMax += row.sumMax;
    for (const key of keysChosen(row.choiceKey)) counts.set(key, (counts.get(key) ?? 0) + row.count);
  }
  const item: ItemSums = { n: seen, sumX: sums.sumX, sumX2: sums.sumX2, sumXT: sums.sumXT, max: 1 };
  const totals: TotalSums = { n: seen, sumT: sums.sumT, sumT2: sums.sumT2 };
  const analysis = storedDefinition(question.type).analysisKeys(toScorable(question));
  const groups = analysis ? groupShares(rows, analysis.keys) : null;
  const figures = {
    seen,
    answered,
    points: sums.sumX,
    counts,
    // The mean share of the maximum, over the maxima each response had (a kept id may change it).
    facility: seen === 0 || sums.sumMax <= 0 ? null : facility({ ...item, max: sums.sumMax / seen }),
    discrimination: discrimination(item, totals),
    topShares: groups?.top ?? null,
    bottomShares: groups?.bottom ?? null,
  };
  return { ...figures, flags: flagsOf(question, figures) };
}

export interface QuizReliability {
  statistic: 'cronbach_alpha';
  value: number | null;
  /** Why value is null; null when it is not. */
  reason: string | null;
}

/**
 * Cronbach's alpha over the current questions, when every response counted was shown every one
 * of them and nothing else: otherwise (a pooled or edited quiz) the questions' variances do not
 * add up to the score's, and alpha would mean nothing.
 */
export function reliabilityOf(quiz: QuizWithQuestions, rows: ResultRows, count: number): QuizReliability {
  const none = (reason: string): QuizReliability => ({ statistic: 'cronbach_alpha', value: null, reason });
  // An unscored question (an opinion) is no item of the test: it adds nothing to the score.
  const unscored = new Set(quiz.questions.filter(isUnscored).map((question) => question.id));
  const questions = quiz.questions.filter((question) => !unscored.has(question.id));
  if (questions.length < 2) return none('It needs at least 2 questions.');
  if (count < 2) return none('It needs at least 2 responses.');
  const pending = rows.scores.reduce((sum, row) => sum + (row.passed === PENDING_CODE ? row.count : 0), 0);
  if (pending > 0)
    return none(
      `${pending} response${pending === 1 ? ' waits' : 's wait'} for a grade: alpha needs final scores.`,
    );
  const current = new Set(questions.map((question) => question.id));
  const items = new Map<string, ItemSums>();
  const totals: TotalSums = { n: 0, sumT: 0, sumT2: 0 };
  for (const row of rows.scores) {
    totals.n += row.count;
    totals.sumT += row.score * row.count;
    totals.sumT2 += row.score * row.score * row.count;
  }
  for (const row of rows.items) {
    if (unscored.has(row.questionId)) continue;
    if (!current.has(row.questionId)) {
      return none('Responses answered different questions (the quiz was edited): alpha needs one set.');
    }
    const item = items.get(row.questionId) ?? { n: 0, sumX: 0, sumX2: 0, sumXT: 0, max: 0 };
    items.set(row.questionId, item);
    item.n += row.count;
    item.sumX += row.sumX;
    item.sumX2 += row.sumX2;
    item.sumXT += row.sumXT;
  }
  const sums = questions.map(
    (question) => items.get(question.id) ?? { n: 0, sumX: 0, sumX2: 0, sumXT: 0, max: 0 },
  );
  if (sums.some((item) => item.n !== count)) {
    return none(
      'Not every response was shown every question (a pooled or edited quiz): alpha needs one set.',
    );
  }
  const value = reliability(sums, totals);
  if (value === null) return none('Every response has the same score: there is no spread to explain.');
  return { statistic: 'cronbach_alpha', value: round2(value), reason: null };
}

export { round2 };
