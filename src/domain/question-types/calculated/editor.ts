import { html, type Html } from '../../../web/html';
import { selectField } from '../../../web/parts';
import {
  errorOf,
  fieldId,
  pointsField,
  textField,
  type DraftQuestion,
  type EditorFace,
  type EditorView,
} from '../../../dashboard/question-editor-face';
import { VARIABLE_LIMITS } from './variables';

/** Its formula, its variables one per line, its tolerance and its kind, and its points. */
function calculatedFields(base: string, question: DraftQuestion, view: EditorView): Html {
  const kind = `${base}[tolerance_type]`;
  return html`${textField({
    name: `${base}[formula]`,
    label: 'Formula',
    value: question.formula,
    view,
    hint: 'The answer over the variables, e.g. d / t: + - * / ^, parentheses, sqrt, sin, log, round, pi…',
  })}
  ${textField({
    name: `${base}[variables]`,
    label: `Variables, one per line (at most ${VARIABLE_LIMITS.count})`,
    value: question.variables,
    view,
    multiline: true,
    text: true,
    hint: 'Name, lowest, highest, then "decimals 1" or "step 0.5", then "unit km" if it has one: "t 2 8 decimals 1 unit h". Write {t} in the text where its value goes.',
  })}
  ${textField({
    name: `${base}[tolerance]`,
    label: 'Tolerance',
    value: question.tolerance,
    view,
    inputmode: 'decimal',
    className: 'short',
    hint: 'How far off an answer may be and still earn the points (0: exactly).',
  })}
  ${selectField({
    id: fieldId(kind),
    name: kind,
    label: 'Tolerance is',
    value: question.tolerance_type || 'absolute',
    choices: [
      { value: 'absolute', label: 'a distance from the answer' },
      { value: 'relative', label: 'a share of the answer (0.01: 1%)' },
    ],
  })}
  ${errorOf(view.errors, fieldId(kind))}
  ${pointsField(base, question, view, 'A whole number; a wrong answer earns 0.')}`;
}

/** Its part of the quiz editor (dashboard/question-editor-faces.ts). */
export const face: EditorFace<'calculated'> = {
  type: 'calculated',
  name: 'Own numbers',
  add: 'Add a question with numbers drawn per attempt',
  labels: {
    points: 'Points',
    formula: 'Formula',
    variables: 'Variables',
    tolerance: 'Tolerance',
    tolerance_type: 'Tolerance is',
  },
  keyFields: (base, _index, question, view) => calculatedFields(base, question, view),
};
