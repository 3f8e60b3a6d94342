import { html, type Html } from '../../../web/html';
import {
  pointsField,
  textField,
  type DraftQuestion,
  type EditorFace,
  type EditorView,
} from '../../../dashboard/question-editor-face';

function numberFields(base: string, question: DraftQuestion, view: EditorView): Html {
  return html`${textField({
    name: `${base}[correct_number]`,
    label: 'Right number',
    value: question.correct_number,
    view,
    inputmode: 'decimal',
    className: 'short',
    hint: 'A decimal point or comma both work: 3.5 or 3,5.',
  })}
  ${textField({
    name: `${base}[tolerance]`,
    label: 'Tolerance',
    value: question.tolerance,
    view,
    inputmode: 'decimal',
    className: 'short',
    hint: 'How far off an answer may be and still earn the points, bounds included (0: exactly).',
  })}
  ${pointsField(base, question, view, 'A whole number; a wrong answer earns 0.')}`;
}

/** Its part of the quiz editor (dashboard/question-editor-faces.ts). */
export const face: EditorFace<'number'> = {
  type: 'number',
  name: 'Number',
  add: 'Add a number question',
  labels: { points: 'Points', correct_number: 'Right number', tolerance: 'Tolerance' },
  keyFields: (base, _index, question, view) => numberFields(base, question, view),
};
