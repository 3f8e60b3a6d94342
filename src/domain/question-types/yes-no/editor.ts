import { LIMITS } from '../../limits';
import { html, type Html } from '../../../web/html';
import { errorsFor, radioGroup } from '../../../web/parts';
import {
  fieldId,
  textField,
  type DraftQuestion,
  type EditorFace,
  type EditorView,
} from '../../../dashboard/question-editor-face';

function yesNoFields(base: string, question: DraftQuestion, view: EditorView): Html {
  const id = fieldId(`${base}[correct_answer]`);
  return html`${radioGroup({
    id,
    name: `${base}[correct_answer]`,
    legend: 'Right answer',
    value: question.correct_answer,
    choices: [
      { value: 'yes', label: 'Yes' },
      { value: 'no', label: 'No' },
    ],
    errors: errorsFor(view.errors, id),
  })}
  ${textField({
    name: `${base}[points]`,
    label: 'Points for the right answer',
    value: question.points,
    view,
    hint: `A whole number from ${LIMITS.pointsMin} to ${LIMITS.pointsMax}; the other answer earns 0.`,
    inputmode: 'numeric',
    className: 'short',
  })}`;
}

/** Its part of the quiz editor (dashboard/question-editor-faces.ts). */
export const face: EditorFace<'yes_no'> = {
  type: 'yes_no',
  name: 'Yes/no',
  add: 'Add a yes/no question',
  labels: { points: 'Points', correct_answer: 'Right answer' },
  keyFields: (base, _index, question, view) => yesNoFields(base, question, view),
};
