import type { NewAnswerRow, QuestionRow } from '../db/repositories';
import { NO_ANSWER, storedDefinition, type AnswerColumns, type Choice } from './question-types';

/**
 * How an answer is kept in its row, and read back, by its question's type (question-types/).
 * Submission writes with `storedAnswer`; re-marking, results and the review read with
 * `choiceOf` and `answerText`, so every door agrees on what was answered.
 */

export { tickedIndexes, TICKED_LABELS_SEPARATOR } from './question-types';

export function storedAnswer(
  question: Pick<QuestionRow, 'options' | 'type'>,
  choice: Choice | undefined,
): AnswerColumns {
  return choice ? storedDefinition(question.type).storedAnswer(question, choice) : NO_ANSWER;
}

/** What a stored answer chose, as scoring reads it; undefined when unanswered. */
export function choiceOf(answer: AnswerColumns & Pick<NewAnswerRow, 'type'>): Choice | undefined {
  return storedDefinition(answer.type).choiceOf(answer);
}

/**
 * The answer as one string, as results and exports show it: "yes"/"no", the chosen label, the
 * ticked labels joined ("" when none were ticked), the text typed, or the number as written.
 * Null when the question was left unanswered.
 */
export function answerText(answer: AnswerColumns & Pick<NewAnswerRow, 'type'>): string | null {
  return storedDefinition(answer.type).answerText(answer);
}

/** The typed value get_results shows beside an answer's text. */
export function typedAnswerValue(answer: AnswerColumns & Pick<NewAnswerRow, 'type'>) {
  return storedDefinition(answer.type).typedValue(answer);
}
