import { LIMITS } from '../../limits';
import { html, type Html } from '../../../web/html';
import {
  pointsField,
  textField,
  type DraftQuestion,
  type EditorFace,
  type EditorView,
} from '../../../dashboard/question-editor-face';

function orderingFields(base: string, question: DraftQuestion, view: EditorView): Html {
  return html`${textField({
    name: `${base}[items]`,
    label: `Items, one per line, in the right order (${LIMITS.orderingItemsMin} to ${LIMITS.orderingItemsMax})`,
    value: question.items,
    view,
    multiline: true,
    text: true,
    hint: 'Respondents see them shuffled, never in this order.',
  })}
  ${pointsField(base, question, view, 'A whole number, for the whole order right.')}
  ${textField({
    name: `${base}[points_per_item]`,
    label: 'Points per item in its place (optional)',
    value: question.points_per_item,
    view,
    inputmode: 'numeric',
    className: 'short',
    hint: 'Instead of the points above: this many for each item in its right place.',
  })}`;
}

/** Its part of the quiz editor (dashboard/question-editor-faces.ts). */
export const face: EditorFace<'ordering'> = {
  type: 'ordering',
  name: 'Put in order',
  add: 'Add a put-in-order question',
  labels: { items: 'Items', points: 'Points', points_per_item: 'Points per item' },
  keyFields: (base, _index, question, view) => orderingFields(base, question, view),
};
