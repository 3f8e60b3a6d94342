/**
 * Scoring rules, pure so they can be tested exhaustively.
 * - yes_no: "yes" earns `points`, "no" earns 0; the question's maximum is max(points, 0).
 * - multiple_choice: the chosen option's score; the maximum is the highest option score.
 * - score = sum earned; max_score = sum of maxima; percent = 100 * score / max_score
 *   (null when max_score is 0); passed = percent >= pass mark (null without a pass mark).
 */
export type ScorableQuestion =
  | { id: string; type: 'yes_no'; points: number }
  | { id: string; type: 'multiple_choice'; options: ReadonlyArray<{ score: number }> };

export type Choice = { choice: 'yes' | 'no' } | { optionIndex: number };

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
  if (question.type === 'yes_no') return Math.max(question.points, 0);
  return question.options.reduce((max, option) => Math.max(max, option.score), -Infinity);
}

export function pointsFor(question: ScorableQuestion, answer: Choice | undefined): number {
  if (!answer) return 0;
  if (question.type === 'yes_no') {
    return 'choice' in answer && answer.choice === 'yes' ? question.points : 0;
  }
  if (!('optionIndex' in answer)) return 0;
  const option = question.options[answer.optionIndex];
  return option ? option.score : 0;
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
