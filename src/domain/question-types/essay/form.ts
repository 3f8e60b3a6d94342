import { LIMITS } from '../../limits';
import { html, type Html } from '../../../web/html';
import {
  errorId,
  fieldError,
  fieldName,
  firstInputId,
  pictureOf,
  questionLegend,
  readText,
  type AskedQuestion,
  type FormFace,
} from '../../../respondent/question-form-face';
import type { EssayQuestion } from './index';

/** A long answer (essay): a labelled text area, its word bounds said in the hint. */
function essayAnswerField(
  { tr, question, index, total, required, values, error, rich }: AskedQuestion,
  key: EssayQuestion,
): Html {
  const id = firstInputId(question.id);
  const bounds =
    key.minWords === null && key.maxWords === null
      ? ''
      : ` ${tr.t('quiz.essayWords', { min: key.minWords ?? 'none', max: key.maxWords ?? 'none' }).trim()}`;
  return html`<div class="question${error ? ' has-error' : ''}" id="question-${question.id}">
    <label class="question-label" for="${id}">${questionLegend(tr, question, index, total, rich)}</label>
    ${pictureOf(question)}
    <p class="hint" id="hint-${question.id}">${tr.t('quiz.essayHint')}${bounds}</p>
    ${fieldError(tr, question.id, error)}
    <textarea
      id="${id}"
      name="${fieldName(question.id)}"
      rows="10"
      class="essay-answer"
      maxlength="${LIMITS.essayTextMax}"
      dir="auto"
      ${required ? html`aria-required="true"` : ''}
      aria-describedby="${error ? `${errorId(question.id)} ` : ''}hint-${question.id}"
      ${error ? html`aria-invalid="true"` : ''}
    >
${values.answers.get(question.id) ?? ''}</textarea>
  </div>`;
}

/** An essay on the public form; its problems in the page's words, from the domain's codes. */
export const face: FormFace<EssayQuestion> = {
  type: 'essay',
  fieldset: essayAnswerField,
  read: (form, questionId) => readText(form, questionId),
  message: (issue, tr) =>
    issue.code === 'too_long'
      ? tr.t('error.tooLong', { max: issue.params?.max ?? 0 })
      : issue.code === 'too_few'
        ? tr.t('error.tooFewWords', { min: issue.params?.min ?? 0, got: issue.params?.got ?? 0 })
        : issue.code === 'too_many'
          ? tr.t('error.tooManyWords', { max: issue.params?.max ?? 0 })
          : tr.t('error.typeAnswer'),
};
