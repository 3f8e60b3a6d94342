import { optionFields, type EditorFace } from '../../../dashboard/question-editor-face';

/** Its part of the quiz editor (dashboard/question-editor-faces.ts): its options, and how they are answered. */
export const face: EditorFace<'multiple_choice'> = {
  type: 'multiple_choice',
  name: 'Multiple choice',
  add: 'Add a multiple-choice question',
  labels: { options: 'Options' },
  keyFields: (base, index, question, view) =>
    optionFields(base, index, question, view, 'respondents pick one; each earns its score'),
};
