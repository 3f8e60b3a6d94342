import type { Prisma, PrismaClient } from '../../generated/sqlite/client';
import { isUniqueViolation } from '../errors';
import type { QuizReads } from '../quiz-reads';
import { QUIZ_ROW_OMIT, questionsInclude } from '../questions-include';
import type { QuizRow, QuizWithQuestions, StoredJson } from '../quiz-rows';
import { WRITE_TRANSACTION_OPTIONS } from './transactions';
import { olderThanWhere, type KeysetPosition } from './where';
import type { Dialect } from '../dialect';
import { outboxInsert, type OutboxEvent } from './webhooks';
import { deleteUnusedImages, hashesOf, quizImageHashes, syncQuizImages, type ImageWrite } from './images';

/**
 * Quizzes with their questions. The two reads every tool call starts with come from
 * `QuizReads` (raw SQL on the service, docs/decisions/0003-raw-sql-on-the-request-path.md); the
 * rest is Prisma.
 */
export interface QuestionData {
  /** An id to keep (the question it edits); a new one is made when absent. */
  id?: string;
  type: string;
  text: string;
  explanation: string | null;
  /** Its key, in the shape its type's module stores it (domain/question-types/). */
  key: StoredJson;
  /** Its pictures (domain/images/image-ref.ts); null or absent: none. */
  media?: StoredJson | null;
}

/** Settings columns to change; an absent key keeps its value. */
export interface SettingsData {
  acceptingResponses?: boolean;
  showScoreToRespondent?: boolean;
  passMarkPercent?: number | null;
  collectName?: boolean;
  collectEmail?: boolean;
  requireAllAnswers?: boolean;
  showCorrectAnswers?: string;
  allowEmbedding?: boolean;
  mathDollars?: boolean;
  timeLimitMinutes?: number | null;
  opensAt?: Date | null;
  closesAt?: Date | null;
  shuffleQuestions?: boolean;
  shuffleOptions?: boolean;
  questionPoolSize?: number | null;
  maxAttemptsPerEmail?: number | null;
  language?: string;
}

export interface NewQuizRow {
  ownerId: string;
  title: string;
  titleKey: string;
  slug: string;
  description: string | null;
  settings: SettingsData;
  questions: readonly QuestionData[];
  /** New pictures its questions use, and the quota check (images.ts). */
  images?: ImageWrite;
}

export interface QuizChange {
  title?: { title: string; titleKey: string };
  /** Null removes it. */
  description?: string | null;
  settings: SettingsData;
  /**
   * Replaces the question set and counts a new version of the quiz. A question keeps the `id` it
   * carries only if the quiz is still at `basedOnVersion` when the edit runs: ids are chosen
   * against the questions of that version, and another edit in between may have replaced them.
   */
  questions?: readonly QuestionData[];
  basedOnVersion?: number;
  /**
   * The questions worked out from the quiz as the edit finds it, under the edit's lock (so
   * operations on single questions never lose a concurrent edit): ids are kept as given, and the
   * version stays when `keepVersion` (only texts changed: attempts in progress go on).
   */
  questionsFrom?: (current: QuizWithQuestions) => QuestionsEdit;
  /** New pictures the questions use, and the quota check (images.ts). */
  images?: ImageWrite;
}

export interface QuestionsEdit {
  questions: readonly QuestionData[];
  keepVersion: boolean;
}

/** Narrows an owner's list: a piece of the folded title, a status, open or closed. */
export interface QuizListFilter {
  titleKeyContains?: string;
  status?: string;
  acceptingResponses?: boolean;
}

export type ClosingDue = Pick<QuizRow, 'id' | 'ownerId' | 'slug' | 'title'> & { closesAt: Date };

export interface QuizListing extends QuizRow {
  questionCount: number;
  responseCount: number;
}

export interface QuizRepository extends QuizReads {
  /** The new draft, or null when its slug is taken (the caller draws another). */
  create(row: NewQuizRow): Promise<QuizWithQuestions | null>;
  /**
   * Several new drafts in one transaction, all or none (an import split into quizzes); null when
   * a slug is taken (nothing is stored and the caller draws others).
   */
  createMany(rows: readonly NewQuizRow[]): Promise<QuizWithQuestions[] | null>;
  /**
   * Applies a change to the owner's quiz once `allow(current)` returns without throwing; edits of
   * one quiz run one after another, each seeing the state the previous one left. Null when the
   * owner has no such quiz.
   */
  update(
    ownerId: string,
    id: string,
    change: QuizChange,
    allow: (current: Pick<QuizRow, 'status' | 'title'>) => void,
    /** The webhook event of a quiz that stops accepting responses, written in the same transaction. */
    closedEvent?: (quiz: QuizRow) => OutboxEvent,
  ): Promise<QuizWithQuestions | null>;
  /**
   * draft -> published; a quiz already published keeps its first publishedAt. `event` is written
   * with the change, only when this call published it.
   */
  publish(id: string, at: Date, event?: OutboxEvent): Promise<void>;
  byId(id: string): Promise<QuizRow | null>;
  bySlug(slug: string): Promise<QuizWithQuestions | null>;
  /** The id when the owner has a quiz with exactly this id. */
  ownedId(ownerId: string, id: string): Promise<string | null>;
  /** False when the owner has no such quiz (any longer). `event` is written with the deletion. */
  delete(ownerId: string, id: string, event?: OutboxEvent): Promise<boolean>;
  /** The owner's quizzes newest first, with their question and response counts. */
  listByOwner(
    ownerId: string,
    limit: number,
    after?: KeysetPosition,
    filter?: QuizListFilter,
  ): Promise<QuizListing[]>;
  /** How many quizzes the owner has, or has in one status. */
  countByOwner(ownerId: string, status?: QuizRow['status']): Promise<number>;
  /** The quiz's link secret (null until first rotated); undefined when there is no such quiz. */
  linkSecret(id: string): Promise<string | null | undefined>;
  /** Replaces the owner's quiz's link secret; false when the owner has no such quiz. */
  setLinkSecret(ownerId: string, id: string, secret: string): Promise<boolean>;
  /** Whether grade_answers may store final grades for the quiz (the owner's choice on the web); false: no such quiz of theirs. */
  setAssistantGradesFinal(ownerId: string, id: string, on: boolean): Promise<boolean>;
  /**
   * Published quizzes, taking responses, whose closing time passed in (`since`, `now`] while they
   * were published and whose quiz.closed for that time is not written yet; oldest first.
   */
  closingsDue(since: Date, now: Date, limit: number): Promise<ClosingDue[]>;
  /**
   * Marks the quiz's quiz.closed as written for `closesAt` and writes `event`, in one
   * transaction; false (and nothing written) when the quiz no longer closes at that time or its
   * event for it is written already, so concurrent callers write it once.
   */
  markClosed(id: string, closesAt: Date, event: OutboxEvent): Promise<boolean>;
  /** The id, slug and title of the owner's `limit` most recently changed quizzes. */
  titlesByOwner(ownerId: string, limit: number): Promise<Array<Pick<QuizRow, 'id' | 'slug' | 'title'>>>;
}

/** Nested-create data for a question list, positions as given. */
function questionsCreate(
  questions: readonly QuestionData[],
  keepIds = true,
): Prisma.QuestionCreateWithoutQuizInput[] {
  return questions.map((question, position) => ({
    ...(keepIds && question.id ? { id: question.id } : {}),
    position,
    type: question.type,
    text: question.text,
    explanation: question.explanation,
    key: question.key as Prisma.InputJsonObject,
    ...(question.media ? { media: question.media as Prisma.InputJsonObject } : {}),
  }));
}

/** The create arguments of one new draft with its questions. */
function newQuiz(row: NewQuizRow) {
  return {
    data: {
      owner: { connect: { id: row.ownerId } },
      title: row.title,
      titleKey: row.titleKey,
      slug: row.slug,
      description: row.description,
      status: 'draft',
      ...row.settings,
      questions: { create: questionsCreate(row.questions) },
    },
    omit: QUIZ_ROW_OMIT,
    include: questionsInclude,
  } satisfies Prisma.QuizCreateArgs;
}

export function prismaQuizRepository(db: PrismaClient, reads: QuizReads, dialect: Dialect): QuizRepository {
  return {
    ...quizReadMethods(db, reads),
    ...quizWriteMethods(db, dialect),
    ...quizClosingMethods(db, dialect),
  };
}

/** Reading quizzes: by id, slug or owner, their counts and titles, and a quiz's link secret. */
function quizReadMethods(
  db: PrismaClient,
  reads: QuizReads,
): Pick<
  QuizRepository,
  | 'quizCandidates'
  | 'quizWithQuestions'
  | 'quizBySlug'
  | 'titlesByOwner'
  | 'byId'
  | 'bySlug'
  | 'linkSecret'
  | 'ownedId'
  | 'listByOwner'
  | 'countByOwner'
> {
  return {
    quizCandidates: (...args) => reads.quizCandidates(...args),
    quizWithQuestions: (...args) => reads.quizWithQuestions(...args),
    quizBySlug: (...args) => reads.quizBySlug(...args),
    titlesByOwner: (ownerId, limit) =>
      db.quiz.findMany({
        where: { ownerId },
        select: { id: true, slug: true, title: true },
        orderBy: [{ updatedAt: 'desc' }, { id: 'desc' }],
        take: limit,
      }),
    byId: (id) => db.quiz.findUnique({ where: { id }, omit: QUIZ_ROW_OMIT }),
    bySlug: (slug) => reads.quizBySlug(slug),
    async linkSecret(id) {
      const row = await db.quiz.findUnique({ where: { id }, select: { linkSecret: true } });
      return row ? row.linkSecret : undefined;
    },
    async ownedId(ownerId, id) {
      const quiz = await db.quiz.findFirst({ where: { id, ownerId }, select: { id: true } });
      return quiz?.id ?? null;
    },
    async listByOwner(ownerId, limit, after, filter = {}) {
      const rows = await db.quiz.findMany({
        where: {
          ownerId,
          ...(after ? olderThanWhere('createdAt', after) : {}),
          ...(filter.titleKeyContains ? { titleKey: { contains: filter.titleKeyContains } } : {}),
          ...(filter.status ? { status: filter.status } : {}),
          ...(filter.acceptingResponses === undefined
            ? {}
            : { acceptingResponses: filter.acceptingResponses }),
        },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        take: limit,
        include: { _count: { select: { questions: true, responses: true } } },
      });
      return rows.map(({ _count, ...quiz }) => ({
        ...quiz,
        questionCount: _count.questions,
        responseCount: _count.responses,
      }));
    },
    countByOwner: (ownerId, status) => db.quiz.count({ where: { ownerId, ...(status ? { status } : {}) } }),
  };
}

/** Writing quizzes: creating, updating within the owner's rules, publishing, deleting, the owner's settings. */
function quizWriteMethods(
  db: PrismaClient,
  dialect: Dialect,
): Pick<
  QuizRepository,
  'create' | 'createMany' | 'update' | 'publish' | 'setLinkSecret' | 'setAssistantGradesFinal' | 'delete'
> {
  return {
    async create(row) {
      try {
        const wanted = hashesOf(row.questions);
        // A quiz without pictures is one statement, as before.
        if (wanted.size === 0) return await db.quiz.create(newQuiz(row));
        return await db.$transaction(async (tx) => {
          const created = await tx.quiz.create(newQuiz(row));
          await syncQuizImages(tx, dialect, created, wanted, row.images);
          return created;
        }, WRITE_TRANSACTION_OPTIONS);
      } catch (error) {
        if (isUniqueViolation(error, 'slug')) return null;
        throw error;
      }
    },
    async createMany(rows) {
      try {
        return await db.$transaction(async (tx) => {
          const created: QuizWithQuestions[] = [];
          // One after another: a transaction's statements share one connection.
          for (const row of rows) {
            const quiz = await tx.quiz.create(newQuiz(row));
            const wanted = hashesOf(row.questions);
            if (wanted.size > 0) await syncQuizImages(tx, dialect, quiz, wanted, row.images);
            created.push(quiz);
          }
          return created;
        }, WRITE_TRANSACTION_OPTIONS);
      } catch (error) {
        if (isUniqueViolation(error, 'slug')) return null;
        throw error;
      }
    },
    update(ownerId, id, change, allow, closedEvent) {
      return db.$transaction(async (tx) => {
        // Touching the row first takes its write lock, so concurrent edits of one quiz run one
        // after another and each replaces the whole question set (never a mix of two).
        const locked = await tx.quiz.updateMany({
          where: { id, ownerId },
          data: { version: { increment: 0 } },
        });
        if (locked.count === 0) return null;
        const current = await tx.quiz.findUniqueOrThrow({
          where: { id },
          select: { status: true, title: true, version: true, acceptingResponses: true },
        });
        allow({ status: current.status, title: current.title });
        let questions: readonly QuestionData[] | undefined = change.questions;
        let keepIds = change.basedOnVersion !== undefined && current.version === change.basedOnVersion;
        let keepVersion = false;
        if (change.questionsFrom) {
          const found = await tx.quiz.findUniqueOrThrow({ where: { id }, include: questionsInclude });
          ({ questions, keepVersion } = change.questionsFrom(found));
          keepIds = true;
        }
        if (questions) await tx.question.deleteMany({ where: { quizId: id } });
        const updated = await tx.quiz.update({
          where: { id },
          data: {
            ...(change.title ?? {}),
            ...(change.description !== undefined ? { description: change.description } : {}),
            ...change.settings,
            ...(questions && !keepVersion ? { version: { increment: 1 } } : {}),
            ...(questions ? { questions: { create: questionsCreate(questions, keepIds) } } : {}),
          },
          omit: QUIZ_ROW_OMIT,
          include: questionsInclude,
        });
        if (questions) await syncQuizImages(tx, dialect, { id, ownerId }, hashesOf(questions), change.images);
        if (closedEvent && current.acceptingResponses && !updated.acceptingResponses) {
          await outboxInsert(tx, dialect, closedEvent(updated));
        }
        return updated;
      }, WRITE_TRANSACTION_OPTIONS);
    },
    async publish(id, at, event) {
      const publish = (tx: Pick<PrismaClient, 'quiz'>) =>
        tx.quiz.updateMany({
          where: { id, status: 'draft' },
          data: { status: 'published', publishedAt: at },
        });
      if (!event) {
        await publish(db);
        return;
      }
      await db.$transaction(async (tx) => {
        if ((await publish(tx)).count > 0) await outboxInsert(tx, dialect, event);
      }, WRITE_TRANSACTION_OPTIONS);
    },
    async setLinkSecret(ownerId, id, secret) {
      const { count } = await db.quiz.updateMany({ where: { id, ownerId }, data: { linkSecret: secret } });
      return count > 0;
    },
    async setAssistantGradesFinal(ownerId, id, on) {
      const { count } = await db.quiz.updateMany({
        where: { id, ownerId },
        data: { assistantGradesFinal: on },
      });
      return count > 0;
    },
    async delete(ownerId, id, event) {
      return db.$transaction(async (tx) => {
        // Its pictures go with it, unless another quiz uses them too.
        const hashes = await quizImageHashes(tx, id);
        const deleted = (await tx.quiz.deleteMany({ where: { id, ownerId } })).count > 0;
        if (deleted && event) await outboxInsert(tx, dialect, event);
        if (deleted) await deleteUnusedImages(tx, dialect, hashes);
        return deleted;
      }, WRITE_TRANSACTION_OPTIONS);
    },
  };
}

/** Closing at the quiz's time: the closings due, and each one marked with its event. */
function quizClosingMethods(
  db: PrismaClient,
  dialect: Dialect,
): Pick<QuizRepository, 'closingsDue' | 'markClosed'> {
  return {
    async closingsDue(since, now, limit) {
      const rows = await db.quiz.findMany({
        where: {
          status: 'published',
          acceptingResponses: true,
          closesAt: { gt: since, lte: now },
          // Closed while published: a draft whose time passed before publishing never closed.
          publishedAt: { lt: db.quiz.fields.closesAt },
          OR: [
            { closedEventAt: null },
            { closedEventAt: { lt: db.quiz.fields.closesAt } },
            { closedEventAt: { gt: db.quiz.fields.closesAt } },
          ],
        },
        orderBy: [{ closesAt: 'asc' }, { id: 'asc' }],
        take: limit,
        select: { id: true, ownerId: true, slug: true, title: true, closesAt: true },
      });
      return rows.map((row) => ({ ...row, closesAt: row.closesAt! }));
    },
    markClosed(id, closesAt, event) {
      return db.$transaction(async (tx) => {
        // A conditional update, not a read then a write: of two instances, the second finds the
        // row marked (PostgreSQL re-checks the condition once the first commits). Raw, so the
        // quiz's updatedAt stays: noticing a closing time is not an edit.
        const p = dialect.placeholders();
        const [set, quiz, due, other] = [p(), p(), p(), p()];
        const at = dialect.timestamp(closesAt);
        const marked = await tx.$executeRawUnsafe(
          `UPDATE "quizzes" SET "closedEventAt" = ${dialect.timestampParam(set)} WHERE "id" = ${quiz} ` +
            `AND "closesAt" = ${dialect.timestampParam(due)} AND ("closedEventAt" IS NULL OR "closedEventAt" <> ${dialect.timestampParam(other)})`,
          at,
          id,
          at,
          at,
        );
        if (marked === 0) return false;
        await outboxInsert(tx, dialect, event);
        return true;
      }, WRITE_TRANSACTION_OPTIONS);
    },
  };
}
