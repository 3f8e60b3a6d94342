import type { LazyOutboxEvent, OutboxEvent } from '../outbox';
import type {
  GradedResponse,
  MarksOf,
  NewResponseRow,
  PerEmailLimit,
  ResponseGrades,
  ResponseRemark,
  SubmissionGuards,
} from '../response-rows';

/** A quiz's running figures as stored (figures.ts reads them). */
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

/** Points inside the writes where a test stops the process. */
export interface WriteHooks {
  /**
   * Called inside a submission's transaction right after its attempt is claimed, before the
   * response is written: the crash test stops the process there (main.ts, NODE_ENV=test only).
   */
  afterClaim?: () => void;
}
