import { randomBytes } from 'node:crypto';
import type { Batched } from './dialect';
import { listenersStatement, outboxStatement, type LazyOutboxEvent, type OutboxEvent } from './outbox';
import {
  AttemptAlreadySubmitted,
  PerEmailLimitReached,
  SubmissionKeyUsed,
  type GradedResponse,
  type GradeState,
  type MarksOf,
  type NewResponseRow,
  type PerEmailLimit,
  type ResponseGrades,
  type ResponseRemark,
  type SubmissionGuards,
} from './response-rows';
import {
  waitsForGrade,
  deltaSums,
  deltasOf,
  type ContributingAnswer,
  type ContributingResponse,
  type Deltas,
} from './result-aggregates';
import { sqlEach, sqlRows, sqlRun, type SqlConnection, type Steps } from './sql-connection';

/**
 * The writes that change a quiz's results, through the raw driver: storing a response, deleting
 * one, re-marking, each in one transaction with the running figures (result-aggregates.ts) they
 * change, so the figures always equal a recomputation from the rows (docs/decisions/0016). Raw
 * SQL for the same reason as the request path's reads (decision 0003): a submission is 20-odd
 * rows and as many upserts, and Prisma's per-statement cost dominated it. One implementation
 * for both databases, over the connection's dialect (dialect.ts).
 */
export interface ResultRows {
  scores: Array<{ score: number; maxScore: number; passed: number; count: number }>;
  items: Array<{
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
  }>;
  /** Typed answers' running counts (short_text by text, number by value). */
  values: Array<{ questionId: string; value: string; num: number; count: number }>;
  firstSubmittedAt: Date | null;
  lastSubmittedAt: Date | null;
  /** Answers per question waiting for a person's final grade (left out of `items`). */
  ungraded?: Array<{ questionId: string; count: number }>;
}

/** What a submission's webhook event is built from, once the response is stored. */
export interface CreatedResponse {
  id: string;
  submittedAt: Date;
}

export interface ResponseWrites {
  /**
   * The new response's id, or null when its quiz is gone. `event` is its webhook event, whose
   * outbox rows commit in the same transaction (outbox.ts), built only when an endpoint takes it.
   * With `limit`, the count of the email's responses and the insert run under one lock
   * (PerEmailLimitReached). With `guards.attempt`, the attempt is claimed (marked submitted, its
   * response named, its saved answers dropped) by a conditional update in the same transaction:
   * AttemptAlreadySubmitted when it was claimed already, and nothing is stored. With `guards.key`,
   * the key is taken first: SubmissionKeyUsed, naming the first response, when it was taken already.
   */
  create(
    row: NewResponseRow,
    at?: Date,
    event?: LazyOutboxEvent<CreatedResponse>,
    limit?: PerEmailLimit,
    guards?: SubmissionGuards,
  ): Promise<string | null>;
  /**
   * A bulk load: the same rows as `create`, many in one transaction, with the figures changed
   * once per key at the end.
   */
  createMany(rows: ReadonlyArray<{ row: NewResponseRow; at: Date }>): Promise<number>;
  /** False when there was no such response (any longer). `event` is written with the deletion. */
  delete(quizId: string, responseId: string, event?: OutboxEvent): Promise<boolean>;
  applyRemarks(quizId: string, remarks: readonly ResponseRemark[], at: Date): Promise<number>;
  /**
   * Grades, approvals and overrides by a person, in one transaction: each answer's points and
   * grade state, its answer_grades row and answer_history row, each response's score, percent,
   * pass and grading status (final once no answer waits), the running figures, and `graded`'s
   * event for each response that became final (built only when an endpoint takes it). Responses
   * gone meanwhile are left out of the answer.
   */
  applyGrades(
    quizId: string,
    grades: readonly ResponseGrades[],
    at: Date,
    marks: MarksOf,
    graded?: LazyOutboxEvent<GradedResponse>,
  ): Promise<GradedResponse[]>;
  /** Rebuilds the figures of one quiz (or of every quiz) from its rows; how many quizzes. */
  recompute(quizId?: string): Promise<number>;
  /** A quiz's running figures: a few rows per question and score, whatever the response count. */
  figures(quizId: string): Promise<ResultRows>;
  close(): Promise<void>;
}

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
const RESPONSE_WIDTH = 13;
const ANSWER_COLUMNS =
  '"id", "responseId", "quizId", "questionId", "position", "questionText", "type", "value", "statKey", ' +
  '"statValue", "statNum", "points", "maxPoints", "gradeState"';
/** An answer row's values: its id, response and quiz, then answerValues. */
const ANSWER_WIDTH = 14;
/** Where the JSON value sits among an answer row's values. */
const ANSWER_JSON = 7;
// What the figures need of a stored answer (its keys and marks), to take it out again.
const STORED_ANSWER_COLUMNS =
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
const FIGURES = [
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
const figureValues = (figure: Figure, quizId: string, deltas: Deltas): unknown[][] =>
  (deltas[figure.kind] as unknown as ReadonlyArray<never>).map((delta) => [quizId, ...figure.values(delta)]);

// At most this many rows per INSERT, whatever the dialect allows: under SQLite's 32,766
// parameters and PostgreSQL's 65,535. A bulk load reads its responses this many at a time.
const ROWS_PER_STATEMENT = 1000;
const RESPONSES_PER_CHUNK = 500;
/** Responses per page of a recomputation. */
const RECOMPUTE_PAGE = 500;

interface StoredAnswer extends ContributingAnswer {
  id: string;
}

/** An answer's values in ANSWER_COLUMNS order after its id, response and quiz; its value as JSON text. */
function answerValues(answer: NewResponseRow['answers'][number]) {
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

/** A stored response with new marks, as its contribution to the figures. */
function remarked(
  current: Omit<ContributingResponse, 'answers'> & { answers: StoredAnswer[] },
  remark: ResponseRemark,
): ContributingResponse {
  const marks = new Map(remark.answers.map((answer) => [answer.id, answer]));
  return {
    score: remark.score,
    maxScore: remark.maxScore,
    percent: remark.percent,
    passed: remark.passed,
    pending: current.pending ?? false,
    answers: current.answers.map((answer) => {
      const mark = marks.get(answer.id);
      return mark ? { ...answer, points: mark.points, maxPoints: mark.maxPoints } : answer;
    }),
  };
}

/** A stored boolean as either driver returns it (SQLite: 1 or 0). */
const storedBool = (value: unknown): boolean | null =>
  value === null ? null : value === true || value === 1;

interface StoredResponse {
  score: number;
  maxScore: number;
  percent: number | null;
  passed: unknown;
  gradingStatus: string;
}

/** A new response's contribution: its row, with whether it waits for a grade. */
const contributionOf = (row: NewResponseRow): ContributingResponse => ({
  ...row,
  pending: row.gradingStatus === 'pending',
});

/**
 * The results' writes over one connection. A submission is one `dialect.combine` of its rows and
 * upserts: on PostgreSQL one statement of data-modifying CTEs (one round trip, atomic by itself),
 * on SQLite one transaction. With an attempt, a webhook event or a per-email limit it is one
 * transaction of the attempt's claim, the rows, the outbox insert and the limit's count (under
 * `dialect.keyLock`): a crash anywhere in it leaves none of them. Deletion and
 * re-marking lock the quiz (`forKeyShare`) and then the response (`forUpdate`), so a concurrent
 * deletion or re-marking of the same response waits and then sees it as it is.
 */
export interface WriteHooks {
  /**
   * Called inside a submission's transaction right after its attempt is claimed, before the
   * response is written: the crash test stops the process there (main.ts, NODE_ENV=test only).
   */
  afterClaim?: () => void;
}

export function responseWrites(db: SqlConnection, hooks: WriteHooks = {}): ResponseWrites {
  const d = db.dialect;
  /** One SQL text per key, built once: the connection prepares it once and finds it by the same string. */
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

  // The attempt's claim: only the first submission of it finds "submittedAt" still empty.
  const CLAIM_ATTEMPT = text(
    'claim-attempt',
    (p) =>
      `UPDATE "attempts" SET "submittedAt" = ${d.timestampParam(p())}, "responseId" = ${p()}, "autoSubmitted" = ${p()}, ` +
      `"savedAnswers" = NULL WHERE "id" = ${p()} AND "submittedAt" IS NULL`,
  );
  // The repeat key: the first submission under it inserts the row; a racing second one waits on
  // the unique key (PostgreSQL) or the write lock (SQLite) and then inserts nothing.
  const TAKE_KEY = text(
    'take-key',
    (p) =>
      `INSERT INTO "submission_keys" ("quizId", "keyHash", "bodyHash", "responseId", "createdAt") ` +
      `VALUES (${p()}, ${p()}, ${p()}, ${p()}, ${d.timestampParam(p())}) ON CONFLICT ("quizId", "keyHash") DO NOTHING`,
  );
  const KEY_OWNER = text(
    'key-owner',
    (p) =>
      `SELECT "responseId", "bodyHash" FROM "submission_keys" WHERE "quizId" = ${p()} AND "keyHash" = ${p()}`,
  );
  const COUNT_BY_EMAIL = text(
    'count-by-email',
    (p) =>
      `SELECT COUNT(*) AS "used" FROM "responses" WHERE "quizId" = ${p()} AND "respondentEmail" = ${p()}`,
  );
  const HOLD_QUIZ = text(
    'hold-quiz',
    (p) => `SELECT 1 AS "held" FROM "quizzes" WHERE "id" = ${p()}${d.forKeyShare}`,
  );
  const LOCK_QUIZ = text(
    'lock-quiz',
    (p) => `SELECT 1 AS "held" FROM "quizzes" WHERE "id" = ${p()}${d.forUpdate}`,
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
  const DELETE_RESPONSE = text('delete', (p) => `DELETE FROM "responses" WHERE "id" = ${p()}`);
  const UPDATE_ANSWER = text(
    'update-answer',
    (p) =>
      `UPDATE "answers" SET "points" = ${p()}, "maxPoints" = ${p()} WHERE "id" = ${p()} AND "responseId" = ${p()}`,
  );
  const UPDATE_RESPONSE = text(
    'update-response',
    (p) =>
      `UPDATE "responses" SET "score" = ${p()}, "maxScore" = ${p()}, "percent" = ${p()}, "passed" = ${p()}, "remarkedAt" = ${p()}, ` +
      '"originalScore" = COALESCE("originalScore", "score"), "originalMaxScore" = COALESCE("originalMaxScore", "maxScore") ' +
      `WHERE "id" = ${p()}`,
  );
  const GRADE_ANSWER = text(
    'grade-answer',
    (p) =>
      `UPDATE "answers" SET "points" = ${p()}, "gradeState" = ${p()} WHERE "id" = ${p()} AND "responseId" = ${p()}`,
  );
  const GRADE_RESPONSE = text(
    'grade-response',
    (p) =>
      `UPDATE "responses" SET "score" = ${p()}, "maxScore" = ${p()}, "percent" = ${p()}, "passed" = ${p()}, "gradingStatus" = ${p()} ` +
      `WHERE "id" = ${p()}`,
  );
  const PROPOSAL_OF = text(
    'proposal-of',
    (p) =>
      `SELECT "points" FROM "answer_grades" WHERE "answerId" = ${p()} AND "state" = 'proposed'${d.forUpdate}`,
  );
  const UPSERT_GRADE = text(
    'upsert-grade',
    (p) =>
      'INSERT INTO "answer_grades" ("answerId", "quizId", "responseId", "state", "levels", "points", "feedback", "gradedBy", "gradedAt", "approvedBy", "approvedAt") ' +
      `VALUES (${p()}, ${p()}, ${p()}, ${p()}, ${d.json(p())}, ${p()}, ${p()}, ${p()}, ${p()}, NULL, NULL) ` +
      'ON CONFLICT ("answerId") DO UPDATE SET "state" = excluded."state", "levels" = excluded."levels", ' +
      '"points" = excluded."points", "feedback" = excluded."feedback", "gradedBy" = excluded."gradedBy", ' +
      '"gradedAt" = excluded."gradedAt", "approvedBy" = NULL, "approvedAt" = NULL',
  );
  const APPROVE_GRADE = text(
    'approve-grade',
    (p) =>
      `UPDATE "answer_grades" SET "state" = 'final', "approvedBy" = ${p()}, "approvedAt" = ${p()} WHERE "answerId" = ${p()}`,
  );
  const INSERT_HISTORY = text(
    'insert-history',
    (p) =>
      'INSERT INTO "answer_history" ("id", "answerId", "quizId", "kind", "pointsBefore", "pointsAfter", "by", "comment", "at") ' +
      `VALUES (${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()}, ${p()})`,
  );
  // Grouped by state first so that both databases read the (quizId, gradeState) index: grouped by
  // question alone, SQLite walks every answer of the quiz through (quizId, questionId) to skip a sort.
  const UNGRADED = text(
    'ungraded',
    (p) =>
      `SELECT "questionId", COUNT(*) AS "count" FROM "answers" WHERE "quizId" = ${p()} AND "gradeState" IN ('pending', 'proposed') ` +
      'GROUP BY "gradeState", "questionId"',
  );
  const DROP_EMPTY = FIGURES.map((figure) =>
    text(
      `drop-${figure.kind}`,
      (p) => `DELETE FROM "${figure.table}" WHERE "quizId" = ${p()} AND "count" = 0`,
    ),
  );
  const CLEAR = FIGURES.map((figure) =>
    text(`clear-${figure.kind}`, (p) => `DELETE FROM "${figure.table}" WHERE "quizId" = ${p()}`),
  );
  const RESPONSES_PAGE = text(
    'responses-page',
    (p) =>
      `SELECT "id", "score", "maxScore", "percent", "passed", "gradingStatus" FROM "responses" WHERE "quizId" = ${p()} AND "id" > ${p()} ` +
      `ORDER BY "id" LIMIT ${RECOMPUTE_PAGE}`,
  );
  const ANSWERS_OF_PAGE = text(
    'answers-of-page',
    (p) =>
      `SELECT "responseId", ${STORED_ANSWER_COLUMNS} FROM "answers" WHERE "responseId" IN ` +
      `(${Array.from({ length: RECOMPUTE_PAGE }, p).join(', ')})`,
  );
  const READ_FIGURES = FIGURES.map((figure) =>
    text(
      `read-${figure.kind}`,
      (p) =>
        `SELECT ${figure.columns.slice('"quizId", '.length)} FROM "${figure.table}" WHERE "quizId" = ${p()}`,
    ),
  );
  // Two index seeks on (quizId, submittedAt, id), not a scan, in one statement.
  const BOUNDS = text(
    'bounds',
    (p) =>
      `SELECT (SELECT "submittedAt" FROM "responses" WHERE "quizId" = ${p()} ORDER BY "submittedAt" ASC LIMIT 1) AS "first", ` +
      `(SELECT "submittedAt" FROM "responses" WHERE "quizId" = ${p()} ORDER BY "submittedAt" DESC LIMIT 1) AS "last"`,
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
  /** A submission's statements by its shape: its response, answers, then each figure table's upsert. */
  const createStatements = (answers: number, deltas: Deltas): Batched[] => {
    const key = `create/${answers}/${FIGURES.map((figure) => deltas[figure.kind].length).join('/')}`;
    let statements = plans.get(key);
    if (!statements) {
      // One numbering across the parts: PostgreSQL joins them into one statement.
      const p = d.placeholders();
      const parts: Batched[] = [{ text: insertResponses(p, 1), count: RESPONSE_WIDTH }];
      const rows = (total: number, width: number, build: (n: number) => string) => {
        for (let from = 0; from < total; from += d.rowsPerInsert) {
          const n = Math.min(d.rowsPerInsert, total - from);
          parts.push({ text: build(n), count: n * width });
        }
      };
      rows(answers, ANSWER_WIDTH, (n) => insertAnswers(p, n));
      for (const figure of FIGURES)
        rows(deltas[figure.kind].length, figure.width, (n) => upsert(p, figure, n));
      plans.set(key, (statements = d.combine(parts)));
    }
    return statements;
  };
  const plans = new Map<string, Batched[]>();

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
  /**
   * One response's grade changes, against its answers as the lock finds them: the answers,
   * grades and history written, the response's new marks, and its contribution before and after.
   */
  function* gradeOne(quizId: string, change: ResponseGrades, at: Date, marks: MarksOf) {
    const current = yield* lockStored(quizId, change.responseId);
    if (!current) return null; // deleted meanwhile
    const answers = current.answers.map((answer) => ({ ...answer }));
    const byId = new Map(answers.map((answer) => [answer.id, answer]));
    const outcome: GradedResponse['answers'] = [];
    const stamp = d.timestamp(at);
    for (const grade of change.changes) {
      const answer = byId.get(grade.answerId);
      if (!answer) continue; // not this response's: the domain sent it elsewhere
      const before = answer.points;
      let applied = true;
      if (grade.kind === 'grade') {
        if (grade.state === 'final') answer.points = grade.points;
        answer.gradeState = grade.state;
        yield* sqlRun(UPSERT_GRADE, [
          answer.id,
          quizId,
          change.responseId,
          grade.state,
          grade.levels === null ? null : JSON.stringify(grade.levels),
          grade.points,
          grade.feedback,
          grade.by,
          stamp,
        ]);
        if (grade.state === 'final')
          yield* sqlRun(INSERT_HISTORY, [
            newId(at.getTime()),
            answer.id,
            quizId,
            'graded',
            before,
            answer.points,
            grade.by,
            null,
            stamp,
          ]);
      } else if (grade.kind === 'approve') {
        const [proposal] = yield* sqlRows<{ points: number }>(PROPOSAL_OF, [answer.id]);
        if (!proposal || answer.gradeState !== 'proposed') applied = false;
        else {
          answer.points = Number(proposal.points);
          answer.gradeState = 'final';
          yield* sqlRun(APPROVE_GRADE, [grade.by, stamp, answer.id]);
          yield* sqlRun(INSERT_HISTORY, [
            newId(at.getTime()),
            answer.id,
            quizId,
            'graded',
            before,
            answer.points,
            grade.by,
            null,
            stamp,
          ]);
        }
      } else {
        answer.points = grade.points;
        answer.gradeState = 'final';
        yield* sqlRun(UPSERT_GRADE, [
          answer.id,
          quizId,
          change.responseId,
          'final',
          null,
          grade.points,
          grade.comment,
          grade.by,
          stamp,
        ]);
        yield* sqlRun(INSERT_HISTORY, [
          newId(at.getTime()),
          answer.id,
          quizId,
          'overridden',
          before,
          answer.points,
          grade.by,
          grade.comment,
          stamp,
        ]);
      }
      if (applied)
        yield* sqlRun(GRADE_ANSWER, [answer.points, answer.gradeState, answer.id, change.responseId]);
      outcome.push({
        answerId: answer.id,
        applied,
        pointsBefore: before,
        points: answer.points,
        maxPoints: answer.maxPoints,
        gradeState: (answer.gradeState ?? null) as GradeState | null,
      });
    }
    const score = answers.reduce((sum, answer) => sum + answer.points, 0);
    const maxScore = answers.reduce((sum, answer) => sum + answer.maxPoints, 0);
    const pending = answers.some(waitsForGrade);
    const { percent, passed } = marks(score, maxScore, !pending);
    yield* sqlRun(GRADE_RESPONSE, [
      score,
      maxScore,
      percent,
      passed === null ? null : d.bool(passed),
      pending ? 'pending' : 'final',
      change.responseId,
    ]);
    const after: ContributingResponse = { score, maxScore, percent, passed, pending, answers };
    const graded: GradedResponse = {
      responseId: change.responseId,
      score,
      maxScore,
      percent,
      passed,
      gradingStatus: pending ? 'pending' : 'final',
      becameFinal: current.pending && !pending,
      answers: outcome,
    };
    return { graded, before: current, after };
  }

  return {
    async create(row, at = new Date(), event, limit, guards = {}) {
      const { attempt, key } = guards;
      const deltas = deltasOf([{ response: contributionOf(row), sign: 1 }]);
      const id = newId(at.getTime());
      const values = responseValues(row, id, at);
      for (const answer of row.answers)
        values.push(newId(at.getTime()), id, row.quizId, ...answerValues(answer));
      for (const figure of FIGURES)
        for (const rowValues of figureValues(figure, row.quizId, deltas)) values.push(...rowValues);
      const statements = createStatements(row.answers.length, deltas);
      try {
        if (!event && !limit && !attempt && !key) {
          await db.atomically(statements, values);
          return id;
        }
        await db.transaction(function* () {
          if (key) {
            // Before the attempt's claim: a repeat of a submitted attempt answers with its response.
            const taken = yield* sqlRun(TAKE_KEY, [
              row.quizId,
              key.keyHash,
              key.bodyHash,
              id,
              d.timestamp(at),
            ]);
            if (taken === 0) {
              const [first] = yield* sqlRows<{ responseId: string; bodyHash: string | null }>(KEY_OWNER, [
                row.quizId,
                key.keyHash,
              ]);
              throw new SubmissionKeyUsed(first!.responseId, first!.bodyHash === key.bodyHash);
            }
          }
          if (attempt) {
            // First, so a second submission of the attempt waits here on PostgreSQL (the row
            // lock) and then finds it claimed; a rollback below undoes the claim with the rest.
            const claimed = yield* sqlRun(CLAIM_ATTEMPT, [
              d.timestamp(at),
              id,
              d.bool(attempt.autoSubmitted),
              attempt.id,
            ]);
            if (claimed === 0) throw new AttemptAlreadySubmitted();
            hooks.afterClaim?.();
          }
          if (limit) {
            // Submissions under one email to one quiz queue here until the holder commits (on
            // SQLite the transaction holds the write lock already), so each count sees the
            // responses stored before it.
            const lock = d.keyLock(`response-email:${row.quizId}:${limit.email}`);
            if (lock) yield* sqlRows(lock.text, lock.values);
            const [counted] = yield* sqlRows<{ used: number | string }>(COUNT_BY_EMAIL, [
              row.quizId,
              limit.email,
            ]);
            const used = Number(counted?.used ?? 0);
            if (used >= limit.max) throw new PerEmailLimitReached(used);
          }
          yield* sqlEach(statements, values);
          if (event) {
            // The body (every answer) is built only for an owner with an endpoint that takes it.
            const listeners = listenersStatement(d, event);
            if ((yield* sqlRows(listeners.text, listeners.values)).length > 0)
              yield* outbox(event.build({ id, submittedAt: at }));
          }
        });
        return id;
      } catch (error) {
        if (db.isForeignKeyViolation(error)) return null; // the quiz is gone
        throw error;
      }
    },
    createMany: (rows) =>
      db.transaction(function* () {
        const sums = new Map<string, ReturnType<typeof deltaSums>>();
        for (let from = 0; from < rows.length; from += RESPONSES_PER_CHUNK) {
          const chunk = rows.slice(from, from + RESPONSES_PER_CHUNK);
          const responses: unknown[] = [];
          const answers: unknown[] = [];
          for (const { row, at } of chunk) {
            const id = newId(at.getTime());
            responses.push(...responseValues(row, id, at));
            for (const answer of row.answers)
              answers.push(newId(at.getTime()), id, row.quizId, ...answerValues(answer));
            let quiz = sums.get(row.quizId);
            if (!quiz) sums.set(row.quizId, (quiz = deltaSums()));
            quiz.add(contributionOf(row), 1);
          }
          yield* insertAll('responses', responses, RESPONSE_WIDTH, insertResponses);
          yield* insertAll('answers', answers, ANSWER_WIDTH, insertAnswers);
        }
        for (const [quizId, quiz] of sums) yield* apply(quizId, quiz.deltas());
        return rows.length;
      }),
    delete: (quizId, responseId, event) =>
      db.transaction(function* () {
        yield* sqlRows(HOLD_QUIZ, [quizId]);
        const current = yield* lockStored(quizId, responseId);
        if (!current) return false;
        yield* sqlRun(DELETE_RESPONSE, [responseId]); // answers go by cascade
        yield* apply(quizId, deltasOf([{ response: current, sign: -1 }]));
        yield* dropEmpty(quizId);
        if (event) yield* outbox(event);
        return true;
      }),
    applyRemarks: (quizId, remarks, at) =>
      db.transaction(function* () {
        yield* sqlRows(HOLD_QUIZ, [quizId]);
        const changes: Array<{ response: ContributingResponse; sign: 1 | -1 }> = [];
        for (const change of remarks) {
          const current = yield* lockStored(quizId, change.responseId);
          if (!current) continue; // deleted meanwhile
          for (const answer of change.answers)
            yield* sqlRun(UPDATE_ANSWER, [answer.points, answer.maxPoints, answer.id, change.responseId]);
          yield* sqlRun(UPDATE_RESPONSE, [
            change.score,
            change.maxScore,
            change.percent,
            change.passed === null ? null : d.bool(change.passed),
            d.timestamp(at),
            change.responseId,
          ]);
          changes.push({ response: current, sign: -1 }, { response: remarked(current, change), sign: 1 });
        }
        yield* apply(quizId, deltasOf(changes));
        yield* dropEmpty(quizId);
        return changes.length / 2;
      }),
    applyGrades: (quizId, grades, at, marks, graded) =>
      db.transaction(function* () {
        yield* sqlRows(HOLD_QUIZ, [quizId]);
        const changes: Array<{ response: ContributingResponse; sign: 1 | -1 }> = [];
        const done: GradedResponse[] = [];
        // Responses locked in one order, so two gradings of the same responses cannot deadlock.
        const ordered = [...grades].sort((a, b) =>
          a.responseId < b.responseId ? -1 : a.responseId > b.responseId ? 1 : 0,
        );
        for (const change of ordered) {
          const result = yield* gradeOne(quizId, change, at, marks);
          if (!result) continue;
          changes.push({ response: result.before, sign: -1 }, { response: result.after, sign: 1 });
          done.push(result.graded);
        }
        yield* apply(quizId, deltasOf(changes));
        yield* dropEmpty(quizId);
        const finals = done.filter((response) => response.becameFinal);
        if (graded && finals.length > 0) {
          const listeners = listenersStatement(d, graded);
          if ((yield* sqlRows(listeners.text, listeners.values)).length > 0)
            for (const response of finals) yield* outbox(graded.build(response));
        }
        return done;
      }),
    async recompute(quizId) {
      const ids =
        quizId === undefined
          ? (await db.rows<{ id: string }>('SELECT "id" FROM "quizzes" ORDER BY "id"', [])).map(
              (row) => row.id,
            )
          : [quizId];
      let done = 0;
      // One transaction per quiz: submissions to other quizzes wait for one quiz at a time.
      for (const id of ids) {
        done += await db.transaction(function* () {
          // Submissions take a key-share lock on the quiz row (their foreign key), and deletions
          // and re-marks take it first: this waits for those under way and holds new ones until
          // the figures are rebuilt.
          if ((yield* sqlRows(LOCK_QUIZ, [id])).length === 0) return 0;
          for (const sql of CLEAR) yield* sqlRun(sql, [id]);
          // The stored responses through the same sums as every write (result-aggregates.ts).
          const sums = deltaSums();
          for (let after = ''; ;) {
            const page = yield* sqlRows<StoredResponse & { id: string }>(RESPONSES_PAGE, [id, after]);
            if (page.length === 0) break;
            const pageIds = page.map((response) => response.id);
            const padded = Array.from({ length: RECOMPUTE_PAGE }, (_, i) => pageIds[i] ?? pageIds[0]);
            const byResponse = new Map<string, ContributingAnswer[]>(
              pageIds.map((responseId) => [responseId, []]),
            );
            for (const answer of yield* sqlRows<ContributingAnswer & { responseId: string }>(
              ANSWERS_OF_PAGE,
              padded,
            ))
              byResponse.get(answer.responseId)!.push(answer);
            for (const response of page) {
              sums.add(
                {
                  ...response,
                  passed: storedBool(response.passed),
                  pending: response.gradingStatus === 'pending',
                  answers: byResponse.get(response.id)!,
                },
                1,
              );
            }
            if (page.length < RECOMPUTE_PAGE) break;
            after = pageIds[pageIds.length - 1]!;
          }
          yield* apply(id, sums.deltas());
          return 1;
        });
      }
      return done;
    },
    async figures(quizId) {
      const [items, values, scores, bounds, ungraded] = await Promise.all([
        ...READ_FIGURES.map((sql) => db.rows(sql, [quizId])),
        db.rows<{ first: unknown; last: unknown }>(BOUNDS, [quizId, quizId]),
        db.rows<{ questionId: string; count: number | string }>(UNGRADED, [quizId]),
      ]);
      const bound = (bounds as Array<{ first: unknown; last: unknown }>)[0];
      return {
        items: items as ResultRows['items'],
        values: values as ResultRows['values'],
        scores: scores as ResultRows['scores'],
        firstSubmittedAt: d.date(bound?.first),
        lastSubmittedAt: d.date(bound?.last),
        ungraded: ungradedByQuestion(ungraded as Array<{ questionId: string; count: number | string }>),
      };
    },
    close: () => db.close(),
  };
}

/** A question's answers waiting for a grade, pending and proposed added up, in question id order. */
function ungradedByQuestion(rows: ReadonlyArray<{ questionId: string; count: number | string }>) {
  const counts = new Map<string, number>();
  for (const row of rows) counts.set(row.questionId, (counts.get(row.questionId) ?? 0) + Number(row.count));
  return [...counts]
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([questionId, count]) => ({ questionId, count }));
}
