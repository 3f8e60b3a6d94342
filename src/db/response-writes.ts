import { randomBytes } from 'node:crypto';
import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import {
  PerEmailLimitReached,
  type NewResponseRow,
  type PerEmailLimit,
  type ResponseRemark,
} from './repositories/response-rows';
import { outboxStatement, type OutboxEvent } from './repositories/webhooks';
import {
  deltasOf,
  recomputeStatements,
  type ContributingAnswer,
  type ContributingResponse,
  type Deltas,
} from './result-aggregates';

/**
 * The writes that change a quiz's results, through the raw driver: storing a response, deleting
 * one, re-marking, each in one transaction with the running figures (result-aggregates.ts) they
 * change, so the figures always equal a recomputation from the rows (docs/decisions/0016). Raw
 * SQL for the same reason as the request path's reads (decision 0003): a submission is 20-odd
 * rows and as many upserts, and Prisma's per-statement cost dominated it.
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
}

export interface ResponseWrites {
  /**
   * The new response's id, or null when its quiz is gone. `event` builds its webhook event, whose
   * outbox rows commit in the same transaction (db/repositories/webhooks.ts). With `limit`, the
   * count of the email's responses and the insert run under one lock (PerEmailLimitReached).
   */
  create(
    row: NewResponseRow,
    at?: Date,
    event?: (created: { id: string; submittedAt: Date }) => OutboxEvent,
    limit?: PerEmailLimit,
  ): Promise<string | null>;
  /**
   * A bulk load: the same rows as `create`, many in one transaction, with the figures changed
   * once per key at the end.
   */
  createMany(rows: ReadonlyArray<{ row: NewResponseRow; at: Date }>): Promise<number>;
  /** False when there was no such response (any longer). `event` is written with the deletion. */
  delete(quizId: string, responseId: string, event?: OutboxEvent): Promise<boolean>;
  applyRemarks(quizId: string, remarks: readonly ResponseRemark[], at: Date): Promise<number>;
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

/** Prisma's adapter-better-sqlite3 writes DateTime as ISO text with "+00:00"; keyset paging compares the text. */
const sqliteDate = (at: Date) => at.toISOString().replace('Z', '+00:00');

const RESPONSE_COLUMNS =
  '"id", "quizId", "quizVersion", "respondentName", "respondentEmail", "score", "maxScore", "percent", "passed", "submittedAt", "timeUp"';
const ANSWER_COLUMNS =
  '"id", "responseId", "quizId", "questionId", "position", "questionText", "type", "value", "statKey", ' +
  '"statValue", "statNum", "points", "maxPoints"';
// What the figures need of a stored answer (its keys and marks), to take it out again.
const STORED_ANSWER =
  'SELECT "id", "questionId", "statKey", "statValue", "statNum", "points", "maxPoints" FROM "answers" WHERE "responseId" = ';
// A question's running sums, in one order for every statement that writes or reads them.
const ITEM_SUMS = ['count', 'sumX', 'sumX2', 'sumXT', 'sumT', 'sumT2', 'sumMax'] as const;
const ITEM_FIELDS = ['questionId', 'bucket', 'choiceKey', ...ITEM_SUMS] as const;
const ITEM_READ = ITEM_FIELDS.map((field) => `"${field}"`).join(', ');
const ITEM_COLUMNS = `"quizId", ${ITEM_READ}`;
/** One item delta's values in ITEM_FIELDS order (after the quiz id). */
const itemValues = (delta: ResultRows['items'][number]) => ITEM_FIELDS.map((field) => delta[field]);
const SCORE_CONFLICT =
  'ON CONFLICT ("quizId", "score", "maxScore", "passed") DO UPDATE SET "count" = "result_scores"."count" + excluded."count"';
const ITEM_CONFLICT =
  'ON CONFLICT ("quizId", "questionId", "bucket", "choiceKey") DO UPDATE SET ' +
  ITEM_SUMS.map((sum) => `"${sum}" = "result_items"."${sum}" + excluded."${sum}"`).join(', ');
// Rows whose counts fell to zero go, so that the figures equal a recomputation row for row.
const VALUE_CONFLICT =
  'ON CONFLICT ("quizId", "questionId", "value", "num") DO UPDATE SET "count" = "result_values"."count" + excluded."count"';
const DROP_EMPTY = (q: string) => [
  `DELETE FROM "result_values" WHERE "quizId" = ${q} AND "count" = 0`,
  `DELETE FROM "result_scores" WHERE "quizId" = ${q} AND "count" = 0`,
  `DELETE FROM "result_items" WHERE "quizId" = ${q} AND "count" = 0`,
];

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
  ];
}
const ANSWER_VALUES = 10;

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
    answers: current.answers.map((answer) => {
      const mark = marks.get(answer.id);
      return mark ? { ...answer, points: mark.points, maxPoints: mark.maxPoints } : answer;
    }),
  };
}

const toDate = (value: unknown): Date | null =>
  value === null || value === undefined ? null : value instanceof Date ? value : new Date(value as string);

/**
 * SQLite: one connection of its own, synchronous transactions begun IMMEDIATE (a writer in
 * another process makes it wait up to busy_timeout, not fail), so nothing interleaves within one.
 */
export function sqliteResponseWrites(open: () => BetterSqlite3.Database): ResponseWrites {
  let db: BetterSqlite3.Database | undefined;
  let closed = false;
  const statements = new Map<string, BetterSqlite3.Statement>();
  const connection = () => {
    if (closed) throw new Error('The database connection is not open');
    return (db ??= open());
  };
  const prepared = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = connection().prepare(sql)));
    return statement;
  };
  const apply = (quizId: string, deltas: Deltas) => {
    const score = prepared(
      `INSERT INTO "result_scores" ("quizId", "score", "maxScore", "passed", "count") VALUES (?, ?, ?, ?, ?) ${SCORE_CONFLICT}`,
    );
    for (const delta of deltas.scores)
      score.run(quizId, delta.score, delta.maxScore, delta.passed, delta.count);
    const item = prepared(
      `INSERT INTO "result_items" (${ITEM_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ${ITEM_CONFLICT}`,
    );
    const value = prepared(
      `INSERT INTO "result_values" ("quizId", "questionId", "value", "num", "count") VALUES (?, ?, ?, ?, ?) ${VALUE_CONFLICT}`,
    );
    for (const delta of deltas.values)
      value.run(quizId, delta.questionId, delta.value, delta.num, delta.count);
    for (const delta of deltas.items) item.run(quizId, ...itemValues(delta));
  };
  const dropEmpty = (quizId: string) => {
    for (const sql of DROP_EMPTY('?')) prepared(sql).run(quizId);
  };
  const stored = (quizId: string, responseId: string) => {
    const response = prepared(
      'SELECT "score", "maxScore", "percent", "passed" FROM "responses" WHERE "id" = ? AND "quizId" = ?',
    ).get(responseId, quizId) as
      { score: number; maxScore: number; percent: number | null; passed: number | null } | undefined;
    if (!response) return null;
    const answers = prepared(`${STORED_ANSWER}?`).all(responseId) as StoredAnswer[];
    return { ...response, passed: response.passed === null ? null : response.passed === 1, answers };
  };
  const transaction = <A extends unknown[], R>(fn: (...args: A) => R) => {
    let wrapped: BetterSqlite3.Transaction<(...args: A) => R> | undefined;
    return (...args: A): R => (wrapped ??= connection().transaction(fn)).immediate(...args);
  };

  const insert = (row: NewResponseRow, at: Date) => {
    const id = newId(at.getTime());
    prepared(`INSERT INTO "responses" (${RESPONSE_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(
      id,
      row.quizId,
      row.quizVersion,
      row.respondentName,
      row.respondentEmail,
      row.score,
      row.maxScore,
      row.percent,
      row.passed === null ? null : row.passed ? 1 : 0,
      sqliteDate(at),
      row.timeUp ? 1 : 0,
    );
    const insertAnswer = prepared(
      `INSERT INTO "answers" (${ANSWER_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    for (const answer of row.answers)
      insertAnswer.run(newId(at.getTime()), id, row.quizId, ...answerValues(answer));
    return id;
  };
  const outbox = (event: OutboxEvent) => {
    const { text, values } = outboxStatement('sqlite', event, sqliteDate(event.at));
    prepared(text).run(...values);
  };
  type EventOf = ((created: { id: string; submittedAt: Date }) => OutboxEvent) | undefined;
  const create = transaction((row: NewResponseRow, at: Date, event: EventOf, limit?: PerEmailLimit) => {
    // The transaction is IMMEDIATE: no other writer runs between this count and the insert.
    if (limit) {
      const { used } = prepared(
        'SELECT COUNT(*) AS "used" FROM "responses" WHERE "quizId" = ? AND "respondentEmail" = ?',
      ).get(row.quizId, limit.email) as { used: number };
      if (used >= limit.max) throw new PerEmailLimitReached(used);
    }
    const id = insert(row, at);
    apply(row.quizId, deltasOf([{ response: row, sign: 1 }]));
    if (event) outbox(event({ id, submittedAt: at }));
    return id;
  });
  const createMany = transaction((rows: ReadonlyArray<{ row: NewResponseRow; at: Date }>) => {
    const byQuiz = new Map<string, Array<{ response: ContributingResponse; sign: 1 }>>();
    for (const { row, at } of rows) {
      insert(row, at);
      const changes = byQuiz.get(row.quizId) ?? [];
      byQuiz.set(row.quizId, changes);
      changes.push({ response: row, sign: 1 });
    }
    for (const [quizId, changes] of byQuiz) apply(quizId, deltasOf(changes));
    return rows.length;
  });
  const remove = transaction((quizId: string, responseId: string, event: OutboxEvent | undefined) => {
    const current = stored(quizId, responseId);
    if (!current) return false;
    prepared('DELETE FROM "responses" WHERE "id" = ?').run(responseId); // answers go by cascade
    apply(quizId, deltasOf([{ response: current, sign: -1 }]));
    dropEmpty(quizId);
    if (event) outbox(event);
    return true;
  });
  const remark = transaction((quizId: string, remarks: readonly ResponseRemark[], at: Date) => {
    const changes: Array<{ response: ContributingResponse; sign: 1 | -1 }> = [];
    const updateAnswer = prepared(
      'UPDATE "answers" SET "points" = ?, "maxPoints" = ? WHERE "id" = ? AND "responseId" = ?',
    );
    const updateResponse = prepared(
      'UPDATE "responses" SET "score" = ?, "maxScore" = ?, "percent" = ?, "passed" = ?, "remarkedAt" = ?, ' +
        '"originalScore" = COALESCE("originalScore", "score"), "originalMaxScore" = COALESCE("originalMaxScore", "maxScore") ' +
        'WHERE "id" = ?',
    );
    for (const change of remarks) {
      const current = stored(quizId, change.responseId);
      if (!current) continue; // deleted meanwhile
      for (const answer of change.answers)
        updateAnswer.run(answer.points, answer.maxPoints, answer.id, change.responseId);
      updateResponse.run(
        change.score,
        change.maxScore,
        change.percent,
        change.passed === null ? null : change.passed ? 1 : 0,
        sqliteDate(at),
        change.responseId,
      );
      changes.push({ response: current, sign: -1 }, { response: remarked(current, change), sign: 1 });
    }
    apply(quizId, deltasOf(changes));
    dropEmpty(quizId);
    return changes.length / 2;
  });
  const recomputeOne = transaction((quizId: string) => {
    if (!prepared('SELECT 1 FROM "quizzes" WHERE "id" = ?').get(quizId)) return 0;
    for (const sql of recomputeStatements('sqlite')) prepared(sql).run(quizId);
    return 1;
  });

  return {
    async create(row, at = new Date(), event, limit) {
      try {
        return create(row, at, event, limit);
      } catch (error) {
        if ((error as { code?: unknown }).code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return null;
        throw error;
      }
    },
    createMany: async (rows) => createMany(rows),
    delete: async (quizId, responseId, event) => remove(quizId, responseId, event),
    applyRemarks: async (quizId, remarks, at) => remark(quizId, remarks, at),
    async recompute(quizId) {
      const ids =
        quizId === undefined
          ? (prepared('SELECT "id" FROM "quizzes" ORDER BY "id"').all() as Array<{ id: string }>).map(
              (row) => row.id,
            )
          : [quizId];
      let done = 0;
      // One transaction per quiz: submissions to other quizzes wait for one quiz at a time.
      for (const id of ids) done += recomputeOne(id);
      return done;
    },
    async figures(quizId) {
      const scores = prepared(
        'SELECT "score", "maxScore", "passed", "count" FROM "result_scores" WHERE "quizId" = ?',
      ).all(quizId) as ResultRows['scores'];
      const items = prepared(`SELECT ${ITEM_READ} FROM "result_items" WHERE "quizId" = ?`).all(
        quizId,
      ) as ResultRows['items'];
      const values = prepared(
        'SELECT "questionId", "value", "num", "count" FROM "result_values" WHERE "quizId" = ?',
      ).all(quizId) as ResultRows['values'];
      // Two index seeks on (quizId, submittedAt, id), not a scan.
      const first = prepared(
        'SELECT "submittedAt" FROM "responses" WHERE "quizId" = ? ORDER BY "submittedAt" ASC LIMIT 1',
      ).get(quizId) as { submittedAt: string } | undefined;
      const last = prepared(
        'SELECT "submittedAt" FROM "responses" WHERE "quizId" = ? ORDER BY "submittedAt" DESC LIMIT 1',
      ).get(quizId) as { submittedAt: string } | undefined;
      return {
        scores,
        items,
        values,
        firstSubmittedAt: toDate(first?.submittedAt),
        lastSubmittedAt: toDate(last?.submittedAt),
      };
    },
    async close() {
      closed = true;
      db?.close();
    },
  };
}

const DEADLOCK = '40P01';
/** An answer row's values: its id, response and quiz, then answerValues. */
const ANSWER_WIDTH = 3 + ANSWER_VALUES;
/**
 * An answer row's placeholders in ANSWER_COLUMNS order, `next` numbering each one taken from the
 * values; a response's statement passes its own id and quiz instead. The value is cast: a
 * multi-row VALUES list types an untyped parameter as text, which jsonb does not take.
 */
function answerTuple(next: () => string, responseId?: string, quizId?: string): string {
  const id = next();
  const response = responseId ?? next();
  const quiz = quizId ?? next();
  const [questionId, position, questionText, type, value, ...rest] = Array.from(
    { length: ANSWER_VALUES },
    next,
  );
  return [id, response, quiz, questionId, position, questionText, type, `${value}::jsonb`, ...rest].join(
    ', ',
  );
}
/** timestamp(3) without zone, in UTC, as Prisma keeps it: text, so the process's time zone cannot shift it. */
const pgTimestamp = (at: Date) => at.toISOString().replace('T', ' ').replace('Z', '');

/**
 * PostgreSQL: a submission is one statement (data-modifying CTEs), so one round trip and atomic
 * by itself. Deletion and re-marking lock the response row first, so a concurrent deletion or
 * re-marking of the same response waits and then sees it as it is. Every writer upserts the
 * shared figure rows in key order; a deadlock that still happens is retried.
 */
export function postgresResponseWrites(pool: pg.Pool): ResponseWrites {
  const createSql = new Map<string, string>();
  const createStatement = (answers: number, scores: number, items: number, typed: number) => {
    const key = `${answers}/${scores}/${items}/${typed}`;
    let sql = createSql.get(key);
    if (!sql) {
      let n = 0;
      const params = (count: number) => Array.from({ length: count }, () => `$${++n}`).join(', ');
      const response = `INSERT INTO "responses" (${RESPONSE_COLUMNS}) VALUES (${params(11)})`;
      // Answer rows: id, then the values of answerValues; responseId and quizId come from the response.
      const answerRows = Array.from(
        { length: answers },
        () => `(${answerTuple(() => `$${++n}`, '$1', '$2')})`,
      );
      // In the order of the values: items, typed values, then scores.
      const itemRows = Array.from({ length: items }, () => `($2, ${params(10)})`);
      const valueRows = Array.from({ length: typed }, () => `($2, ${params(4)})`);
      const scoreRows = Array.from({ length: scores }, () => `($2, ${params(4)})`);
      sql =
        `WITH r AS (${response} RETURNING "id")` +
        (answers > 0
          ? `, a AS (INSERT INTO "answers" (${ANSWER_COLUMNS}) VALUES ${answerRows.join(', ')})`
          : '') +
        (items > 0
          ? `, i AS (INSERT INTO "result_items" (${ITEM_COLUMNS}) VALUES ${itemRows.join(', ')} ${ITEM_CONFLICT})`
          : '') +
        (typed > 0
          ? `, v AS (INSERT INTO "result_values" ("quizId", "questionId", "value", "num", "count") VALUES ${valueRows.join(', ')} ${VALUE_CONFLICT})`
          : '') +
        ` INSERT INTO "result_scores" ("quizId", "score", "maxScore", "passed", "count") VALUES ${scoreRows.join(', ')} ${SCORE_CONFLICT}`;
      createSql.set(key, sql);
    }
    return { name: `submit_${key}`, text: sql };
  };

  const apply = async (client: pg.PoolClient, quizId: string, deltas: Deltas) => {
    if (deltas.items.length > 0) {
      const rows = deltas.items.map(
        (_, i) => `($1, ${Array.from({ length: 10 }, (_, j) => `$${2 + i * 10 + j}`).join(', ')})`,
      );
      await client.query(
        `INSERT INTO "result_items" (${ITEM_COLUMNS}) VALUES ${rows.join(', ')} ${ITEM_CONFLICT}`,
        [quizId, ...deltas.items.flatMap(itemValues)],
      );
    }
    if (deltas.values.length > 0) {
      const rows = deltas.values.map(
        (_, i) => `($1, $${2 + i * 4}, $${3 + i * 4}, $${4 + i * 4}, $${5 + i * 4})`,
      );
      await client.query(
        `INSERT INTO "result_values" ("quizId", "questionId", "value", "num", "count") VALUES ${rows.join(', ')} ${VALUE_CONFLICT}`,
        [quizId, ...deltas.values.flatMap((d) => [d.questionId, d.value, d.num, d.count])],
      );
    }
    if (deltas.scores.length > 0) {
      const rows = deltas.scores.map(
        (_, i) => `($1, $${2 + i * 4}, $${3 + i * 4}, $${4 + i * 4}, $${5 + i * 4})`,
      );
      await client.query(
        `INSERT INTO "result_scores" ("quizId", "score", "maxScore", "passed", "count") VALUES ${rows.join(', ')} ${SCORE_CONFLICT}`,
        [quizId, ...deltas.scores.flatMap((d) => [d.score, d.maxScore, d.passed, d.count])],
      );
    }
    for (const sql of DROP_EMPTY('$1')) await client.query(sql, [quizId]);
  };

  /** Locks the response (FOR UPDATE) and reads it with its answers as they are now. */
  const lockStored = async (client: pg.PoolClient, quizId: string, responseId: string) => {
    const response = (
      await client.query<{ score: number; maxScore: number; percent: number | null; passed: boolean | null }>(
        'SELECT "score", "maxScore", "percent", "passed" FROM "responses" WHERE "id" = $1 AND "quizId" = $2 FOR UPDATE',
        [responseId, quizId],
      )
    ).rows[0];
    if (!response) return null;
    const answers = (await client.query<StoredAnswer>(`${STORED_ANSWER}$1`, [responseId])).rows;
    return { ...response, answers };
  };

  /** The lock a submission's foreign key takes on its quiz: a recomputation waits for it. */
  const holdQuiz = (client: pg.PoolClient, quizId: string) =>
    client.query('SELECT 1 FROM "quizzes" WHERE "id" = $1 FOR KEY SHARE', [quizId]);

  async function inTransaction<R>(fn: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    for (let attempt = 1; ; attempt += 1) {
      const client = await pool.connect();
      try {
        await client.query('BEGIN');
        const result = await fn(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        if ((error as { code?: unknown }).code !== DEADLOCK || attempt >= 5) throw error;
      } finally {
        client.release();
      }
    }
  }

  return {
    async create(row, at = new Date(), event, limit) {
      const deltas = deltasOf([{ response: row, sign: 1 }]);
      const id = newId(at.getTime());
      const values: unknown[] = [
        id,
        row.quizId,
        row.quizVersion,
        row.respondentName,
        row.respondentEmail,
        row.score,
        row.maxScore,
        row.percent,
        row.passed,
        at.toISOString().replace('T', ' ').replace('Z', ''), // timestamp(3) without zone, in UTC
        row.timeUp ?? false,
      ];
      for (const answer of row.answers) values.push(newId(at.getTime()), ...answerValues(answer));
      for (const delta of deltas.items) values.push(...itemValues(delta));
      for (const delta of deltas.values) values.push(delta.questionId, delta.value, delta.num, delta.count);
      for (const delta of deltas.scores) values.push(delta.score, delta.maxScore, delta.passed, delta.count);
      const statement = createStatement(
        row.answers.length,
        deltas.scores.length,
        deltas.items.length,
        deltas.values.length,
      );
      try {
        if (!event && !limit) {
          // One statement: atomic by itself, one round trip.
          for (let attempt = 1; ; attempt += 1) {
            try {
              await pool.query({ ...statement, values });
              return id;
            } catch (error) {
              if ((error as { code?: unknown }).code !== DEADLOCK || attempt >= 5) throw error;
            }
          }
        }
        // With a webhook event, its outbox rows commit in the same transaction.
        const outbox =
          event && outboxStatement('postgresql', event({ id, submittedAt: at }), pgTimestamp(at));
        await inTransaction(async (client) => {
          if (limit) {
            // Submissions under one email to one quiz queue here until the holder commits, so
            // each count sees the responses stored before it.
            await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [
              `response-email:${row.quizId}:${limit.email}`,
            ]);
            const used = Number(
              (
                await client.query<{ used: string }>(
                  'SELECT COUNT(*) AS "used" FROM "responses" WHERE "quizId" = $1 AND "respondentEmail" = $2',
                  [row.quizId, limit.email],
                )
              ).rows[0]?.used ?? 0,
            );
            if (used >= limit.max) throw new PerEmailLimitReached(used);
          }
          await client.query({ ...statement, values });
          if (outbox) await client.query(outbox.text, outbox.values);
        });
        return id;
      } catch (error) {
        if ((error as { code?: unknown }).code === '23503') return null; // the quiz is gone
        throw error;
      }
    },
    createMany: (rows) =>
      inTransaction(async (client) => {
        const byQuiz = new Map<string, Array<{ response: ContributingResponse; sign: 1 }>>();
        // In chunks that keep each statement under PostgreSQL's 65,535 parameters.
        for (let from = 0; from < rows.length; from += 1000) {
          const chunk = rows.slice(from, from + 1000);
          const responseValues: unknown[] = [];
          const answerValuesList: unknown[] = [];
          for (const { row, at } of chunk) {
            const id = newId(at.getTime());
            responseValues.push(
              id,
              row.quizId,
              row.quizVersion,
              row.respondentName,
              row.respondentEmail,
              row.score,
              row.maxScore,
              row.percent,
              row.passed,
              at.toISOString().replace('T', ' ').replace('Z', ''),
              row.timeUp ?? false,
            );
            for (const answer of row.answers)
              answerValuesList.push(newId(at.getTime()), id, row.quizId, ...answerValues(answer));
            const changes = byQuiz.get(row.quizId) ?? [];
            byQuiz.set(row.quizId, changes);
            changes.push({ response: row, sign: 1 });
          }
          const tuples = (values: unknown[], width: number) =>
            Array.from(
              { length: values.length / width },
              (_, i) => `(${Array.from({ length: width }, (_, j) => `$${i * width + j + 1}`).join(', ')})`,
            ).join(', ');
          const answerTuples = (values: unknown[]) => {
            let n = 0;
            return Array.from(
              { length: values.length / ANSWER_WIDTH },
              () => `(${answerTuple(() => `$${++n}`)})`,
            ).join(', ');
          };
          await client.query(
            `INSERT INTO "responses" (${RESPONSE_COLUMNS}) VALUES ${tuples(responseValues, 11)}`,
            responseValues,
          );
          for (let at = 0; at < answerValuesList.length; at += ANSWER_WIDTH * 4000) {
            const part = answerValuesList.slice(at, at + ANSWER_WIDTH * 4000);
            await client.query(
              `INSERT INTO "answers" (${ANSWER_COLUMNS}) VALUES ${answerTuples(part)}`,
              part,
            );
          }
        }
        for (const [quizId, changes] of byQuiz) await apply(client, quizId, deltasOf(changes));
        return rows.length;
      }),
    delete: (quizId, responseId, event) =>
      inTransaction(async (client) => {
        await holdQuiz(client, quizId);
        const current = await lockStored(client, quizId, responseId);
        if (!current) return false;
        await client.query('DELETE FROM "responses" WHERE "id" = $1', [responseId]); // answers go by cascade
        await apply(client, quizId, deltasOf([{ response: current, sign: -1 }]));
        if (event) {
          const outbox = outboxStatement('postgresql', event, pgTimestamp(event.at));
          await client.query(outbox.text, outbox.values);
        }
        return true;
      }),
    applyRemarks: (quizId, remarks, at) =>
      inTransaction(async (client) => {
        await holdQuiz(client, quizId);
        const changes: Array<{ response: ContributingResponse; sign: 1 | -1 }> = [];
        for (const change of remarks) {
          const current = await lockStored(client, quizId, change.responseId);
          if (!current) continue; // deleted meanwhile
          for (const answer of change.answers) {
            await client.query(
              'UPDATE "answers" SET "points" = $1, "maxPoints" = $2 WHERE "id" = $3 AND "responseId" = $4',
              [answer.points, answer.maxPoints, answer.id, change.responseId],
            );
          }
          await client.query(
            'UPDATE "responses" SET "score" = $1, "maxScore" = $2, "percent" = $3, "passed" = $4, "remarkedAt" = $5, ' +
              '"originalScore" = COALESCE("originalScore", "score"), "originalMaxScore" = COALESCE("originalMaxScore", "maxScore") ' +
              'WHERE "id" = $6',
            [
              change.score,
              change.maxScore,
              change.percent,
              change.passed,
              at.toISOString().replace('T', ' ').replace('Z', ''),
              change.responseId,
            ],
          );
          changes.push({ response: current, sign: -1 }, { response: remarked(current, change), sign: 1 });
        }
        await apply(client, quizId, deltasOf(changes));
        return changes.length / 2;
      }),
    async recompute(quizId) {
      const ids =
        quizId === undefined
          ? (await pool.query<{ id: string }>('SELECT "id" FROM "quizzes" ORDER BY "id"')).rows.map(
              (row) => row.id,
            )
          : [quizId];
      let done = 0;
      for (const id of ids) {
        done += await inTransaction(async (client) => {
          // Submissions take a key-share lock on the quiz row (their foreign key), and deletions
          // and re-marks take it first: this waits for those under way and holds new ones until
          // the figures are rebuilt.
          const found = await client.query('SELECT 1 FROM "quizzes" WHERE "id" = $1 FOR UPDATE', [id]);
          if (found.rowCount === 0) return 0;
          for (const sql of recomputeStatements('postgresql')) await client.query(sql, [id]);
          return 1;
        });
      }
      return done;
    },
    async figures(quizId) {
      const [scores, items, values, bounds] = await Promise.all([
        pool.query({
          name: 'result_scores',
          text: 'SELECT "score", "maxScore", "passed", "count" FROM "result_scores" WHERE "quizId" = $1',
          values: [quizId],
        }),
        pool.query({
          name: 'result_items',
          text: `SELECT ${ITEM_READ} FROM "result_items" WHERE "quizId" = $1`,
          values: [quizId],
        }),
        pool.query({
          name: 'result_values',
          text: 'SELECT "questionId", "value", "num", "count" FROM "result_values" WHERE "quizId" = $1',
          values: [quizId],
        }),
        pool.query({
          name: 'result_bounds',
          text:
            `SELECT (SELECT "submittedAt" AT TIME ZONE 'UTC' FROM "responses" WHERE "quizId" = $1 ORDER BY "submittedAt" ASC LIMIT 1) AS "first", ` +
            `(SELECT "submittedAt" AT TIME ZONE 'UTC' FROM "responses" WHERE "quizId" = $1 ORDER BY "submittedAt" DESC LIMIT 1) AS "last"`,
          values: [quizId],
        }),
      ]);
      const bound = bounds.rows[0] as { first: Date | null; last: Date | null } | undefined;
      return {
        scores: scores.rows as ResultRows['scores'],
        items: items.rows as ResultRows['items'],
        values: values.rows as ResultRows['values'],
        firstSubmittedAt: toDate(bound?.first),
        lastSubmittedAt: toDate(bound?.last),
      };
    },
    async close() {
      // The pool belongs to the Database and is ended there.
    },
  };
}
