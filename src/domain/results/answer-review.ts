import type { NewAnswerRow, QuestionRow, QuizRow } from '../../db/repositories';
import { mediaOf, type ImageRef } from '../images/image-ref';
import { storedDefinition, toScorable } from '../question-types';
import { showCorrectAnswersOf } from '../quiz-records';
import { answerText } from '../stored-answer';

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
  /**
   * "yes" / "no", the chosen option's label, the ticked labels joined ("" when none was
   * ticked), the text typed or the number as written; null when left unanswered.
   */
  your_answer: string | null;
  /** Null when the quiz does not show scores to respondents. */
  points: number | null;
  max_points: number | null;
  /**
   * The answers that earn the most, as the question's type names them (its `rightAnswers`), such
   * as the best option's label or the number with its tolerance ("3.5 ± 0.1"). Empty for a
   * question that only collects text. Null when the
   * question was changed or removed since (its key is not the one this answer met).
   */
  correct_answers: string[] | null;
  explanation: string | null;
}

/**
 * One item per stored answer, in its order. The key comes from the quiz's current question of
 * the same id: a question keeps its id only while it marks answers as before, so that key is the
 * one the answer was marked by; a question re-keyed or removed since has none to show.
 */
export function reviewOf(
  questions: readonly QuestionRow[],
  answers: ReadonlyArray<
    Pick<NewAnswerRow, 'questionId' | 'questionText' | 'type' | 'points' | 'maxPoints'> & { value: unknown }
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
      your_answer: answerText(answer),
      points: showScore ? answer.points : null,
      max_points: showScore ? answer.maxPoints : null,
      correct_answers: question ? storedDefinition(question.type).rightAnswers(toScorable(question)) : null,
      explanation: question?.explanation ?? null,
    };
  });
}

/**
 * The current questions' own pictures by question id, for the pages that show a review. Kept
 * out of the review items, which answers and tools carry as they always have.
 */
export function reviewPictures(questions: readonly QuestionRow[]): Record<string, ImageRef> {
  const pictures: Record<string, ImageRef> = {};
  for (const question of questions) {
    const image = mediaOf(question.media)?.image;
    if (image) pictures[question.id] = image;
  }
  return pictures;
}

/**
 * The current questions' options' pictures by question id and option label, for the pages that
 * show a review beside the answers and right answers they name by label.
 */
export function reviewOptionPictures(
  questions: readonly QuestionRow[],
): Record<string, Record<string, ImageRef>> {
  const pictures: Record<string, Record<string, ImageRef>> = {};
  for (const question of questions) {
    const refs = mediaOf(question.media)?.options;
    if (!refs) continue;
    const options = (toScorable(question) as { options?: ReadonlyArray<{ label: string }> }).options ?? [];
    const byLabel: Record<string, ImageRef> = {};
    options.forEach((option, index) => {
      const ref = refs[index];
      if (ref) byLabel[option.label] = ref;
    });
    pictures[question.id] = byLabel;
  }
  return pictures;
}
