import type { PrismaClient } from '../../generated/sqlite/client';
import { isForeignKeyViolation } from '../errors';
import { WRITE_TRANSACTION_OPTIONS } from './transactions';
import { dialectOf, outboxInsert, type OutboxEvent } from './webhooks';
import { newerThanWhere, olderThanWhere, type KeysetPosition } from './where';

/**
 * Responses and their answers, and the figures computed from them. A response keeps its own
 * copy of what it answered (question texts, labels, points), so editing a quiz never rewrites it.
 */
export interface NewAnswerRow {
  questionId: string;
  position: number;
  questionText: string;
  type: string;
  choice: string | null;
  optionIndex: number | null;
  /** multiple_choice: the chosen label; multiple_select: the ticked labels, joined. */
  optionLabel: string | null;
  /** multiple_select: the ticked indexes as a JSON array ("[]": none ticked). */
  choices: string | null;
  /** short_text: the text typed; number: the number as written. */
  text: string | null;
  number: number | null;
  points: number;
  maxPoints: number;
}

export interface NewResponseRow {
  quizId: string;
  quizVersion: number;
  respondentName: string | null;
  respondentEmail: string | null;
  score: number;
  maxScore: number;
  percent: number | null;
  passed: boolean | null;
  answers: readonly NewAnswerRow[];
}

export interface AnswerRow extends NewAnswerRow {
  id: string;
}

export interface ResponseRow extends Omit<NewResponseRow, 'answers'> {
  id: string;
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

/** A response's new marks after an answer key was fixed: its answers' and its own. */
export interface ResponseRemark {
  responseId: string;
  answers: ReadonlyArray<{ id: string; points: number; maxPoints: number }>;
  score: number;
  maxScore: number;
  percent: number | null;
  passed: boolean | null;
}

export interface ResponseWithAnswers extends ResponseRow {
  /** In question order. */
  answers: AnswerRow[];
}

export interface ResponseTotals {
  count: number;
  averageScore: number | null;
  averagePercent: number | null;
  highestScore: number | null;
  lowestScore: number | null;
  firstSubmittedAt: Date | null;
  lastSubmittedAt: Date | null;
  passed: number;
  failed: number;
}

/**
 * Answer rows counted by what was answered and what it earned: for choice questions at most
 * one group per choice (per combination ticked, for multiple_select); for typed answers, one
 * per mark given (right, wrong, unanswered), with `typed` counting those answered.
 */
export interface AnswerGroup {
  questionId: string;
  choice: string | null;
  optionIndex: number | null;
  choices: string | null;
  /** What each answer of the group earned. */
  earned: number;
  count: number;
  /** Answers with a typed text or number (short_text, number). */
  typed: number;
  points: number;
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
  quiz: {
    slug: string;
    title: string;
    showScoreToRespondent: boolean;
    showCorrectAnswers: string;
    acceptingResponses: boolean;
    allowEmbedding: boolean;
    language: string;
  };
  /** In question order. */
  answers: AnswerRow[];
}

export interface ResponseRepository {
  /**
   * The new response's id, or null when its quiz is gone (deleted since it was loaded). `event`
   * builds its webhook event, written in the same transaction for the endpoints that take it.
   */
  create(
    row: NewResponseRow,
    event?: (created: { id: string; submittedAt: Date }) => OutboxEvent,
  ): Promise<string | null>;
  countForQuiz(quizId: string): Promise<number>;
  countForOwner(ownerId: string): Promise<number>;
  totals(quizId: string): Promise<ResponseTotals>;
  answerGroups(quizId: string, questionIds: readonly string[]): Promise<AnswerGroup[]>;
  /** The `limit` answers most often typed to one question: its texts, or its numbers. */
  commonAnswers(
    quizId: string,
    questionId: string,
    column: 'text' | 'number',
    limit: number,
  ): Promise<CommonAnswer[]>;
  /** How many responses got each score, lowest first. */
  scoreCounts(quizId: string): Promise<Array<{ score: number; count: number }>>;
  /** Newest first, strictly older than `after` when given. */
  newestFirst(quizId: string, limit: number, after?: KeysetPosition): Promise<ResponseWithAnswers[]>;
  /** Oldest first, strictly newer than `after` when given (the CSV export's batches). */
  oldestFirst(quizId: string, limit: number, after?: KeysetPosition): Promise<ResponseWithAnswers[]>;
  /** Questions that answers still name but the quiz no longer has, in their old order. */
  earlierQuestions(quizId: string, currentIds: readonly string[]): Promise<EarlierQuestion[]>;
  /** A response of one of the owner's quizzes, or null (another owner's looks the same). */
  owned(ownerId: string, quizId: string, responseId: string): Promise<ResponseRow | null>;
  /** False when there was no such response (any longer). `event` is written with the deletion. */
  delete(quizId: string, responseId: string, event?: OutboxEvent): Promise<boolean>;
  /** A response under the published quiz at `slug`, with what its public page may need. */
  publicResult(slug: string, responseId: string): Promise<PublicResultRow | null>;
  /** The owner's newest responses across all their quizzes, with the quiz each answered. */
  recentForOwner(ownerId: string, limit: number): Promise<RecentResponseRow[]>;
  /** The quiz's responses that answered any of these questions, each with all its answers. */
  answeredAny(quizId: string, questionIds: readonly string[]): Promise<ResponseWithAnswers[]>;
  /**
   * Writes new marks in one transaction: each answer's points, each response's score, and, the
   * first time a response is re-marked, its original score. Returns how many responses changed.
   */
  applyRemarks(quizId: string, remarks: readonly ResponseRemark[], at: Date): Promise<number>;
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
} as const;

const answerColumns = {
  id: true,
  questionId: true,
  position: true,
  questionText: true,
  type: true,
  choice: true,
  optionIndex: true,
  optionLabel: true,
  choices: true,
  text: true,
  number: true,
  points: true,
  maxPoints: true,
} as const;

const withAnswers = {
  ...responseColumns,
  answers: { orderBy: { position: 'asc' }, select: answerColumns },
} as const;

export function prismaResponseRepository(db: PrismaClient): ResponseRepository {
  const dialect = dialectOf(db);
  return {
    async create({ answers, ...row }, event) {
      const data = {
        ...row,
        answers: { create: answers.map((answer) => ({ ...answer, quizId: row.quizId })) },
      };
      try {
        if (!event) return (await db.response.create({ data, select: { id: true } })).id;
        // The webhook outbox row commits with the response or not at all (one statement, which
        // writes nothing when the owner has no endpoint for it).
        return await db.$transaction(async (tx) => {
          const created = await tx.response.create({ data, select: { id: true, submittedAt: true } });
          await outboxInsert(tx, dialect, event(created));
          return created.id;
        }, WRITE_TRANSACTION_OPTIONS);
      } catch (error) {
        if (isForeignKeyViolation(error)) return null;
        throw error;
      }
    },
    countForQuiz: (quizId) => db.response.count({ where: { quizId } }),
    countForOwner: (ownerId) => db.response.count({ where: { quiz: { ownerId } } }),
    async totals(quizId) {
      const [totals, passGroups] = await Promise.all([
        db.response.aggregate({
          where: { quizId },
          _count: { _all: true },
          _avg: { score: true, percent: true },
          _max: { score: true, submittedAt: true },
          _min: { score: true, submittedAt: true },
        }),
        // One grouped count gives both the passes and the graded responses (passed not null).
        db.response.groupBy({ by: ['passed'], where: { quizId }, _count: { _all: true } }),
      ]);
      const countOf = (passed: boolean) =>
        passGroups.find((group) => group.passed === passed)?._count._all ?? 0;
      return {
        count: totals._count._all,
        averageScore: totals._avg.score,
        averagePercent: totals._avg.percent,
        highestScore: totals._max.score,
        lowestScore: totals._min.score,
        firstSubmittedAt: totals._min.submittedAt,
        lastSubmittedAt: totals._max.submittedAt,
        passed: countOf(true),
        failed: countOf(false),
      };
    },
    async answerGroups(quizId, questionIds) {
      const groups = await db.answer.groupBy({
        by: ['questionId', 'choice', 'optionIndex', 'choices', 'points'],
        where: { quizId, questionId: { in: [...questionIds] } },
        _count: { _all: true, text: true },
        _sum: { points: true },
      });
      return groups.map((group) => ({
        questionId: group.questionId,
        choice: group.choice,
        optionIndex: group.optionIndex,
        choices: group.choices,
        earned: group.points,
        count: group._count._all,
        typed: group._count.text,
        points: group._sum.points ?? 0,
      }));
    },
    async commonAnswers(quizId, questionId, column, limit) {
      if (column === 'number') {
        const groups = await db.answer.groupBy({
          by: ['number'],
          where: { quizId, questionId, number: { not: null } },
          _count: { _all: true },
          orderBy: [{ _count: { number: 'desc' } }, { number: 'asc' }],
          take: limit,
        });
        return groups.map((group) => ({ value: group.number ?? 0, count: group._count._all }));
      }
      const groups = await db.answer.groupBy({
        by: ['text'],
        where: { quizId, questionId, text: { not: null } },
        _count: { _all: true },
        orderBy: [{ _count: { text: 'desc' } }, { text: 'asc' }],
        take: limit,
      });
      return groups.map((group) => ({ value: group.text ?? '', count: group._count._all }));
    },
    async scoreCounts(quizId) {
      const groups = await db.response.groupBy({
        by: ['score'],
        where: { quizId },
        _count: { _all: true },
        orderBy: { score: 'asc' },
      });
      return groups.map((group) => ({ score: group.score, count: group._count._all }));
    },
    newestFirst: (quizId, limit, after) =>
      db.response.findMany({
        where: { quizId, ...(after ? olderThanWhere('submittedAt', after) : {}) },
        orderBy: [{ submittedAt: 'desc' }, { id: 'desc' }],
        take: limit,
        select: withAnswers,
      }),
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
    async delete(quizId, responseId, event) {
      return db.$transaction(async (tx) => {
        await tx.answer.deleteMany({ where: { responseId, quizId } });
        const deleted = await tx.response.deleteMany({ where: { id: responseId, quizId } });
        if (deleted.count > 0 && event) await outboxInsert(tx, dialect, event);
        return deleted.count > 0;
      }, WRITE_TRANSACTION_OPTIONS);
    },
    publicResult: (slug, responseId) =>
      db.response.findFirst({
        where: { id: responseId, quiz: { slug, status: 'published' } },
        select: {
          submittedAt: true,
          score: true,
          maxScore: true,
          percent: true,
          passed: true,
          quiz: {
            select: {
              slug: true,
              title: true,
              showScoreToRespondent: true,
              showCorrectAnswers: true,
              acceptingResponses: true,
              allowEmbedding: true,
              language: true,
            },
          },
          answers: { select: answerColumns, orderBy: { position: 'asc' } },
        },
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
    applyRemarks(quizId, remarks, at) {
      return db.$transaction(async (tx) => {
        let changed = 0;
        for (const remark of remarks) {
          const current = await tx.response.findFirst({
            where: { id: remark.responseId, quizId },
            select: { score: true, maxScore: true, originalScore: true },
          });
          if (!current) continue; // deleted meanwhile
          for (const answer of remark.answers) {
            await tx.answer.updateMany({
              where: { id: answer.id, responseId: remark.responseId },
              data: { points: answer.points, maxPoints: answer.maxPoints },
            });
          }
          await tx.response.update({
            where: { id: remark.responseId },
            data: {
              score: remark.score,
              maxScore: remark.maxScore,
              percent: remark.percent,
              passed: remark.passed,
              remarkedAt: at,
              ...(current.originalScore === null
                ? { originalScore: current.score, originalMaxScore: current.maxScore }
                : {}),
            },
          });
          changed += 1;
        }
        return changed;
      }, WRITE_TRANSACTION_OPTIONS);
    },
  };
}
