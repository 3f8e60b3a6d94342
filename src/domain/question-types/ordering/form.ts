import { html, type Html } from '../../../web/html';
import { richText } from '../../../web/rich-text';
import {
  chosenPairs,
  errorId,
  fieldError,
  fieldName,
  pictureOf,
  questionLegend,
  readListed,
  shownPartsOf,
  type AskedQuestion,
  type FormFace,
} from '../../../respondent/question-form-face';
import { ordering, type OrderingQuestion } from './index';

/**
 * Items to put in order (ordering): each item, in the attempt's order, with a select of its
 * position, so it works by keyboard and without scripts. Values carry the attempt's opaque item
 * ids, never the canonical order (a preview draws ids of its own, never submitted).
 */
function orderFieldset(
  { tr, question, index, total, required, values, error, rich }: AskedQuestion,
  key: OrderingQuestion,
): Html {
  const name = fieldName(question.id);
  const legendId = `legend-${question.id}`;
  const spec = ordering.opaqueLists?.(key).items;
  if (!spec) return html``;
  const parts = shownPartsOf(question, 'items', spec);
  const chosen = chosenPairs(values.answers.get(question.id));
  const positions = parts.map((_, position) => position + 1);
  return html`<fieldset
    class="question order-question${error ? ' has-error' : ''}"
    id="question-${question.id}"
    aria-labelledby="${legendId}"
    aria-describedby="${error ? `${errorId(question.id)} ` : ''}hint-${question.id}"
  >
    <legend id="${legendId}">${questionLegend(tr, question, index, total, rich)}</legend>
    ${pictureOf(question)}
    <p class="hint" id="hint-${question.id}">${tr.t('quiz.orderHint')}</p>
    ${fieldError(tr, question.id, error)}
    <ol class="order-items">
      ${parts.map(
        (part, position) =>
          html`<li class="order-item">
            <label class="order-label" for="${name}_${position}"
              ><span dir="auto">${richText(part.label, rich, { control: true })}</span></label
            >
            <select
              id="${name}_${position}"
              name="${name}"
              class="order-position"
              ${required ? html`aria-required="true"` : ''}
              ${error ? html`aria-invalid="true"` : ''}
            >
              <option value="">${tr.t('quiz.orderPosition')}</option>
              ${positions.map(
                (number) =>
                  html`<option
                    value="${part.id}:${number}"
                    ${chosen.get(part.id) === String(number) ? html`selected` : ''}
                  >
                    ${String(number)}
                  </option>`,
              )}
            </select>
          </li>`,
      )}
    </ol>
  </fieldset>`;
}

/** Items to order on the public form: one select per item, each value "<item id>:<position>". */
export const orderingForm: FormFace<OrderingQuestion> = {
  type: 'ordering',
  fieldset: orderFieldset,
  read: (form, questionId) => readListed(form, questionId),
  // Some chosen and some not, or two items at one position.
  message: (_issue, tr) => tr.t('error.orderEach'),
};
