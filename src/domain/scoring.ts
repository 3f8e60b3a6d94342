import { definitionOf, type Choice, type QuestionKey, type ScorableQuestion } from './question-types';

/**
 * Scoring: each type's rules live in its module (question-types/); here they are summed.
 * - score = sum earned; max_score = sum of maxima; percent = 100 * score / max_score
 *   (null when max_score is 0); passed = percent >= pass mark (null without a pass mark).
 */
export type { Choice, ScorableQuestion };

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
  return definitionOf(question.type).maxPoints(question);
}

export function pointsFor(question: ScorableQuestion, answer: Choice | undefined): number {
  return answer ? definitionOf(question.type).points(question, answer) : 0;
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
 * What decides a question's marks, as one string (each type's `answerKey`): an edit that keeps
 * it may keep the question's id and its statistics.
 */
export function answerKeyOf(question: QuestionKey): string {
  return definitionOf(question.type).answerKey(question);
}
