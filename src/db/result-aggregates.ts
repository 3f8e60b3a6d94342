/**
 * The running figures of a quiz's responses (tables `result_scores` and `result_items`,
 * docs/decisions/0016-results-from-running-sums.md), as pure functions: what one response adds
 * to them, merged per row key. The writers in response-writes.ts add a response's contribution
 * when it is stored and subtract it when it is deleted or re-marked, in the same transaction.
 */

/** What a response contributes: its own marks and its answers. */
export interface ContributingResponse {
  score: number;
  maxScore: number;
  percent: number | null;
  passed: boolean | null;
  /** Waiting for a person's grade (responses.gradingStatus "pending"): counted apart in result_scores. */
  pending?: boolean;
  answers: ReadonlyArray<ContributingAnswer>;
}

/** An answer with the keys its question type wrote with it (response-rows.ts). */
export interface ContributingAnswer {
  questionId: string;
  statKey: string | null;
  statValue: string | null;
  statNum: number | null;
  points: number;
  maxPoints: number;
  /** A person's grade not yet final ("pending", "proposed"): left out of the items until it is. */
  gradeState?: string | null;
}

/** Whether an answer waits for a person's final grade: its points say nothing yet. */
export const waitsForGrade = (answer: Pick<ContributingAnswer, 'gradeState'>): boolean =>
  answer.gradeState === 'pending' || answer.gradeState === 'proposed';

export interface ScoreDelta {
  score: number;
  maxScore: number;
  passed: number;
  count: number;
}

export interface ItemDelta {
  questionId: string;
  bucket: number;
  choiceKey: string;
  count: number;
  sumX: number;
  sumX2: number;
  sumXT: number;
  sumT: number;
  sumT2: number;
  sumMax: number;
}

export interface ValueDelta {
  questionId: string;
  value: string;
  num: number;
  count: number;
}

export interface Deltas {
  scores: ScoreDelta[];
  items: ItemDelta[];
  values: ValueDelta[];
}

/**
 * Pass as stored in result_scores: 1 passed, 0 failed, -1 without a pass mark, -2 waiting for a
 * person's grade (no pass yet), so the summary's pending count is kept like every other figure.
 */
export const PENDING_CODE = -2;
export const passedCode = (passed: boolean | null, pending = false): number =>
  pending ? PENDING_CODE : passed === null ? -1 : passed ? 1 : 0;

/** The response's percent bucket: floor of its percent within 0-100, or -1 without a percent. */
export function percentBucket(percent: number | null): number {
  if (percent === null) return -1;
  if (percent < 0) return 0;
  if (percent >= 100) return 100;
  return Math.trunc(percent);
}

/**
 * What an answer chose, as one key: the key written with it, or, for answers without a bounded
 * set of values (statKey null), their mark, which a re-marking may change.
 */
export function choiceKeyOf(answer: ContributingAnswer): string {
  return answer.statKey ?? (answer.points > 0 ? 'right' : 'wrong');
}

/**
 * The deltas of adding (sign 1) or removing (sign -1) responses, one per row key, sorted by key:
 * concurrent PostgreSQL writers then lock the rows they share in the same order.
 */
export function deltasOf(changes: ReadonlyArray<{ response: ContributingResponse; sign: 1 | -1 }>): Deltas {
  const sums = deltaSums();
  for (const { response, sign } of changes) sums.add(response, sign);
  return sums.deltas();
}

/**
 * The same sums, added up a response at a time: the recomputation feeds it every stored response
 * of a quiz, page by page, so the figures' grouping is written once, here.
 */
export function deltaSums() {
  const scores = new Map<string, ScoreDelta>();
  const items = new Map<string, ItemDelta>();
  const values = new Map<string, ValueDelta>();
  const add = (response: ContributingResponse, sign: 1 | -1) => {
    const passed = passedCode(response.passed, response.pending);
    const scoreKey = `${response.score}\0${response.maxScore}\0${passed}`;
    const score = scores.get(scoreKey);
    if (score) score.count += sign;
    else scores.set(scoreKey, { score: response.score, maxScore: response.maxScore, passed, count: sign });
    const bucket = percentBucket(response.percent);
    const total = response.score;
    for (const answer of response.answers) {
      // An answer waiting for its grade is no 0: the item analysis takes it once it is final.
      if (waitsForGrade(answer)) continue;
      const choiceKey = choiceKeyOf(answer);
      const key = `${answer.questionId}\0${bucket}\0${choiceKey}`;
      const x = answer.points;
      let item = items.get(key);
      if (!item) {
        item = {
          questionId: answer.questionId,
          bucket,
          choiceKey,
          count: 0,
          sumX: 0,
          sumX2: 0,
          sumXT: 0,
          sumT: 0,
          sumT2: 0,
          sumMax: 0,
        };
        items.set(key, item);
      }
      item.count += sign;
      item.sumX += sign * x;
      item.sumX2 += sign * x * x;
      item.sumXT += sign * x * total;
      item.sumT += sign * total;
      item.sumT2 += sign * total * total;
      item.sumMax += sign * answer.maxPoints;
      // A typed answer by the value written with it (a number's value, else the text as typed).
      const typed = answer.statValue === null ? null : { value: answer.statValue, num: answer.statNum ?? 0 };
      if (typed) {
        const valueKey = `${answer.questionId}\0${typed.value}\0${typed.num}`;
        const entry = values.get(valueKey);
        if (entry) entry.count += sign;
        else values.set(valueKey, { questionId: answer.questionId, ...typed, count: sign });
      }
    }
  };
  const byKey = <T>(entries: Map<string, T>) =>
    [...entries.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, value]) => value);
  const nonZero = (item: ItemDelta) =>
    item.count !== 0 ||
    item.sumX !== 0 ||
    item.sumX2 !== 0 ||
    item.sumXT !== 0 ||
    item.sumT !== 0 ||
    item.sumT2 !== 0 ||
    item.sumMax !== 0;
  const deltas = (): Deltas => ({
    scores: byKey(scores).filter((score) => score.count !== 0),
    items: byKey(items).filter(nonZero),
    values: byKey(values).filter((value) => value.count !== 0),
  });
  return { add, deltas };
}
