import { optionFields, type EditorFace } from '../../../dashboard/question-editor-face';

/** Its part of the quiz editor (dashboard/question-editor-faces.ts): its options, and how they are answered. */
export const face: EditorFace<'multiple_select'> = {
  type: 'multiple_select',
  name: 'Tick all that apply',
  add: 'Add a tick-all-that-apply question',
  labels: { options: 'Options' },
  keyFields: (base, index, question, view) =>
    optionFields(
      base,
      index,
      question,
      view,
      'respondents tick any; the ticked scores add up, never below 0',
    ),
};
