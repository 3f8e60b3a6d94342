import { html, type Html } from '../../../web/html';
import {
  readListed,
  selectListFieldset,
  shownPartsOf,
  type AskedQuestion,
  type FormFace,
} from '../../../respondent/question-form-face';
import { ordering, type OrderingQuestion } from './index';

/**
 * Items to put in order (ordering): each item, in the attempt's order, with a select of its
 * position. Values carry the attempt's opaque item ids, never the canonical order (a preview
 * draws ids of its own, never submitted).
 */
function orderFieldset(asked: AskedQuestion, key: OrderingQuestion): Html {
  const spec = ordering.opaqueLists?.(key).items;
  if (!spec) return html``;
  const parts = shownPartsOf(asked.question, 'items', spec);
  return selectListFieldset(asked, {
    kind: 'order',
    ordered: true,
    selectClass: 'order-position',
    autoDirection: false,
    hint: asked.tr.t('quiz.orderHint'),
    none: asked.tr.t('quiz.orderPosition'),
    parts,
    choices: parts.map((_, position) => ({ value: String(position + 1), label: String(position + 1) })),
  });
}

/** Items to order on the public form: one select per item, each value "<item id>:<position>". */
export const face: FormFace<OrderingQuestion> = {
  type: 'ordering',
  fieldset: orderFieldset,
  read: (form, questionId) => readListed(form, questionId),
  // Some chosen and some not, or two items at one position.
  message: (_issue, tr) => tr.t('error.orderEach'),
};
