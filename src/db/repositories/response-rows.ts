/** The rows a response is written from: shared by the repository and the raw writers (db/response-writes.ts). */
export interface NewAnswerRow {
  questionId: string;
  position: number;
  questionText: string;
  type: string;
  choice: string | null;
  optionIndex: number | null;
  /** The chosen option's label, or the ticked labels joined (domain/question-types/ fills each column). */
  optionLabel: string | null;
  /** Ticked option indexes as a JSON array ("[]": none ticked). */
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
  /** Sent when the attempt's time ran out: its blank answers ran out of time. */
  timeUp?: boolean;
}

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
