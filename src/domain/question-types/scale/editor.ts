import { LIMITS } from '../../limits';
import { html, type Html } from '../../../web/html';
import {
  textField,
  type DraftQuestion,
  type EditorFace,
  type EditorView,
} from '../../../dashboard/question-editor-face';

/** An opinion scale: its range and the words of its ends; it earns no points. */
function scaleFields(base: string, question: DraftQuestion, view: EditorView): Html {
  return html`${textField({
    name: `${base}[scale_min]`,
    label: 'Lowest value',
    value: question.scale_min,
    view,
    inputmode: 'numeric',
    className: 'short',
    hint: `${LIMITS.scaleMinLowest} or ${LIMITS.scaleMinHighest}. From 0 to 10 the results show the Net Promoter score.`,
  })}
  ${textField({
    name: `${base}[scale_max]`,
    label: 'Highest value',
    value: question.scale_max,
    view,
    inputmode: 'numeric',
    className: 'short',
    hint: `A whole number from ${LIMITS.scaleMaxLowest} to ${LIMITS.scaleMaxHighest}.`,
  })}
  ${textField({
    name: `${base}[min_label]`,
    label: 'Words for the lowest value (optional)',
    value: question.min_label,
    view,
    maxlength: LIMITS.scaleLabelMax,
    text: true,
    hint: 'For example "Not at all likely".',
  })}
  ${textField({
    name: `${base}[max_label]`,
    label: 'Words for the highest value (optional)',
    value: question.max_label,
    view,
    maxlength: LIMITS.scaleLabelMax,
    text: true,
    hint: 'For example "Extremely likely". A scale asks an opinion: it earns no points.',
  })}`;
}

/** Its part of the quiz editor (dashboard/question-editor-faces.ts). */
export const face: EditorFace<'scale'> = {
  type: 'scale',
  name: 'Opinion scale',
  add: 'Add an opinion scale',
  labels: { scale_min: 'Lowest value', scale_max: 'Highest value', scale_labels: 'Words for the ends' },
  keyFields: (base, _index, question, view) => scaleFields(base, question, view),
};
