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
  answers: ReadonlyArray<ContributingAnswer>;
}

/** An answer with the keys its question type wrote with it (repositories/response-rows.ts). */
export interface ContributingAnswer {
  questionId: string;
  statKey: string | null;
  statValue: string | null;
  statNum: number | null;
  points: number;
  maxPoints: number;
}

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

/** Pass as stored in result_scores: 1 passed, 0 failed, -1 ungraded. */
export const passedCode = (passed: boolean | null): number => (passed === null ? -1 : passed ? 1 : 0);

/** The response's percent bucket: floor of its percent within 0-100, or -1 without a percent. */
export function percentBucket(percent: number | null): number {
  if (percent === null) return -1;
  if (percent < 0) return 0;
  if (percent >= 100) return 100;
  return Math.trunc(percent);
}

/**
 * What an answer chose, as one key: the key written with it, or, for answers without a bounded
 * set of values (statKey null), their mark, which a re-marking may change. The recomputation's
 * SQL (recomputeStatements) says the same.
 */
export function choiceKeyOf(answer: ContributingAnswer): string {
  return answer.statKey ?? (answer.points > 0 ? 'right' : 'wrong');
}

/**
 * The deltas of adding (sign 1) or removing (sign -1) responses, one per row key, sorted by key:
 * concurrent PostgreSQL writers then lock the rows they share in the same order.
 */
export function deltasOf(changes: ReadonlyArray<{ response: ContributingResponse; sign: 1 | -1 }>): Deltas {
  const scores = new Map<string, ScoreDelta>();
  const items = new Map<string, ItemDelta>();
  const values = new Map<string, ValueDelta>();
  for (const { response, sign } of changes) {
    const passed = passedCode(response.passed);
    const scoreKey = `${response.score}\0${response.maxScore}\0${passed}`;
    const score = scores.get(scoreKey);
    if (score) score.count += sign;
    else scores.set(scoreKey, { score: response.score, maxScore: response.maxScore, passed, count: sign });
    const bucket = percentBucket(response.percent);
    const total = response.score;
    for (const answer of response.answers) {
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
  }
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
  return {
    scores: byKey(scores).filter((score) => score.count !== 0),
    items: byKey(items).filter(nonZero),
    values: byKey(values).filter((value) => value.count !== 0),
  };
}

const percentBucketSql = (floor: (column: string) => string) =>
  `CASE WHEN r."percent" IS NULL THEN -1 WHEN r."percent" < 0 THEN 0 WHEN r."percent" >= 100 THEN 100 ` +
  `ELSE ${floor('r."percent"')} END`;

const PASSED_SQL = `CASE WHEN r."passed" IS NULL THEN -1 WHEN r."passed" THEN 1 ELSE 0 END`;

/**
 * The full recomputation of one quiz's figures from its rows (the operator's
 * `cli results recompute`, and the migration that created the tables). `$1`/`?` is the quiz id.
 */
export function recomputeStatements(provider: 'sqlite' | 'postgresql'): string[] {
  const q = provider === 'sqlite' ? '?' : '$1';
  const floor =
    provider === 'sqlite'
      ? (column: string) => `CAST(${column} AS INTEGER)`
      : (column: string) => `FLOOR(${column})::INTEGER`;
  return [
    `DELETE FROM "result_scores" WHERE "quizId" = ${q}`,
    `DELETE FROM "result_items" WHERE "quizId" = ${q}`,
    `DELETE FROM "result_values" WHERE "quizId" = ${q}`,
    `INSERT INTO "result_values" ("quizId", "questionId", "value", "num", "count") ` +
      `SELECT a."quizId", a."questionId", a."statValue", COALESCE(a."statNum", 0), COUNT(*) FROM "answers" a ` +
      `WHERE a."quizId" = ${q} AND a."statValue" IS NOT NULL ` +
      `GROUP BY a."quizId", a."questionId", a."statValue", COALESCE(a."statNum", 0)`,
    `INSERT INTO "result_scores" ("quizId", "score", "maxScore", "passed", "count") ` +
      `SELECT r."quizId", r."score", r."maxScore", ${PASSED_SQL}, COUNT(*) FROM "responses" r ` +
      `WHERE r."quizId" = ${q} GROUP BY r."quizId", r."score", r."maxScore", ${PASSED_SQL}`,
    `INSERT INTO "result_items" ("quizId", "questionId", "bucket", "choiceKey", "count", "sumX", "sumX2", "sumXT", "sumT", "sumT2", "sumMax") ` +
      `SELECT g."quizId", g."questionId", g."bucket", g."choiceKey", COUNT(*), SUM(g."x"), SUM(g."x" * g."x"), ` +
      `SUM(g."x" * g."t"), SUM(g."t"), SUM(g."t" * g."t"), SUM(g."m") FROM (` +
      `SELECT a."quizId", a."questionId", a."points" AS "x", a."maxPoints" AS "m", r."score" AS "t", ` +
      `${percentBucketSql(floor)} AS "bucket", ` +
      `COALESCE(a."statKey", CASE WHEN a."points" > 0 THEN 'right' ELSE 'wrong' END) AS "choiceKey" ` +
      `FROM "answers" a JOIN "responses" r ON r."id" = a."responseId" WHERE r."quizId" = ${q}` +
      `) g GROUP BY g."quizId", g."questionId", g."bucket", g."choiceKey"`,
  ];
}
