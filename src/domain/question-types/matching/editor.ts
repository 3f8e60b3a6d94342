import { LIMITS } from '../../limits';
import { html, type Html } from '../../../web/html';
import {
  textField,
  PAIR_MARK,
  type DraftQuestion,
  type EditorFace,
  type EditorView,
} from '../../../dashboard/question-editor-face';

function matchingFields(base: string, question: DraftQuestion, view: EditorView): Html {
  return html`${textField({
    name: `${base}[pairs]`,
    label: `Pairs, one per line: prompt ${PAIR_MARK} its right match (${LIMITS.matchingPairsMin} to ${LIMITS.matchingPairsMax})`,
    value: question.pairs,
    view,
    multiline: true,
    text: true,
    hint: `For example “Paris ${PAIR_MARK} France”. Each prompt chooses among all the matches, shuffled; prompts may share a match.`,
  })}
  ${textField({
    name: `${base}[extra_matches]`,
    label: `Extra matches, one per line (optional, up to ${LIMITS.extraMatchesMax})`,
    value: question.extra_matches,
    view,
    multiline: true,
    text: true,
    hint: 'Offered to every prompt, right for none.',
  })}
  ${textField({
    name: `${base}[points_per_pair]`,
    label: 'Points per pair',
    value: question.points_per_pair,
    view,
    inputmode: 'numeric',
    className: 'short',
    hint: 'A whole number, for each prompt given its right match.',
  })}`;
}

/** Its part of the quiz editor (dashboard/question-editor-faces.ts). */
export const face: EditorFace<'matching'> = {
  type: 'matching',
  name: 'Matching',
  add: 'Add a matching question',
  labels: { pairs: 'Pairs', extra_matches: 'Extra matches', points_per_pair: 'Points per pair' },
  keyFields: (base, _index, question, view) => matchingFields(base, question, view),
};
