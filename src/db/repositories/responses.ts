import type { PrismaClient } from '../../generated/sqlite/client';
import type { CreatedResponse, ResponseWrites, ResultRows } from '../response-writes';
export type {
  AnswerGradeChange,
  AnswerGradeRow,
  AnswerHistoryRow,
  GradedResponse,
  GradeState,
  GradingStatus,
  MarksOf,
  NewAnswerRow,
  NewResponseRow,
  ResponseGrades,
  ResponseRemark,
} from '../response-rows';
export type { CreatedResponse, ResultRows } from '../response-writes';
import type {
  AnswerGradeRow,
  AnswerHistoryRow,
  GradedResponse,
  MarksOf,
  NewAnswerRow,
  NewResponseRow,
  PerEmailLimit,
  ResponseGrades,
  ResponseRemark,
  SubmissionGuards,
} from '../response-rows';
import type { LazyOutboxEvent, OutboxEvent } from './webhooks';
import { newerThanWhere, olderThanWhere, type KeysetPosition } from './where';

/**
 * Responses and their answers, and the figures computed from them. A response keeps its own
 * copy of what it answered (question texts, labels, points), so editing a quiz never rewrites it.
 */
export interface AnswerRow extends Omit<NewAnswerRow, 'value' | 'gradeState'> {
  id: string;
  gradeState: string | null;
  /** As stored: read through its question type's module (domain/stored-answer.ts). */
  value: unknown;
}

export interface ResponseRow extends Omit<NewResponseRow, 'answers' | 'timeUp' | 'gradingStatus'> {
  id: string;
  timeUp: boolean;
  /** "pending" while an answer waits for a person's grade. */
  gradingStatus: string;
  submittedAt: Date;
  /** When the owner last re-marked it; null when never. */
  remarkedAt: Date | null;
  /** Its first score and maximum, kept once it is re-marked; null until then. */
  originalScore: number | null;
  originalMaxScore: number | null;
}

export interface RecentResponseRow {
  id: string;
  submittedAt: Date;
  respondentName: string | null;
  score: number;
  maxScore: number;
  quiz: { id: string; title: string };
}

export interface ResponseWithAnswers extends ResponseRow {
  /** In question order. */
  answers: AnswerRow[];
}

/** A typed answer and how often it was given, most often first. */
export interface CommonAnswer {
  value: string | number;
  count: number;
}

export interface EarlierQuestion {
  questionId: string;
  position: number;
  questionText: string;
}

export interface PublicResultRow {
  submittedAt: Date;
  score: number;
  maxScore: number;
  percent: number | null;
  passed: boolean | null;
  timeUp: boolean;
  gradingStatus: string;
  quiz: {
    slug: string;
    title: string;
    showScoreToRespondent: boolean;
    showCorrectAnswers: string;
    acceptingResponses: boolean;
    closesAt: Date | null;
    timeLimitMinutes: number | null;
    allowEmbedding: boolean;
    language: string;
    mathDollars: boolean;
  };
  /** In question order. */
  answers: AnswerRow[];
}

/** How get_results orders a page: by time or by percent, each way. */
export type ResponseOrder = 'time_desc' | 'time_asc' | 'score_asc' | 'score_desc';

/** The last row seen: (submittedAt, id), and its percent in the score orders. */
export interface RankedPosition extends KeysetPosition {
  percent?: number | undefined;
}

/** Which responses a ranked page holds: those with a percent, strictly inside the bounds given. */
export interface PercentBounds {
  below?: number | undefined;
  above?: number | undefined;
}

/** An answer with where it belongs, for the grading (domain/grading/grade-answers.ts). */
export interface GradableAnswerRow extends AnswerRow {
  responseId: string;
  quizId: string;
  submittedAt: Date;
}

/** Which answers wait for a grade: one quiz, optionally one question or one response. */
export interface UngradedQuery {
  questionId?: string | undefined;
  responseId?: string | undefined;
  states: ReadonlyArray<'pending' | 'proposed'>;
  /** Strictly after this answer id (ids grow with submission time, then question order). */
  afterId?: string | undefined;
  limit: number;
}

export interface ResponseRepository {
  /**
   * The new response's id, or null when its quiz is gone (deleted since it was loaded). `event`
   * is its webhook event, built and written in the same transaction when an endpoint takes it.
   */
  create(
    row: NewResponseRow,
    event?: LazyOutboxEvent<CreatedResponse>,
    /** The email's responses counted and the row inserted under one lock (PerEmailLimitReached). */
    limit?: PerEmailLimit,
    /** The attempt claimed (AttemptAlreadySubmitted) and the repeat key taken (SubmissionKeyUsed) in the same transaction. */
    guards?: SubmissionGuards,
  ): Promise<string | null>;
  /** Many responses in one transaction with their figures, each at its own time; how many were stored. */
  createMany(rows: ReadonlyArray<{ row: NewResponseRow; at: Date }>): Promise<number>;
  countForQuiz(quizId: string): Promise<number>;
  countForOwner(ownerId: string): Promise<number>;
  /**
   * The quiz's running figures (kept with every write, so they equal a recomputation from the
   * rows): a few rows per score and per question, whatever the number of responses.
   */
  figures(quizId: string): Promise<ResultRows>;
  /** Rebuilds the running figures of one quiz, or of all, from the rows; how many quizzes it rebuilt. */
  recomputeFigures(quizId?: string): Promise<number>;
  /** The `limit` answers most often typed to one question: its texts, or its numbers (running counts). */
  commonAnswers(
    quizId: string,
    questionId: string,
    column: 'text' | 'number',
    limit: number,
  ): Promise<CommonAnswer[]>;
  /** Newest first, strictly older than `after` when given. */
  newestFirst(quizId: string, limit: number, after?: KeysetPosition): Promise<ResponseWithAnswers[]>;
  /**
   * A page in `order`, after `after` when given (with its percent in the score orders); ties
   * break on (submittedAt, id) the same way. With bounds or a score order, only responses with
   * a percent, strictly inside the bounds.
   */
  ranked(
    quizId: string,
    query: { bounds: PercentBounds; order: ResponseOrder; limit: number; after?: RankedPosition | undefined },
  ): Promise<ResponseWithAnswers[]>;
  /** How many responses have a percent inside `bounds`, and how many have none. */
  percentCounts(quizId: string, bounds: PercentBounds): Promise<{ inside: number; noPercent: number }>;
  /** How many of the quiz's answers wait for a person's grade, and how many hold a proposal to approve. */
  answersToGradeCounts(quizId: string): Promise<{ pending: number; proposed: number }>;
  /** Oldest first, strictly newer than `after` when given (the CSV export's batches). */
  oldestFirst(quizId: string, limit: number, after?: KeysetPosition): Promise<ResponseWithAnswers[]>;
  /** Questions that answers still name but the quiz no longer has, in their old order. */
  earlierQuestions(quizId: string, currentIds: readonly string[]): Promise<EarlierQuestion[]>;
  /** A response of one of the owner's quizzes, or null (another owner's looks the same). */
  owned(ownerId: string, quizId: string, responseId: string): Promise<ResponseRow | null>;
  /** The same, with its answers in question order (the owner's page of one respondent). */
  ownedWithAnswers(ownerId: string, quizId: string, responseId: string): Promise<ResponseWithAnswers | null>;
  /** False when there was no such response (any longer). `event` is written with the deletion. */
  delete(quizId: string, responseId: string, event?: OutboxEvent): Promise<boolean>;
  /** A response under the published quiz at `slug`, with what its public page may need. */
  publicResult(slug: string, responseId: string): Promise<PublicResultRow | null>;
  /** The id of the response under the published quiz at `slug` whose kept link hashes to this, or null. */
  idByResultKey(slug: string, resultKeyHash: string): Promise<string | null>;
  /** The owner's newest responses across all their quizzes, with the quiz each answered. */
  recentForOwner(ownerId: string, limit: number): Promise<RecentResponseRow[]>;
  /** The quiz's responses that answered any of these questions, each with all its answers. */
  answeredAny(quizId: string, questionIds: readonly string[]): Promise<ResponseWithAnswers[]>;
  /**
   * Writes new marks in one transaction: each answer's points, each response's score, and, the
   * first time a response is re-marked, its original score. Returns how many responses changed.
   */
  applyRemarks(quizId: string, remarks: readonly ResponseRemark[], at: Date): Promise<number>;
  /**
   * Grades, approvals and overrides in one transaction with everything they change (answers,
   * answer_grades, answer_history, responses, figures, `graded` events): db/response-writes.ts.
   */
  applyGrades(
    quizId: string,
    grades: readonly ResponseGrades[],
    at: Date,
    marks: MarksOf,
    graded?: LazyOutboxEvent<GradedResponse>,
  ): Promise<GradedResponse[]>;
  /** These answers where they belong to one of the owner's quizzes; another owner's are left out. */
  ownedAnswers(ownerId: string, answerIds: readonly string[]): Promise<GradableAnswerRow[]>;
  /** A quiz's answers waiting for a grade, in answer id order. */
  ungradedAnswers(quizId: string, query: UngradedQuery): Promise<GradableAnswerRow[]>;
  /** The proposed answers of one question (approve them all). */
  proposedAnswerIds(quizId: string, questionId: string): Promise<Array<{ id: string; responseId: string }>>;
  /** The grades of these answers (answer_grades). */
  answerGrades(answerIds: readonly string[]): Promise<AnswerGradeRow[]>;
  /** The history of these answers' points, oldest first (answer_history). */
  answerHistory(answerIds: readonly string[]): Promise<AnswerHistoryRow[]>;
}

const responseColumns = {
  id: true,
  quizId: true,
  quizVersion: true,
  respondentName: true,
  respondentEmail: true,
  score: true,
  maxScore: true,
  percent: true,
  passed: true,
  submittedAt: true,
  remarkedAt: true,
  originalScore: true,
  originalMaxScore: true,
  timeUp: true,
  gradingStatus: true,
} as const;

const answerColumns = {
  id: true,
  questionId: true,
  position: true,
  questionText: true,
  type: true,
  value: true,
  statKey: true,
  statValue: true,
  statNum: true,
  points: true,
  maxPoints: true,
  gradeState: true,
} as const;

const gradableColumns = {
  ...answerColumns,
  responseId: true,
  quizId: true,
  response: { select: { submittedAt: true } },
} as const;

const gradable = <T extends { response: { submittedAt: Date } }>({ response, ...answer }: T) => ({
  ...answer,
  submittedAt: response.submittedAt,
});

const withAnswers = {
  ...responseColumns,
  answers: { orderBy: { position: 'asc' }, select: answerColumns },
} as const;

const ranksBy = (bounds: PercentBounds) => bounds.below !== undefined || bounds.above !== undefined;
const percentWhere = (bounds: PercentBounds) => ({
  not: null,
  ...(bounds.below !== undefined ? { lt: bounds.below } : {}),
  ...(bounds.above !== undefined ? { gt: bounds.above } : {}),
});

/**
 * Reads through Prisma; the writes that change results go through `writes` (raw SQL, each in one
 * transaction with the running figures they change: db/response-writes.ts).
 */
export function prismaResponseRepository(db: PrismaClient, writes: ResponseWrites): ResponseRepository {
  return {
    ...responseWriteMethods(writes),
    ...ownerReadMethods(db),
    ...respondentReadMethods(db),
    ...gradingReadMethods(db),
  };
}

/** The writes, each one transaction of db/response-writes/ with the figures it changes. */
function responseWriteMethods(
  writes: ResponseWrites,
): Pick<
  ResponseRepository,
  'create' | 'createMany' | 'figures' | 'recomputeFigures' | 'delete' | 'applyRemarks' | 'applyGrades'
> {
  return {
    create: (row, event, limit, guards) => writes.create(row, new Date(), event, limit, guards),
    createMany: (rows) => writes.createMany(rows),
    figures: (quizId) => writes.figures(quizId),
    recomputeFigures: (quizId) => writes.recompute(quizId),
    delete: (quizId, responseId, event) => writes.delete(quizId, responseId, event),
    applyRemarks: (quizId, remarks, at) => writes.applyRemarks(quizId, remarks, at),
    applyGrades: (quizId, grades, at, marks, graded) => writes.applyGrades(quizId, grades, at, marks, graded),
  };
}

/** What the owner's pages and exports read: counts, lists in either order, one response, the figures' inputs. */
function ownerReadMethods(
  db: PrismaClient,
): Pick<
  ResponseRepository,
  | 'countForQuiz'
  | 'commonAnswers'
  | 'countForOwner'
  | 'newestFirst'
  | 'ranked'
  | 'percentCounts'
  | 'answersToGradeCounts'
  | 'oldestFirst'
  | 'earlierQuestions'
  | 'owned'
  | 'ownedWithAnswers'
  | 'recentForOwner'
  | 'answeredAny'
> {
  return {
    countForQuiz: (quizId) => db.response.count({ where: { quizId } }),
    async commonAnswers(quizId, questionId, column, limit) {
      // From the running counts of typed values (result_values), top rows by count: bounded by
      // the distinct values given, not by the responses.
      const rows = await db.resultValue.findMany({
        where: { quizId, questionId, ...(column === 'number' ? { value: '' } : { NOT: { value: '' } }) },
        orderBy: [{ count: 'desc' }, column === 'number' ? { num: 'asc' } : { value: 'asc' }],
        take: limit,
        select: { value: true, num: true, count: true },
      });
      return rows.map((row) => ({ value: column === 'number' ? row.num : row.value, count: row.count }));
    },
    countForOwner: (ownerId) => db.response.count({ where: { quiz: { ownerId } } }),
    newestFirst: (quizId, limit, after) =>
      db.response.findMany({
        where: { quizId, ...(after ? olderThanWhere('submittedAt', after) : {}) },
        orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }],
        take: limit,
        select: withAnswers,
      }),
    ranked(quizId, { bounds, order, limit, after }) {
      const direction = order === 'time_desc' || order === 'score_desc' ? 'desc' : 'asc';
      const past = direction === 'desc' ? 'lt' : 'gt';
      const byScore = order === 'score_asc' || order === 'score_desc';
      const position = after
        ? byScore && after.percent !== undefined
          ? {
              OR: [
                { percent: { [past]: after.percent } },
                { percent: after.percent, submittedAt: { [past]: after.at } },
                { percent: after.percent, submittedAt: after.at, id: { [past]: after.id } },
              ],
            }
          : direction === 'desc'
            ? olderThanWhere('submittedAt', after)
            : newerThanWhere('submittedAt', after)
        : {};
      return db.response.findMany({
        where: {
          AND: [
            { quizId, ...(byScore || ranksBy(bounds) ? { percent: percentWhere(bounds) } : {}) },
            position,
          ],
        },
        orderBy: [
          ...(byScore ? [{ percent: direction } as const] : []),
          { submittedAt: direction },
          { id: direction },
        ],
        take: limit,
        select: withAnswers,
      });
    },
    async percentCounts(quizId, bounds) {
      const [inside, noPercent] = await Promise.all([
        db.response.count({ where: { quizId, percent: percentWhere(bounds) } }),
        db.response.count({ where: { quizId, percent: null } }),
      ]);
      return { inside, noPercent };
    },
    async answersToGradeCounts(quizId) {
      // On the (quizId, gradeState) index: a few rows whatever the number of answers.
      const groups = await db.answer.groupBy({
        by: ['gradeState'],
        where: { quizId, gradeState: { in: ['pending', 'proposed'] } },
        _count: { _all: true },
      });
      const count = (state: string) => groups.find((group) => group.gradeState === state)?._count._all ?? 0;
      return { pending: count('pending'), proposed: count('proposed') };
    },
    oldestFirst: (quizId, limit, after) =>
      db.response.findMany({
        where: { quizId, ...(after ? newerThanWhere('submittedAt', after) : {}) },
        orderBy: [{ submittedAt: 'asc' }, { id: 'asc' }],
        take: limit,
        select: withAnswers,
      }),
    async earlierQuestions(quizId, currentIds) {
      const groups = await db.answer.groupBy({
        by: ['questionId'],
        where: { quizId, questionId: { notIn: [...currentIds] } },
        _min: { position: true, questionText: true },
      });
      return groups
        .map((group) => ({
          questionId: group.questionId,
          position: group._min.position ?? 0,
          questionText: group._min.questionText ?? '',
        }))
        .sort((a, b) => a.position - b.position);
    },
    owned: (ownerId, quizId, responseId) =>
      db.response.findFirst({
        where: { id: responseId, quizId, quiz: { ownerId } },
        select: responseColumns,
      }),
    ownedWithAnswers: (ownerId, quizId, responseId) =>
      db.response.findFirst({
        where: { id: responseId, quizId, quiz: { ownerId } },
        select: withAnswers,
      }),
    recentForOwner: (ownerId, limit) =>
      db.response.findMany({
        where: { quiz: { ownerId } },
        orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }],
        take: limit,
        select: {
          id: true,
          submittedAt: true,
          respondentName: true,
          score: true,
          maxScore: true,
          quiz: { select: { id: true, title: true } },
        },
      }),
    answeredAny: (quizId, questionIds) =>
      db.response.findMany({
        where: { quizId, answers: { some: { questionId: { in: [...questionIds] } } } },
        orderBy: [{ submittedAt: 'asc' }, { id: 'asc' }],
        select: withAnswers,
      }),
  };
}

/** What a respondent's result page reads, by the published quiz's slug. */
function respondentReadMethods(db: PrismaClient): Pick<ResponseRepository, 'publicResult' | 'idByResultKey'> {
  return {
    publicResult: (slug, responseId) =>
      db.response.findFirst({
        where: { id: responseId, quiz: { slug, status: 'published' } },
        select: {
          submittedAt: true,
          score: true,
          maxScore: true,
          percent: true,
          passed: true,
          timeUp: true,
          gradingStatus: true,
          quiz: {
            select: {
              slug: true,
              title: true,
              showScoreToRespondent: true,
              showCorrectAnswers: true,
              acceptingResponses: true,
              closesAt: true,
              timeLimitMinutes: true,
              allowEmbedding: true,
              language: true,
              mathDollars: true,
            },
          },
          answers: { select: answerColumns, orderBy: { position: 'asc' } },
        },
      }),
    idByResultKey: async (slug, resultKeyHash) =>
      (
        await db.response.findFirst({
          where: { resultKeyHash, quiz: { slug, status: 'published' } },
          select: { id: true },
        })
      )?.id ?? null,
  };
}

/** What grading by a person reads: the answers to grade, their grades and their history. */
function gradingReadMethods(
  db: PrismaClient,
): Pick<
  ResponseRepository,
  'ownedAnswers' | 'ungradedAnswers' | 'proposedAnswerIds' | 'answerGrades' | 'answerHistory'
> {
  return {
    async ownedAnswers(ownerId, answerIds) {
      if (answerIds.length === 0) return [];
      const rows = await db.answer.findMany({
        where: { id: { in: [...answerIds] }, response: { quiz: { ownerId } } },
        select: gradableColumns,
      });
      return rows.map(gradable);
    },
    async ungradedAnswers(quizId, query) {
      const rows = await db.answer.findMany({
        where: {
          quizId,
          gradeState: { in: [...query.states] },
          ...(query.questionId !== undefined ? { questionId: query.questionId } : {}),
          ...(query.responseId !== undefined ? { responseId: query.responseId } : {}),
          ...(query.afterId !== undefined ? { id: { gt: query.afterId } } : {}),
        },
        orderBy: { id: 'asc' },
        take: query.limit,
        select: gradableColumns,
      });
      return rows.map(gradable);
    },
    proposedAnswerIds: (quizId, questionId) =>
      db.answer.findMany({
        where: { quizId, questionId, gradeState: 'proposed' },
        orderBy: { id: 'asc' },
        select: { id: true, responseId: true },
      }),
    answerGrades: (answerIds) =>
      answerIds.length === 0
        ? Promise.resolve([])
        : db.answerGrade.findMany({ where: { answerId: { in: [...answerIds] } } }),
    answerHistory: (answerIds) =>
      answerIds.length === 0
        ? Promise.resolve([])
        : db.answerHistory.findMany({
            where: { answerId: { in: [...answerIds] } },
            orderBy: [{ at: 'asc' }, { id: 'asc' }],
          }),
  };
}
