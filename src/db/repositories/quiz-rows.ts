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
  /** The title folded for lookups by name (`titleKey` in domain/quizzes/resolve-quiz.ts). */
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
  /** "never", "after_submit" or "after_close" (domain/results/answer-review.ts). */
  showCorrectAnswers: string;
  /** Whether other sites may frame the public pages (web/security.ts, allowFraming). */
  allowEmbedding: boolean;
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
}

export interface OptionRow {
  id: string;
  questionId: string;
  position: number;
  label: string;
  score: number;
}

/** A question with its options in order (only choice questions have options). */
export interface QuestionRow {
  id: string;
  quizId: string;
  position: number;
  type: string;
  text: string;
  points: number | null;
  /** yes_no: "yes" or "no"; null for other types, and for yes_no questions made before it existed ("yes"). */
  correctAnswer: string | null;
  explanation: string | null;
  /** short_text: the accepted answers as stored, a JSON array of strings (domain/quiz-records.ts reads it). */
  acceptedAnswers: string | null;
  /** number: the right value and the inclusive tolerance (null is 0). */
  correctNumber: number | null;
  tolerance: number | null;
  options: OptionRow[];
}

/** A quiz with its questions in order. */
export interface QuizWithQuestions extends QuizRow {
  questions: QuestionRow[];
}
