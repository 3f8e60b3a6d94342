import { comparableText, matchesAcceptedAnswer, withinTolerance } from './answer-text';

/**
 * Scoring rules, pure so they can be tested exhaustively.
 * - yes_no: the answer named by `correctAnswer` (default "yes") earns `points`, the other 0;
 *   the question's maximum is max(points, 0).
 * - multiple_choice: the chosen option's score; the maximum is the highest option score.
 * - multiple_select: the sum of the ticked options' scores, never below 0 (ticking none is an
 *   answer, worth 0); the maximum is the sum of the positive scores.
 * - short_text: `points` when the text matches an accepted answer (answer-text.ts); without
 *   accepted answers the question only collects text, and its maximum is 0.
 * - number: `points` when within `tolerance` of `correctNumber`, bounds included.
 * - score = sum earned; max_score = sum of maxima; percent = 100 * score / max_score
 *   (null when max_score is 0); passed = percent >= pass mark (null without a pass mark).
 */
export type ScorableQuestion =
  | { id: string; type: 'yes_no'; points: number; correctAnswer?: 'yes' | 'no' }
  | { id: string; type: 'multiple_choice'; options: ReadonlyArray<{ score: number }> }
  | { id: string; type: 'multiple_select'; options: ReadonlyArray<{ score: number }> }
  | { id: string; type: 'short_text'; points: number; acceptedAnswers: readonly string[] }
  | { id: string; type: 'number'; points: number; correctNumber: number; tolerance: number };

/** One answer, in the form its question type takes. */
export type Choice =
  | { choice: 'yes' | 'no' }
  | { optionIndex: number }
  | { optionIndexes: readonly number[] }
  | { text: string }
  /** `written`: the number as the respondent wrote it ("3,5"), kept for the record. */
  | { number: number; written?: string };

export interface QuestionScore {
  questionId: string;
  points: number;
  maxPoints: number;
  answered: boolean;
}

export interface Score {
  score: number;
  maxScore: number;
  percent: number | null;
  passed: boolean | null;
  perQuestion: QuestionScore[];
}

export function questionMaxPoints(question: ScorableQuestion): number {
  switch (question.type) {
    case 'yes_no':
      return Math.max(question.points, 0);
    case 'multiple_choice':
      return question.options.reduce((max, option) => Math.max(max, option.score), -Infinity);
    case 'multiple_select':
      return question.options.reduce((sum, option) => sum + Math.max(option.score, 0), 0);
    case 'short_text':
      return question.acceptedAnswers.length > 0 ? Math.max(question.points, 0) : 0;
    case 'number':
      return Math.max(question.points, 0);
  }
}

export function pointsFor(question: ScorableQuestion, answer: Choice | undefined): number {
  if (!answer) return 0;
  switch (question.type) {
    case 'yes_no':
      return 'choice' in answer && answer.choice === (question.correctAnswer ?? 'yes') ? question.points : 0;
    case 'multiple_choice':
      return 'optionIndex' in answer ? (question.options[answer.optionIndex]?.score ?? 0) : 0;
    case 'multiple_select': {
      if (!('optionIndexes' in answer)) return 0;
      // Each option counts once, however often its index was sent.
      const ticked = [...new Set(answer.optionIndexes)];
      return Math.max(
        0,
        ticked.reduce((sum, index) => sum + (question.options[index]?.score ?? 0), 0),
      );
    }
    case 'short_text':
      return 'text' in answer && question.acceptedAnswers.length > 0
        ? matchesAcceptedAnswer(answer.text, question.acceptedAnswers)
          ? question.points
          : 0
        : 0;
    case 'number':
      return 'number' in answer && withinTolerance(answer.number, question.correctNumber, question.tolerance)
        ? question.points
        : 0;
  }
}

export function maxScoreOf(questions: ReadonlyArray<ScorableQuestion>): number {
  return questions.reduce((sum, question) => sum + questionMaxPoints(question), 0);
}

/** Rounded to two decimals so stored and displayed figures agree. */
export function percentOf(score: number, maxScore: number): number | null {
  if (maxScore === 0) return null;
  return Math.round((10_000 * score) / maxScore) / 100;
}

export function passedOf(percent: number | null, passMarkPercent: number | null): boolean | null {
  if (passMarkPercent === null) return null;
  if (percent === null) return null;
  return percent >= passMarkPercent;
}

export function scoreResponse(
  questions: ReadonlyArray<ScorableQuestion>,
  answers: ReadonlyMap<string, Choice>,
  passMarkPercent: number | null,
): Score {
  const perQuestion = questions.map((question) => {
    const answer = answers.get(question.id);
    return {
      questionId: question.id,
      points: pointsFor(question, answer),
      maxPoints: questionMaxPoints(question),
      answered: answer !== undefined,
    };
  });
  const score = perQuestion.reduce((sum, q) => sum + q.points, 0);
  const maxScore = perQuestion.reduce((sum, q) => sum + q.maxPoints, 0);
  const percent = percentOf(score, maxScore);
  return { score, maxScore, percent, passed: passedOf(percent, passMarkPercent), perQuestion };
}

/**
 * What decides a question's marks, as one string: two versions of a question with equal keys
 * score every possible answer alike, so an edit that keeps the key (a typo in the text, an
 * option's label, the explanation) may keep the question's id and its statistics. Option order
 * is part of the key: answers name options by index.
 */
export function answerKeyOf(question: ScorableQuestion): string {
  switch (question.type) {
    case 'yes_no':
      return JSON.stringify([question.type, question.points, question.correctAnswer ?? 'yes']);
    case 'multiple_choice':
    case 'multiple_select':
      return JSON.stringify([question.type, question.options.map((option) => option.score)]);
    case 'short_text': {
      const accepted = [...new Set(question.acceptedAnswers.map(comparableText))].sort();
      return JSON.stringify([question.type, question.points, accepted]);
    }
    case 'number':
      return JSON.stringify([question.type, question.points, question.correctNumber, question.tolerance]);
  }
}
