import type { StoredJson } from './quiz-rows';

/** The rows a response is written from: shared by the repository and the raw writers (db/response-writes.ts). */
export interface NewAnswerRow {
  questionId: string;
  position: number;
  questionText: string;
  type: string;
  /** What was answered, in its question type's own shape (domain/question-types/); null when unanswered. */
  value: StoredJson | null;
  /**
   * What the running figures count it under (result-aggregates.ts): its result_items key ("" when
   * unanswered; null: by its mark), and its result_values entry (null for none).
   */
  statKey: string | null;
  statValue: string | null;
  statNum: number | null;
  points: number;
  maxPoints: number;
  /** Null (or absent): marked by its type's rule; "pending" while it waits for a person's grade. */
  gradeState?: GradeState | null;
}

/** Where an answer graded by a person stands: waiting, a proposal waiting for approval, graded. */
export type GradeState = 'pending' | 'proposed' | 'final';

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
  /** Sent when the attempt's time ran out: its blank answers ran out of time. */
  timeUp?: boolean;
  /** "pending" while an answer waits for a person's grade; absent: "final". */
  gradingStatus?: GradingStatus;
  /** SHA-256 (hex) of the kept link's secret (domain/taking/kept-result.ts); absent: none. */
  resultKeyHash?: string | null;
}

export type GradingStatus = 'pending' | 'final';

/** Stores a response only while its email has fewer than `max` responses to the quiz. */
export interface PerEmailLimit {
  email: string;
  max: number;
}

/** The email has used its responses to the quiz: nothing was stored. */
export class PerEmailLimitReached extends Error {
  constructor(readonly used: number) {
    super(`${used} responses stored under this email already`);
  }
}

/** The attempt was submitted already (or is gone): nothing was stored. */
export class AttemptAlreadySubmitted extends Error {
  constructor() {
    super('the attempt has been submitted already');
  }
}

/**
 * The attempt a response submits: claimed by the same transaction that stores the response, so
 * the attempt is submitted exactly when its response exists.
 */
export interface AttemptClaim {
  id: string;
  /** Sent by the server from the saved answers at time-up. */
  autoSubmitted: boolean;
}

/**
 * A submission's repeat key (an Idempotency-Key, or a form's one-time token), hashed: the first
 * submission under it per quiz is stored, a later one is answered with that response.
 */
export interface SubmissionKey {
  keyHash: string;
  /** The hash of what was sent with the key; null when any body may repeat it (a form). */
  bodyHash: string | null;
}

/** The key was used already for this quiz: nothing new was stored. */
export class SubmissionKeyUsed extends Error {
  constructor(
    readonly responseId: string,
    /** Whether the first submission under the key sent the same body. */
    readonly sameBody: boolean,
  ) {
    super('the submission key has been used already');
  }
}

/** What a submission must hold to be stored, checked in the transaction that stores it. */
export interface SubmissionGuards {
  attempt?: AttemptClaim;
  key?: SubmissionKey;
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

/** Who changed an answer's points, as stored: "teacher", or "assistant:<the client's name>". */
export type GradedBy = string;

/**
 * One change of an answer by a person, as the grading writer (db/response-writes.ts) applies it
 * inside its transaction, against the answer as it finds it locked:
 * - `grade`: a grade proposed (the answer keeps its points) or given final (its points change);
 * - `approve`: the proposal waiting on the answer becomes final, with its points;
 * - `override`: the owner sets the points of an answer of any type; a re-marking leaves it.
 */
export type AnswerGradeChange =
  | {
      kind: 'grade';
      answerId: string;
      state: 'proposed' | 'final';
      levels: readonly number[] | null;
      points: number;
      feedback: string | null;
      by: GradedBy;
    }
  | {
      kind: 'approve';
      answerId: string;
      by: GradedBy;
      /** Approved in an MCP client's form (the client's registered name); absent on the web. */
      inClient?: string;
      /** Only if the proposal is still exactly this (what the teacher was shown). */
      expect?: { points: number; levels: readonly number[] | null; feedback: string | null };
    }
  | { kind: 'override'; answerId: string; points: number; comment: string | null; by: GradedBy };

/** The changes to one response's answers. */
export interface ResponseGrades {
  responseId: string;
  changes: readonly AnswerGradeChange[];
}

/** A response as a grading left it, and what happened to each change. */
export interface GradedResponse {
  responseId: string;
  score: number;
  maxScore: number;
  percent: number | null;
  passed: boolean | null;
  gradingStatus: GradingStatus;
  /** It was pending and is final now. */
  becameFinal: boolean;
  answers: Array<{
    answerId: string;
    /** False: nothing changed (an approval with no proposal waiting). */
    applied: boolean;
    pointsBefore: number;
    points: number;
    maxPoints: number;
    gradeState: GradeState | null;
  }>;
}

/** A response's percent and pass from its score, decided by the domain (the quiz's pass mark). */
export type MarksOf = (
  score: number,
  maxScore: number,
  final: boolean,
) => {
  percent: number | null;
  passed: boolean | null;
};

/** An answer's grade as stored (answer_grades). */
export interface AnswerGradeRow {
  answerId: string;
  quizId: string;
  responseId: string;
  state: string;
  levels: unknown;
  points: number;
  feedback: string | null;
  gradedBy: string;
  gradedAt: Date;
  approvedBy: string | null;
  approvedAt: Date | null;
  /** "client_form" when approved in an MCP client's form; null on the web. */
  approvedVia: string | null;
  approvedClient: string | null;
}

/** One change of an answer's points by a person (answer_history). */
export interface AnswerHistoryRow {
  id: string;
  answerId: string;
  quizId: string;
  kind: string;
  pointsBefore: number;
  pointsAfter: number;
  by: string;
  comment: string | null;
  at: Date;
}
