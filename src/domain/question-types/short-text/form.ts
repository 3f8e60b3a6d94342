import { TEXT_ANSWER_MAX } from '../../answer-text';
import { html } from '../../../web/html';
import { readText, tooLongOr, typedAnswerField, type FormFace } from '../../../respondent/question-form-face';
import type { ShortTextQuestion } from './index';

/** A short typed answer on the public form: one text box, as long as an answer may be. */
export const face: FormFace<ShortTextQuestion> = {
  type: 'short_text',
  fieldset: (asked) =>
    typedAnswerField(asked, asked.tr.t('quiz.textHint'), html`maxlength="${TEXT_ANSWER_MAX}"`),
  read: (form, questionId) => readText(form, questionId),
  // The domain's own reason: too long, else nothing to keep.
  message: (issue, tr) => tooLongOr(issue, tr, TEXT_ANSWER_MAX, tr.t('error.typeAnswer')),
};
