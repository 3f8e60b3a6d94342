import { LIMITS } from '../../limits';
import { html, type Html } from '../../../web/html';
import {
  pointsField,
  textField,
  type DraftQuestion,
  type EditorFace,
  type EditorView,
} from '../../../dashboard/question-editor-face';

/** An essay: its rubric, one criterion per line, or its points; the word bounds. */
function essayFields(base: string, question: DraftQuestion, view: EditorView): Html {
  return html`${textField({
    name: `${base}[rubric]`,
    label: 'Rubric (optional), one criterion per line',
    value: question.rubric,
    view,
    multiline: true,
    text: true,
    hint: `For example "Thesis: none = 0; vague = 1; clear = 2": ${LIMITS.rubricLevelsMin}-${LIMITS.rubricLevelsMax} levels each, lowest first. The essay's maximum is the sum of each criterion's top level.`,
  })}
  ${pointsField(base, question, view, 'Without a rubric: the most a grade can give.')}
  ${textField({
    name: `${base}[min_words]`,
    label: 'Fewest words (optional)',
    value: question.min_words,
    view,
    inputmode: 'numeric',
    className: 'short',
    hint: `A whole number up to ${LIMITS.essayWordsMax}.`,
  })}
  ${textField({
    name: `${base}[max_words]`,
    label: 'Most words (optional)',
    value: question.max_words,
    view,
    inputmode: 'numeric',
    className: 'short',
    hint: 'Answers are graded by you, or proposed by your assistant for you to approve.',
  })}`;
}

/** Its part of the quiz editor (dashboard/question-editor-faces.ts). */
export const face: EditorFace<'essay'> = {
  type: 'essay',
  name: 'Essay',
  add: 'Add an essay question',
  labels: { points: 'Points', rubric: 'Rubric', min_words: 'Fewest words', max_words: 'Most words' },
  keyFields: (base, _index, question, view) => essayFields(base, question, view),
};
