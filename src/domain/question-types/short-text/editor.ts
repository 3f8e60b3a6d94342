import { html, type Html } from '../../../web/html';
import {
  pointsField,
  textField,
  type DraftQuestion,
  type EditorFace,
  type EditorView,
} from '../../../dashboard/question-editor-face';

function typedAnswerFields(base: string, question: DraftQuestion, view: EditorView): Html {
  return html`${textField({
    name: `${base}[accepted_answers]`,
    label: 'Accepted answers (optional), one per line',
    value: question.accepted_answers,
    view,
    multiline: true,
    text: true,
    hint: 'Compared ignoring case and extra spaces; accents count, so list "Peru" and "Perú" if both are right. Leave empty to collect text without marking it.',
  })}
  ${pointsField(base, question, view, 'A whole number; used when accepted answers are given.')}`;
}

/** Its part of the quiz editor (dashboard/question-editor-faces.ts). */
export const face: EditorFace<'short_text'> = {
  type: 'short_text',
  name: 'Typed answer',
  add: 'Add a typed-answer question',
  labels: { points: 'Points', accepted_answers: 'Accepted answers' },
  keyFields: (base, _index, question, view) => typedAnswerFields(base, question, view),
};
