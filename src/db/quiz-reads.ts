import type BetterSqlite3 from 'better-sqlite3';
import type pg from 'pg';
import type { PrismaClient } from '../generated/sqlite/client';
import { pgTypes, readDate } from './dialect';
import { QUIZ_ROW_OMIT, questionsInclude } from './questions-include';
import type { QuizWithQuestions } from './quiz-rows';
import { NO_SNAPSHOT_CACHE, type SnapshotCache } from './snapshot-cache';

/**
 * The reads every quiz tool call starts with (resolving a reference, loading the quiz with its
 * questions). The service answers them through the raw driver, because Prisma's
 * query compiler costs more than these queries themselves and they run on every call
 * (docs/decisions/0003-raw-sql-on-the-request-path.md). `prismaQuizReads` is the same contract
 * written the plain way: the reference that tests/db/read-contract.test.ts holds the raw
 * versions to, field by field, on both databases and under a non-UTC time zone.
 */
export interface QuizCandidate {
  id: string;
  slug: string;
  title: string;
}

export interface QuizReads {
  /** The owner's quizzes whose ID, slug or title key equals the reference: ID, slug, then title matches oldest first. */
  quizCandidates(ownerId: string, wanted: string, titleKey: string, limit: number): Promise<QuizCandidate[]>;
  quizWithQuestions(ownerId: string, id: string): Promise<QuizWithQuestions | null>;
  /** The quiz behind a public slug, whoever owns it, with its questions (every submission reads it). */
  quizBySlug(slug: string): Promise<QuizWithQuestions | null>;
}

type Row = Record<string, unknown>;

// One indexed lookup per way of naming a quiz, ID first, then slug, then title: an OR over the
// three columns makes SQLite walk all the owner's quizzes in creation order (a cost that grows
// with each quiz), this costs the same at any count, and the limit can never crowd
// out an ID or slug match. Its values come from candidateValues, in the placeholders' order.
// The limit is written into the statement, not bound: SQLite re-plans a statement on every
// run when its LIMIT is a parameter (the planner reads the value), which tripled its cost.
const CANDIDATES = (p: (n: number) => string, limit: number) => {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new RangeError(`bad candidate limit ${limit}`);
  const columns = '"id", "slug", "title", "createdAt"';
  return (
    `SELECT "id", "slug", "title" FROM (` +
    `SELECT 0 AS "rank", ${columns} FROM "quizzes" WHERE "id" = ${p(1)} AND "ownerId" = ${p(2)} UNION ALL ` +
    `SELECT 1 AS "rank", ${columns} FROM "quizzes" WHERE "slug" = ${p(3)} AND "ownerId" = ${p(4)} UNION ALL ` +
    `SELECT 2 AS "rank", ${columns} FROM "quizzes" WHERE "ownerId" = ${p(5)} AND "titleKey" = ${p(6)}` +
    `) AS "candidates" ORDER BY "rank" ASC, "createdAt" ASC, "id" ASC LIMIT ${limit}`
  );
};
const candidateValues = (ownerId: string, wanted: string, titleKey: string) => [
  wanted,
  ownerId,
  wanted,
  ownerId,
  ownerId,
  titleKey,
];
const QUIZ = (p: (n: number) => string) =>
  `SELECT * FROM "quizzes" WHERE "id" = ${p(1)} AND "ownerId" = ${p(2)}`;
const QUIZ_BY_SLUG = (p: (n: number) => string) => `SELECT * FROM "quizzes" WHERE "slug" = ${p(1)}`;
// Question columns under names of their own, so that the PostgreSQL read can carry them next to
// the quiz's in one row (toQuiz reads both shapes).
const QUESTION_COLUMNS =
  `q."id" AS "questionId", q."position" AS "questionPosition", q."type" AS "questionType", q."text" AS "questionText", ` +
  `q."explanation" AS "questionExplanation", q."key" AS "questionKey", q."media" AS "questionMedia"`;
const QUESTIONS = (p: (n: number) => string) =>
  `SELECT ${QUESTION_COLUMNS} FROM "questions" q WHERE q."quizId" = ${p(1)} ORDER BY q."position"`;
/** The quiz and its questions in one round trip: one row per question (or one row for a quiz without questions). */
const QUIZ_WITH_QUESTIONS = (p: (n: number) => string) =>
  `SELECT z.*, ${QUESTION_COLUMNS} FROM "quizzes" z LEFT JOIN "questions" q ON q."quizId" = z."id" ` +
  `WHERE z."id" = ${p(1)} AND z."ownerId" = ${p(2)} ORDER BY q."position"`;
const SLUG_WITH_QUESTIONS = (p: (n: number) => string) =>
  `SELECT z.*, ${QUESTION_COLUMNS} FROM "quizzes" z LEFT JOIN "questions" q ON q."quizId" = z."id" ` +
  `WHERE z."slug" = ${p(1)} ORDER BY q."position"`;

const dateOrNull = readDate;
const date = (value: unknown): Date => dateOrNull(value)!;
const bool = (value: unknown): boolean => value === true || value === 1 || value === 1n;
const numberOrNull = (value: unknown): number | null =>
  value === null || value === undefined ? null : Number(value);
const textOrNull = (value: unknown): string | null =>
  value === null || value === undefined ? null : String(value);

/**
 * A JSON column as the driver hands it over: text on SQLite, already parsed from jsonb by
 * node-postgres. Its shape is the question type's to check (domain/question-types/).
 */
const postgresJson = (value: unknown): unknown => value;

/** Characters of JSON text the parsed keys below may hold, oldest out first. */
const PARSED_KEYS_BUDGET = 1_000_000;

/**
 * SQLite's JSON text, parsed once per distinct text and frozen. Every submission commits, which
 * empties the snapshot cache, so the quiz it reads next is read again: its keys come back as the
 * same objects, and the question types' check of a key (toScorable) is kept with the object.
 */
function parsedJson(budget = PARSED_KEYS_BUDGET): (value: unknown) => unknown {
  const parsed = new Map<string, unknown>();
  let total = 0;
  return (value) => {
    if (typeof value !== 'string') return value;
    let json = parsed.get(value);
    if (json === undefined) {
      json = deepFreeze(JSON.parse(value));
      parsed.set(value, json);
      total += value.length;
      for (const [text] of parsed) {
        if (total <= budget) break;
        parsed.delete(text);
        total -= text.length;
      }
    }
    return json;
  };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

function toQuiz(row: Row, rows: Row[], json: (value: unknown) => unknown): QuizWithQuestions {
  const questions: QuizWithQuestions['questions'] = [];
  for (const r of rows) {
    if (r.questionId === null || r.questionId === undefined) continue; // a quiz without questions
    questions.push({
      id: String(r.questionId),
      quizId: String(row.id),
      position: Number(r.questionPosition),
      type: String(r.questionType),
      text: String(r.questionText),
      explanation: textOrNull(r.questionExplanation),
      key: json(r.questionKey),
      media: r.questionMedia === null || r.questionMedia === undefined ? null : json(r.questionMedia),
    });
  }
  return {
    id: String(row.id),
    ownerId: String(row.ownerId),
    title: String(row.title),
    titleKey: String(row.titleKey),
    slug: String(row.slug),
    status: String(row.status),
    version: Number(row.version),
    publishedAt: dateOrNull(row.publishedAt),
    createdAt: date(row.createdAt),
    updatedAt: date(row.updatedAt),
    acceptingResponses: bool(row.acceptingResponses),
    showScoreToRespondent: bool(row.showScoreToRespondent),
    passMarkPercent: numberOrNull(row.passMarkPercent),
    collectName: bool(row.collectName),
    collectEmail: bool(row.collectEmail),
    requireAllAnswers: bool(row.requireAllAnswers),
    description: textOrNull(row.description),
    showCorrectAnswers: String(row.showCorrectAnswers),
    allowEmbedding: bool(row.allowEmbedding),
    mathDollars: bool(row.mathDollars),
    timeLimitMinutes: numberOrNull(row.timeLimitMinutes),
    opensAt: dateOrNull(row.opensAt),
    closesAt: dateOrNull(row.closesAt),
    shuffleQuestions: bool(row.shuffleQuestions),
    shuffleOptions: bool(row.shuffleOptions),
    questionPoolSize: numberOrNull(row.questionPoolSize),
    maxAttemptsPerEmail: numberOrNull(row.maxAttemptsPerEmail),
    language: String(row.language),
    assistantGradesFinal: bool(row.assistantGradesFinal),
    questions,
  };
}

/** Statements prepared on first use (the database may be opened before it is migrated). */
export function sqliteQuizReads(
  connection: () => BetterSqlite3.Database,
  snapshot: SnapshotCache = NO_SNAPSHOT_CACHE,
): QuizReads {
  const q = () => '?';
  const sqliteJson = parsedJson();
  // Statements by key, each SQL text built once (not per call: hashing a rebuilt 300-character
  // key on every lookup showed in profiles).
  const statements = new Map<string | number, BetterSqlite3.Statement>();
  const prepared = (key: string | number, sql: () => string) => {
    let statement = statements.get(key);
    if (!statement) statements.set(key, (statement = connection().prepare(sql())));
    return statement;
  };
  return {
    async quizCandidates(ownerId, wanted, titleKey, limit) {
      const candidates = () =>
        prepared(limit, () => CANDIDATES(q, limit)).all(
          ...candidateValues(ownerId, wanted, titleKey),
        ) as QuizCandidate[];
      return snapshot.read(JSON.stringify(['c', limit, ownerId, wanted, titleKey]), candidates)!;
    },
    async quizWithQuestions(ownerId, id) {
      // The owner's ID cannot hold a NUL; whatever the caller's `id` holds comes last.
      return snapshot.read(`q\0${ownerId}\0${id}`, () => {
        const row = prepared('quiz', () => QUIZ(q)).get(id, ownerId) as Row | undefined;
        if (!row) return null;
        return toQuiz(row, prepared('questions', () => QUESTIONS(q)).all(id) as Row[], sqliteJson);
      });
    },
    async quizBySlug(slug) {
      return snapshot.read(`s\0${slug}`, () => {
        const row = prepared('slug', () => QUIZ_BY_SLUG(q)).get(slug) as Row | undefined;
        if (!row) return null;
        return toQuiz(row, prepared('questions', () => QUESTIONS(q)).all(row.id) as Row[], sqliteJson);
      });
    },
  };
}

export function postgresQuizReads(pool: pg.Pool): QuizReads {
  const p = (n: number) => `$${n}`;
  const query = async (name: string, text: string, values: unknown[]) =>
    (await pool.query<Row>({ name, text, values, types: pgTypes })).rows;
  return {
    async quizCandidates(ownerId, wanted, titleKey, limit) {
      return (await query(
        `quiz_candidates_${limit}`,
        CANDIDATES(p, limit),
        candidateValues(ownerId, wanted, titleKey),
      )) as unknown as QuizCandidate[];
    },
    async quizWithQuestions(ownerId, id) {
      const rows = await query('quiz_with_questions', QUIZ_WITH_QUESTIONS(p), [id, ownerId]);
      return rows[0] ? toQuiz(rows[0], rows, postgresJson) : null;
    },
    async quizBySlug(slug) {
      const rows = await query('quiz_by_slug', SLUG_WITH_QUESTIONS(p), [slug]);
      return rows[0] ? toQuiz(rows[0], rows, postgresJson) : null;
    },
  };
}

/** The same reads through Prisma: the readable reference for the raw versions above. */
export function prismaQuizReads(db: PrismaClient): QuizReads {
  const select = { id: true, slug: true, title: true } as const;
  return {
    async quizCandidates(ownerId, wanted, titleKey, limit) {
      const [byId, bySlug, byTitle] = await Promise.all([
        db.quiz.findFirst({ where: { ownerId, id: wanted }, select }),
        db.quiz.findFirst({ where: { ownerId, slug: wanted }, select }),
        db.quiz.findMany({
          where: { ownerId, titleKey },
          select,
          orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
          take: limit,
        }),
      ]);
      return [...(byId ? [byId] : []), ...(bySlug ? [bySlug] : []), ...byTitle].slice(0, limit);
    },
    async quizWithQuestions(ownerId, id) {
      return db.quiz.findFirst({ where: { id, ownerId }, omit: QUIZ_ROW_OMIT, include: questionsInclude });
    },
    async quizBySlug(slug) {
      return db.quiz.findUnique({ where: { slug }, omit: QUIZ_ROW_OMIT, include: questionsInclude });
    },
  };
}
