/**
 * A quiz as the repositories hand it over, written by hand rather than taken from Prisma's
 * payload types: the domain and the pages see these shapes and nothing of the library
 * (docs/decisions/0009-repositories-per-aggregate.md). The raw reads build them field by field
 * (db/quiz-reads.ts); the Prisma reads must compile against them.
 */
export interface QuizRow {
  id: string;
  ownerId: string;
  title: string;
  /** The title folded for lookups by name (`titleKey` in domain/owned/resolve-quiz.ts). */
  titleKey: string;
  slug: string;
  status: string;
  version: number;
  publishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
  acceptingResponses: boolean;
  showScoreToRespondent: boolean;
  passMarkPercent: number | null;
  collectName: boolean;
  collectEmail: boolean;
  requireAllAnswers: boolean;
  description: string | null;
  /** "never", "after_submit" or "after_close" (domain/taking/answer-review.ts). */
  showCorrectAnswers: string;
  /** Whether other sites may frame the public pages (web/security.ts, allowFraming). */
  allowEmbedding: boolean;
  /** Whether `$...$` and `$$...$$` are typeset as maths too (domain/rich-text.ts). */
  mathDollars: boolean;
  /** How the quiz is taken (domain/attempts/); null or false: as it always was. */
  timeLimitMinutes: number | null;
  opensAt: Date | null;
  closesAt: Date | null;
  shuffleQuestions: boolean;
  shuffleOptions: boolean;
  questionPoolSize: number | null;
  maxAttemptsPerEmail: number | null;
  /** The respondent pages' language: en, es, pt, fr, de or ar. */
  language: string;
  /** Whether grade_answers may store final grades; the owner sets it on the web only. */
  assistantGradesFinal: boolean;
}

/**
 * A JSON object as a row stores it (a question's key, an answer's value). The repositories
 * write and read it whole; its shape belongs to the question type's module
 * (domain/question-types/), whose own schema checks it when it is read.
 */
export type StoredJson = Readonly<Record<string, unknown>>;

/** A question in its quiz's order, its key as stored. */
export interface QuestionRow {
  id: string;
  quizId: string;
  position: number;
  type: string;
  text: string;
  explanation: string | null;
  /** What decides its marks, in its type's own shape (options included): read through that type's module. */
  key: unknown;
  /** Its pictures, as stored (domain/images/image-ref.ts reads them); null: none. */
  media?: unknown;
}

/** A quiz with its questions in order. */
export interface QuizWithQuestions extends QuizRow {
  questions: QuestionRow[];
}
