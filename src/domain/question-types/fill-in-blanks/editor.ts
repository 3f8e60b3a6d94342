import { LIMITS } from '../../limits';
import type { Html } from '../../../web/html';
import {
  textField,
  type DraftQuestion,
  type EditorFace,
  type EditorView,
} from '../../../dashboard/question-editor-face';

/** A text with blanks: one line per blank, its answers or its choice list (quiz-draft.ts). */
function blanksFields(base: string, question: DraftQuestion, view: EditorView): Html {
  return textField({
    name: `${base}[blanks]`,
    label: `Blanks, one per line, for [[1]], [[2]]… in the question (1 to ${LIMITS.blanksMax})`,
    value: question.blanks,
    view,
    multiline: true,
    text: true,
    hint: 'Write each blank into the question as [[1]], [[2]]… Then one line per blank: its right answers between | ("Paris | paris"), compared ignoring case and spaces, accents count; or a list to choose from, the right one starred ("1789 | *1889 | 1901"). Each blank earns 1 point; end a line with " = 2" for 2.',
  });
}

/** Its part of the quiz editor (dashboard/question-editor-faces.ts). */
export const face: EditorFace<'fill_in_blanks'> = {
  type: 'fill_in_blanks',
  name: 'Fill in the blanks',
  add: 'Add a fill-in-the-blanks question',
  labels: { blanks: 'Blanks' },
  keyFields: (base, _index, question, view) => blanksFields(base, question, view),
};
