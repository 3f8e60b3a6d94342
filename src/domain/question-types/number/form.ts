import { html } from '../../../web/html';
import { readText, typedAnswerField, type FormFace } from '../../../respondent/question-form-face';
import type { NumberQuestion } from './index';

/**
 * A number on the public form: a text box with a decimal keypad, not type=number (which drops
 * "3,5"), read as written.
 */
export const face: FormFace<NumberQuestion> = {
  type: 'number',
  fieldset: (asked) =>
    typedAnswerField(
      asked,
      asked.tr.t('quiz.numberHint'),
      html`inputmode="decimal" maxlength="40" class="number-answer"`,
    ),
  read: (form, questionId) => readText(form, questionId),
  message: (_issue, tr) => tr.t('error.numberInvalid'),
};
