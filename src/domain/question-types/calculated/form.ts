import { html } from '../../../web/html';
import { readText, typedAnswerField, type FormFace } from '../../../respondent/question-form-face';
import type { CalculatedQuestion } from './index';

/**
 * A calculated question on the public form: the number box of a number question. Its text, with
 * the attempt's own values (and their units) in it, is the question's as the attempt shows it.
 */
export const face: FormFace<CalculatedQuestion> = {
  type: 'calculated',
  fieldset: (asked) =>
    typedAnswerField(
      asked,
      asked.tr.t('quiz.numberHint'),
      html`inputmode="decimal" maxlength="40" class="number-answer"`,
    ),
  read: (form, questionId) => readText(form, questionId),
  message: (_issue, tr) => tr.t('error.numberInvalid'),
};
