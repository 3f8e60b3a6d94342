import type { NewAnswerRow, QuestionRow } from '../db/repositories';
import type { Choice } from './scoring';

/**
 * How an answer is kept in its row, and read back: each question type fills its own columns and
 * an unanswered question none. Submission writes with `storedAnswer`; re-marking, results and the
 * review read with `choiceOf` and `answerText`, so every door agrees on what was answered.
 */
type AnswerColumns = Pick<
  NewAnswerRow,
  'choice' | 'optionIndex' | 'optionLabel' | 'choices' | 'text' | 'number'
>;

/** Between the ticked options' labels of a multiple_select answer ("Red; Blue"), as spreadsheets show checkboxes. */
export const TICKED_LABELS_SEPARATOR = '; ';

const NONE: AnswerColumns = {
  choice: null,
  optionIndex: null,
  optionLabel: null,
  choices: null,
  text: null,
  number: null,
};

export function storedAnswer(
  question: Pick<QuestionRow, 'options'>,
  choice: Choice | undefined,
): AnswerColumns {
  if (!choice) return NONE;
  if ('choice' in choice) return { ...NONE, choice: choice.choice };
  if ('optionIndex' in choice) {
    return {
      ...NONE,
      optionIndex: choice.optionIndex,
      optionLabel: question.options[choice.optionIndex]?.label ?? null,
    };
  }
  if ('optionIndexes' in choice) {
    const labels = choice.optionIndexes.map((index) => question.options[index]?.label ?? '');
    return {
      ...NONE,
      choices: JSON.stringify(choice.optionIndexes),
      optionLabel: labels.join(TICKED_LABELS_SEPARATOR),
    };
  }
  if ('text' in choice) return { ...NONE, text: choice.text };
  return { ...NONE, text: choice.written ?? String(choice.number), number: choice.number };
}

/** The ticked indexes of a multiple_select answer; null when it was left unanswered. */
export function tickedIndexes(answer: Pick<NewAnswerRow, 'choices'>): number[] | null {
  if (answer.choices === null) return null;
  const parsed: unknown = JSON.parse(answer.choices);
  return Array.isArray(parsed) ? parsed.filter((index): index is number => Number.isInteger(index)) : [];
}

/** What a stored answer chose, as scoring reads it; undefined when unanswered. */
export function choiceOf(answer: AnswerColumns & Pick<NewAnswerRow, 'type'>): Choice | undefined {
  switch (answer.type) {
    case 'yes_no':
      return answer.choice === 'yes' || answer.choice === 'no' ? { choice: answer.choice } : undefined;
    case 'multiple_select': {
      const ticked = tickedIndexes(answer);
      return ticked === null ? undefined : { optionIndexes: ticked };
    }
    case 'short_text':
      return answer.text === null ? undefined : { text: answer.text };
    case 'number':
      return answer.number === null
        ? undefined
        : { number: answer.number, written: answer.text ?? undefined };
    default:
      return answer.optionIndex === null ? undefined : { optionIndex: answer.optionIndex };
  }
}

/**
 * The answer as one string, as results and exports show it: "yes"/"no", the chosen label, the
 * ticked labels joined ("" when none were ticked), the text typed, or the number as written.
 * Null when the question was left unanswered.
 */
export function answerText(answer: AnswerColumns & Pick<NewAnswerRow, 'type'>): string | null {
  switch (answer.type) {
    case 'yes_no':
      return answer.choice;
    case 'short_text':
    case 'number':
      return answer.text;
    case 'multiple_select':
      return answer.choices === null ? null : (answer.optionLabel ?? '');
    default:
      return answer.optionLabel;
  }
}
