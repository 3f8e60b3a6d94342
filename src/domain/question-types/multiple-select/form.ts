import { html, type Html } from '../../../web/html';
import { choice } from '../../../web/parts';
import { richText } from '../../../web/rich-text';
import {
  errorId,
  fieldError,
  fieldName,
  pictureOf,
  questionLegend,
  readTicked,
  shownOptions,
  withOptionImage,
  type AskedQuestion,
  type FormFace,
} from '../../../respondent/question-form-face';
import type { MultipleSelectQuestion } from './index';

/** A checkbox group: an empty marker value is always sent, so that ticking none is an answer. */
function tickedAnswerFieldset({ tr, question, index, total, values, error, rich }: AskedQuestion): Html {
  const name = fieldName(question.id);
  const legendId = `legend-${question.id}`;
  const ticked = new Set((values.answers.get(question.id) ?? '').split(',').filter(Boolean));
  return html`<fieldset
    class="question${error ? ' has-error' : ''}"
    id="question-${question.id}"
    aria-labelledby="${legendId}"
    aria-describedby="${error ? `${errorId(question.id)} ` : ''}hint-${question.id}"
  >
    <legend id="${legendId}">${questionLegend(tr, question, index, total, rich)}</legend>
    ${pictureOf(question)}
    <p class="hint" id="hint-${question.id}">${tr.t('quiz.tickHint')}</p>
    ${fieldError(tr, question.id, error)}
    <input type="hidden" name="${name}" value="" />
    <div class="choices">
      ${shownOptions(question).map(
        // The value is the canonical index, which an attempt's shuffled order keeps.
        (option, position) =>
          choice({
            type: 'checkbox',
            id: `${name}_${position}`,
            name,
            value: String(option.index),
            checked: ticked.has(String(option.index)),
            label: withOptionImage(question, option.index, richText(option.label, rich, { control: true })),
            dir: 'auto',
          }),
      )}
    </div>
  </fieldset>`;
}

/** Options to tick on the public form. */
export const face: FormFace<MultipleSelectQuestion> = {
  type: 'multiple_select',
  fieldset: tickedAnswerFieldset,
  read: (form, questionId) => readTicked(form, questionId),
  // Any problem is a value the page never offers (tampering).
  message: (_issue, tr) => tr.t('error.tickListed'),
};
