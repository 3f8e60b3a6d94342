import type { PrismaClient } from '../../generated/sqlite/client';
import { isForeignKeyViolation } from '../errors';
import { deleteInBatches } from './batches';

/**
 * Attempts: one start of a quiz taken through attempts (domain/attempts/), with the questions
 * drawn and their order, and the one submission it may lead to. The submission claims the
 * attempt in the transaction that stores its response (response-writes.ts, `guards.attempt`).
 */
export interface AttemptLayoutItem {
  /** The question's id. */
  q: string;
  /** Its options' canonical indexes, in the order shown (empty for a question without options). */
  o: number[];
  /**
   * The parts its type names by opaque ids of this attempt, by list name (ordering's "items"):
   * each part's id by canonical index, and the order shown. Absent for the other types.
   */
  p?: Record<string, { ids: string[]; shown: number[] }>;
  /** The values drawn for it by name, for a type that draws its own per attempt. */
  v?: Record<string, number>;
}

export interface NewAttemptRow {
  quizId: string;
  quizVersion: number;
  email: string | null;
  layout: readonly AttemptLayoutItem[];
  startedAt: Date;
  deadline: Date | null;
}

/**
 * The answers saved while an attempt is under way, as the form sends them: each question's raw
 * value by question id (domain/taking/saved-answers.ts reads them).
 */
export interface SavedAnswers {
  name: string;
  email: string;
  answers: Record<string, string>;
}

export interface AttemptRow extends NewAttemptRow {
  id: string;
  submittedAt: Date | null;
  /** Null when nothing was saved, or once the attempt is submitted or its untimed day is over. */
  savedAnswers: SavedAnswers | null;
  savedAt: Date | null;
  responseId: string | null;
  /** Submitted by the server from the saved answers when the time ran out. */
  autoSubmitted: boolean;
}

export interface AttemptRepository {
  /** Null when the quiz is gone. */
  create(row: NewAttemptRow): Promise<AttemptRow | null>;
  byId(id: string): Promise<AttemptRow | null>;
  /** Moves the attempt to a new quiz version with the questions it keeps. */
  rebase(id: string, quizVersion: number, layout: readonly AttemptLayoutItem[]): Promise<void>;
  /** Keeps the answers as saved now; false when the attempt is gone or already submitted. */
  saveAnswers(id: string, saved: SavedAnswers, at: Date): Promise<boolean>;
  byResponseId(responseId: string): Promise<AttemptRow | null>;
  /** Timed attempts not submitted, with saved answers, whose deadline is before `deadlineBefore`: ids, oldest first. */
  dueForTimeUp(deadlineBefore: Date, limit: number): Promise<string[]>;
  /** Forgets saved answers: of one attempt, or of every untimed one started before `startedBefore` and not submitted. */
  clearSaved(id: string): Promise<void>;
  clearSavedUntimed(startedBefore: Date): Promise<number>;
  /** Timed attempts not yet submitted whose deadline is after `deadlineAfter`: those still under way. */
  inProgressCount(quizId: string, deadlineAfter: Date): Promise<number>;
  /** Responses to the quiz stored under this (lower-cased) email. */
  submissionsByEmail(quizId: string, email: string): Promise<number>;
  /**
   * Removes attempts never submitted: timed ones whose deadline is before `deadlineBefore`,
   * untimed ones started before `startedBefore`; `batch` rows per statement. Returns how many.
   */
  deleteUnsubmitted(deadlineBefore: Date, startedBefore: Date, batch: number): Promise<number>;
  /** The response first stored under a repeat key (its hash) for the quiz, with the body hash it came with. */
  keyOwner(quizId: string, keyHash: string): Promise<{ responseId: string; bodyHash: string | null } | null>;
  /** Removes repeat keys taken before `before`, `batch` rows per statement; how many. */
  deleteSubmissionKeys(before: Date, batch: number): Promise<number>;
}

type Stored = {
  id: string;
  quizId: string;
  quizVersion: number;
  email: string | null;
  layout: string;
  startedAt: Date;
  deadline: Date | null;
  submittedAt: Date | null;
  savedAnswers: string | null;
  savedAt: Date | null;
  responseId: string | null;
  autoSubmitted: boolean;
};

const toRow = ({ layout, savedAnswers, ...row }: Stored): AttemptRow => ({
  ...row,
  layout: JSON.parse(layout) as AttemptLayoutItem[],
  savedAnswers: savedAnswers ? (JSON.parse(savedAnswers) as SavedAnswers) : null,
});

export function prismaAttemptRepository(db: PrismaClient): AttemptRepository {
  return {
    async create({ layout, ...row }) {
      try {
        return toRow(await db.attempt.create({ data: { ...row, layout: JSON.stringify(layout) } }));
      } catch (error) {
        if (isForeignKeyViolation(error)) return null;
        throw error;
      }
    },
    async byId(id) {
      const row = await db.attempt.findUnique({ where: { id } });
      return row ? toRow(row) : null;
    },
    async rebase(id, quizVersion, layout) {
      await db.attempt.updateMany({ where: { id }, data: { quizVersion, layout: JSON.stringify(layout) } });
    },
    async saveAnswers(id, saved, at) {
      const { count } = await db.attempt.updateMany({
        where: { id, submittedAt: null },
        data: { savedAnswers: JSON.stringify(saved), savedAt: at },
      });
      return count === 1;
    },
    async byResponseId(responseId) {
      const row = await db.attempt.findFirst({ where: { responseId } });
      return row ? toRow(row) : null;
    },
    async dueForTimeUp(deadlineBefore, limit) {
      const rows = await db.attempt.findMany({
        where: { submittedAt: null, deadline: { lt: deadlineBefore }, savedAnswers: { not: null } },
        select: { id: true },
        orderBy: { deadline: 'asc' },
        take: limit,
      });
      return rows.map((row) => row.id);
    },
    async clearSaved(id) {
      await db.attempt.updateMany({ where: { id }, data: { savedAnswers: null } });
    },
    async clearSavedUntimed(startedBefore) {
      const { count } = await db.attempt.updateMany({
        where: {
          submittedAt: null,
          deadline: null,
          startedAt: { lt: startedBefore },
          savedAnswers: { not: null },
        },
        data: { savedAnswers: null },
      });
      return count;
    },
    inProgressCount: (quizId, deadlineAfter) =>
      db.attempt.count({ where: { quizId, submittedAt: null, deadline: { gt: deadlineAfter } } }),
    submissionsByEmail: (quizId, email) => db.response.count({ where: { quizId, respondentEmail: email } }),
    deleteUnsubmitted(deadlineBefore, startedBefore, batch) {
      const expired = {
        submittedAt: null,
        OR: [{ deadline: { lt: deadlineBefore } }, { deadline: null, startedAt: { lt: startedBefore } }],
      };
      return deleteInBatches(
        batch,
        (take) => db.attempt.findMany({ where: expired, select: { id: true }, take }),
        // Checked again: an attempt submitted meanwhile stays.
        (ids) => db.attempt.deleteMany({ where: { id: { in: ids }, ...expired } }),
      );
    },
    keyOwner: (quizId, keyHash) =>
      db.submissionKey.findUnique({
        where: { quizId_keyHash: { quizId, keyHash } },
        select: { responseId: true, bodyHash: true },
      }),
    deleteSubmissionKeys(before, batch) {
      const old = { createdAt: { lt: before } };
      return deleteInBatches(
        batch,
        (take) =>
          db.submissionKey
            .findMany({ where: old, select: { keyHash: true }, take })
            .then((rows) => rows.map((row) => ({ id: row.keyHash }))),
        (hashes) => db.submissionKey.deleteMany({ where: { keyHash: { in: hashes }, ...old } }),
      );
    },
  };
}
