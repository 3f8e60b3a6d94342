import { html, type Html } from '../../../web/html';
import {
  readListed,
  selectListFieldset,
  shownPartsOf,
  type AskedQuestion,
  type FormFace,
} from '../../../respondent/question-form-face';
import { matching, type MatchingQuestion } from './index';

/**
 * Prompts to match (matching): a select per prompt, in the attempt's order, each offering every
 * match in the attempt's order. Values are "<prompt id>:<match id>", the attempt's opaque ids (a
 * preview draws its own).
 */
function matchFieldset(asked: AskedQuestion, key: MatchingQuestion): Html {
  const specs = matching.opaqueLists?.(key);
  if (!specs?.prompts || !specs.matches) return html``;
  const matches = shownPartsOf(asked.question, 'matches', specs.matches);
  return selectListFieldset(asked, {
    kind: 'match',
    ordered: false,
    selectClass: 'match-choice',
    autoDirection: true,
    hint: asked.tr.t('quiz.matchHint'),
    none: asked.tr.t('quiz.matchNone'),
    parts: shownPartsOf(asked.question, 'prompts', specs.prompts),
    choices: matches.map((match) => ({ value: match.id, label: match.label })),
  });
}

/** Prompts to match on the public form: one select per prompt, each value "<prompt id>:<match id>". */
export const face: FormFace<MatchingQuestion> = {
  type: 'matching',
  fieldset: matchFieldset,
  // Prompts left unmatched are allowed.
  read: (form, questionId) => readListed(form, questionId),
  message: (_issue, tr) => tr.t('error.chooseListed'),
};
