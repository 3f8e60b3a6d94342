import type { NewAnswerRow, QuestionRow, QuizRow } from '../../db/repositories';
import { correctAnswerOf, showCorrectAnswersOf } from '../quiz-records';

/**
 * The review a respondent may see: every question with their answer, what it earned, the right
 * answer and its explanation. Whether the key may be shown is the quiz's setting:
 * - "never" (the default): no review, and nothing of the key anywhere a respondent looks;
 * - "after_submit": with the submission's answer and on its result page;
 * - "after_close": on the result page once the quiz stops taking responses, so that a class
 *   cannot pass the key on while others still answer.
 */
export function answerKeyShown(quiz: Pick<QuizRow, 'showCorrectAnswers' | 'acceptingResponses'>): boolean {
  const setting = showCorrectAnswersOf(quiz);
  return setting === 'after_submit' || (setting === 'after_close' && !quiz.acceptingResponses);
}

export interface ReviewItem {
  question_id: string;
  text: string;
  type: string;
  /** "yes" / "no", or the chosen option's label; null when left unanswered. */
  your_answer: string | null;
  /** Null when the quiz does not show scores to respondents. */
  points: number | null;
  max_points: number | null;
  /**
   * The answers that earn the most: the yes/no key, or the best-scoring options' labels. Null
   * when the question was changed or removed since (its key is not the one this answer met).
   */
  correct_answers: string[] | null;
  explanation: string | null;
}

function rightAnswers(question: QuestionRow): string[] {
  if (question.type === 'yes_no') return [correctAnswerOf(question)];
  const best = Math.max(...question.options.map((option) => option.score));
  return question.options.filter((option) => option.score === best).map((option) => option.label);
}

/**
 * One item per stored answer, in its order. The key comes from the quiz's current question of
 * the same id: a question keeps its id only while it marks answers as before, so that key is the
 * one the answer was marked by; a question re-keyed or removed since has none to show.
 */
export function reviewOf(
  questions: readonly QuestionRow[],
  answers: ReadonlyArray<
    Pick<
      NewAnswerRow,
      'questionId' | 'questionText' | 'type' | 'choice' | 'optionLabel' | 'points' | 'maxPoints'
    >
  >,
  showScore: boolean,
): ReviewItem[] {
  const current = new Map(questions.map((question) => [question.id, question]));
  return answers.map((answer) => {
    const question = current.get(answer.questionId);
    return {
      question_id: answer.questionId,
      text: answer.questionText,
      type: answer.type,
      your_answer: answer.choice ?? answer.optionLabel,
      points: showScore ? answer.points : null,
      max_points: showScore ? answer.maxPoints : null,
      correct_answers: question ? rightAnswers(question) : null,
      explanation: question?.explanation ?? null,
    };
  });
}
