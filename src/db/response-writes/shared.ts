import { randomBytes } from 'node:crypto';
import { outboxStatement, type OutboxEvent } from '../outbox';
import type { NewResponseRow } from '../response-rows';
import type { ContributingAnswer, ContributingResponse, Deltas } from '../result-aggregates';
import { sqlRows, sqlRun, type SqlConnection, type Steps } from '../sql-connection';

let counter = Math.floor(Math.random() * 36 ** 4);
// Random bytes drawn 4 KiB at a time: a submission takes 21 ids, and a call per id showed in profiles.
let pool = Buffer.alloc(0);
let offset = 0;
function random12(): Buffer {
  if (offset + 12 > pool.length) {
    pool = randomBytes(4096);
    offset = 0;
  }
  offset += 12;
  return pool.subarray(offset - 12, offset);
}
/** A collision-resistant id shaped like Prisma's cuid(): time, counter and 96 random bits. */
export function newId(now = Date.now()): string {
  counter = (counter + 1) % 36 ** 4;
  const random = BigInt(`0x${random12().toString('hex')}`)
    .toString(36)
    .padStart(19, '0')
    .slice(-12);
  return `c${now.toString(36).padStart(8, '0')}${counter.toString(36).padStart(4, '0')}${random}`;
}

const RESPONSE_COLUMNS =
  '"id", "quizId", "quizVersion", "respondentName", "respondentEmail", "score", "maxScore", "percent", "passed", "submittedAt", "timeUp", "gradingStatus", "resultKeyHash"';
export const RESPONSE_WIDTH = 13;
const ANSWER_COLUMNS =
  '"id", "responseId", "quizId", "questionId", "position", "questionText", "type", "value", "statKey", ' +
  '"statValue", "statNum", "points", "maxPoints", "gradeState"';
/** An answer row's values: its id, response and quiz, then answerValues. */
export const ANSWER_WIDTH = 14;
/** Where the JSON value sits among an answer row's values. */
const ANSWER_JSON = 7;
// What the figures need of a stored answer (its keys and marks), to take it out again.
export const STORED_ANSWER_COLUMNS =
  '"questionId", "statKey", "statValue", "statNum", "points", "maxPoints", "gradeState"';
// A question's running sums, in one order for every statement that writes or reads them.
const ITEM_SUMS = ['count', 'sumX', 'sumX2', 'sumXT', 'sumT', 'sumT2', 'sumMax'] as const;
const ITEM_FIELDS = ['questionId', 'bucket', 'choiceKey', ...ITEM_SUMS] as const;
const ITEM_READ = ITEM_FIELDS.map((field) => `"${field}"`).join(', ');

/**
 * The running figures' tables, in the order every writer upserts them (and, within one, rows in
 * key order from deltasOf): concurrent PostgreSQL writers lock the rows they share in one order.
 * Rows whose counts fall to zero are deleted afterwards, so the figures equal a recomputation.
 */
export const FIGURES = [
  {
    kind: 'items',
    table: 'result_items',
    columns: `"quizId", ${ITEM_READ}`,
    width: 1 + ITEM_FIELDS.length,
    conflict:
      'ON CONFLICT ("quizId", "questionId", "bucket", "choiceKey") DO UPDATE SET ' +
      ITEM_SUMS.map((sum) => `"${sum}" = "result_items"."${sum}" + excluded."${sum}"`).join(', '),
    values: (delta: Deltas['items'][number]) => ITEM_FIELDS.map((field) => delta[field]),
  },
  {
    kind: 'values',
    table: 'result_values',
    columns: '"quizId", "questionId", "value", "num", "count"',
    width: 5,
    conflict:
      'ON CONFLICT ("quizId", "questionId", "value", "num") DO UPDATE SET "count" = "result_values"."count" + excluded."count"',
    values: (delta: Deltas['values'][number]) => [delta.questionId, delta.value, delta.num, delta.count],
  },
  {
    kind: 'scores',
    table: 'result_scores',
    columns: '"quizId", "score", "maxScore", "passed", "count"',
    width: 5,
    conflict:
      'ON CONFLICT ("quizId", "score", "maxScore", "passed") DO UPDATE SET "count" = "result_scores"."count" + excluded."count"',
    values: (delta: Deltas['scores'][number]) => [delta.score, delta.maxScore, delta.passed, delta.count],
  },
] as const;
type Figure = (typeof FIGURES)[number];
/** One delta's values in its table's column order, the quiz first. */
export const figureValues = (figure: Figure, quizId: string, deltas: Deltas): unknown[][] =>
  (deltas[figure.kind] as unknown as ReadonlyArray<never>).map((delta) => [quizId, ...figure.values(delta)]);

/** The key of a quiz's figures lock (dialect.keyLock), taken by holdFigures below. */
export const figuresLockKey = (quizId: string) => `figures:${quizId}`;

// At most this many rows per INSERT, whatever the dialect allows: under SQLite's 32,766
// parameters and PostgreSQL's 65,535. A bulk load reads its responses this many at a time.
const ROWS_PER_STATEMENT = 1000;
export const RESPONSES_PER_CHUNK = 500;
/** Responses per page of a recomputation. */
export const RECOMPUTE_PAGE = 500;

export interface StoredAnswer extends ContributingAnswer {
  id: string;
}

/** An answer's values in ANSWER_COLUMNS order after its id, response and quiz; its value as JSON text. */
export function answerValues(answer: NewResponseRow['answers'][number]) {
  return [
    answer.questionId,
    answer.position,
    answer.questionText,
    answer.type,
    answer.value === null ? null : JSON.stringify(answer.value),
    answer.statKey,
    answer.statValue,
    answer.statNum,
    answer.points,
    answer.maxPoints,
    answer.gradeState ?? null,
  ];
}

/** A stored boolean as either driver returns it (SQLite: 1 or 0). */
export const storedBool = (value: unknown): boolean | null =>
  value === null ? null : value === true || value === 1;

export interface StoredResponse {
  score: number;
  maxScore: number;
  percent: number | null;
  passed: unknown;
  gradingStatus: string;
}

/** A new response's contribution: its row, with whether it waits for a grade. */
export const contributionOf = (row: NewResponseRow): ContributingResponse => ({
  ...row,
  pending: row.gradingStatus === 'pending',
});

/**
 * What every write builds on, over one connection: the SQL texts (each built once: the
 * connection prepares it once and finds it by the same string), the rows' values, and the steps
 * the writes share (the figures' upserts, the response's lock, the outbox insert).
 */
export function writeContext(db: SqlConnection) {
  const d = db.dialect;
  const texts = new Map<string, string>();
  const text = (key: string, build: (p: () => string) => string) => {
    let sql = texts.get(key);
    if (!sql) texts.set(key, (sql = build(d.placeholders())));
    return sql;
  };
  const tuple = (p: () => string, width: number) => `(${Array.from({ length: width }, p).join(', ')})`;
  const tuples = (p: () => string, width: number, rows: number) =>
    Array.from({ length: rows }, () => tuple(p, width)).join(', ');
  const answerTuples = (p: () => string, rows: number) =>
    Array.from({ length: rows }, () => {
      const slots = Array.from({ length: ANSWER_WIDTH }, p);
      slots[ANSWER_JSON] = d.json(slots[ANSWER_JSON]!);
      return `(${slots.join(', ')})`;
    }).join(', ');
  const insertResponses = (p: () => string, rows: number) =>
    `INSERT INTO "responses" (${RESPONSE_COLUMNS}) VALUES ${tuples(p, RESPONSE_WIDTH, rows)}`;
  const insertAnswers = (p: () => string, rows: number) =>
    `INSERT INTO "answers" (${ANSWER_COLUMNS}) VALUES ${answerTuples(p, rows)}`;
  const upsert = (p: () => string, figure: Figure, rows: number) =>
    `INSERT INTO "${figure.table}" (${figure.columns}) VALUES ${tuples(p, figure.width, rows)} ${figure.conflict}`;

  const HOLD_QUIZ = text(
    'hold-quiz',
    (p) => `SELECT 1 AS "held" FROM "quizzes" WHERE "id" = ${p()}${d.forKeyShare}`,
  );
  const LOCK_RESPONSE = text(
    'lock-response',
    (p) =>
      `SELECT "score", "maxScore", "percent", "passed", "gradingStatus" FROM "responses" WHERE "id" = ${p()} AND "quizId" = ${p()}${d.forUpdate}`,
  );
  const ANSWERS_OF = text(
    'answers-of',
    (p) => `SELECT "id", ${STORED_ANSWER_COLUMNS} FROM "answers" WHERE "responseId" = ${p()}`,
  );
  const DROP_EMPTY = FIGURES.map((figure) =>
    text(
      `drop-${figure.kind}`,
      (p) => `DELETE FROM "${figure.table}" WHERE "quizId" = ${p()} AND "count" = 0`,
    ),
  );

  const responseValues = (row: NewResponseRow, id: string, at: Date): unknown[] => [
    id,
    row.quizId,
    row.quizVersion,
    row.respondentName,
    row.respondentEmail,
    row.score,
    row.maxScore,
    row.percent,
    row.passed === null ? null : d.bool(row.passed),
    d.timestamp(at),
    d.bool(row.timeUp ?? false),
    row.gradingStatus ?? 'final',
    row.resultKeyHash ?? null,
  ];

  /** Adds the deltas to the figures, each table's rows in key order, in statements of bounded size. */
  function* apply(quizId: string, deltas: Deltas): Steps<void> {
    for (const figure of FIGURES) {
      const rows = figureValues(figure, quizId, deltas);
      const per = Math.min(d.rowsPerInsert, ROWS_PER_STATEMENT);
      for (let from = 0; from < rows.length; from += per) {
        const chunk = rows.slice(from, from + per);
        yield* sqlRun(
          text(`upsert-${figure.kind}/${chunk.length}`, (p) => upsert(p, figure, chunk.length)),
          chunk.flat(),
        );
      }
    }
  }
  /** Rows given as one flat list of values, in statements of the dialect's rows per INSERT. */
  function* insertAll(
    kind: string,
    values: readonly unknown[],
    width: number,
    build: (p: () => string, rows: number) => string,
  ): Steps<void> {
    const per = width * Math.min(d.rowsPerInsert, ROWS_PER_STATEMENT);
    for (let from = 0; from < values.length; from += per) {
      const part = values.slice(from, from + per);
      const rows = part.length / width;
      yield* sqlRun(
        text(`${kind}/${rows}`, (p) => build(p, rows)),
        part,
      );
    }
  }
  /**
   * Every writer of a quiz's figures takes its figures lock first, before any row lock: writers
   * of one quiz queue here instead of locking the shared figure rows in different orders and
   * waiting out PostgreSQL's deadlock check. Quizzes in id order; nothing to do on SQLite.
   */
  function* holdFigures(quizIds: Iterable<string>): Steps<void> {
    for (const quizId of [...new Set(quizIds)].sort()) {
      const lock = d.keyLock(figuresLockKey(quizId));
      if (lock) yield* sqlRows(lock.text, lock.values);
    }
  }
  function* dropEmpty(quizId: string): Steps<void> {
    for (const sql of DROP_EMPTY) yield* sqlRun(sql, [quizId]);
  }
  /** Locks the response and reads it with its answers as they are now. */
  function* lockStored(quizId: string, responseId: string) {
    const [response] = yield* sqlRows<StoredResponse>(LOCK_RESPONSE, [responseId, quizId]);
    if (!response) return null;
    const answers = yield* sqlRows<StoredAnswer>(ANSWERS_OF, [responseId]);
    return {
      ...response,
      passed: storedBool(response.passed),
      pending: response.gradingStatus === 'pending',
      answers,
    };
  }
  function* outbox(event: OutboxEvent): Steps<void> {
    const { text: sql, values } = outboxStatement(d, event);
    yield* sqlRun(sql, values);
  }

  return {
    db,
    d,
    text,
    insertResponses,
    insertAnswers,
    upsert,
    responseValues,
    HOLD_QUIZ,
    apply,
    holdFigures,
    insertAll,
    dropEmpty,
    lockStored,
    outbox,
  };
}

export type WriteContext = ReturnType<typeof writeContext>;
