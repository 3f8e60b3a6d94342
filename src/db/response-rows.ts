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

/** A response's new marks after an answer key was fixed: its answers' and its own. */
export interface ResponseRemark {
  responseId: string;
  answers: ReadonlyArray<{ id: string; points: number; maxPoints: number }>;
  score: number;
  maxScore: number;
  percent: number | null;
  passed: boolean | null;
}
