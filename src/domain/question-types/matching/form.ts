import { html, type Html } from '../../../web/html';
import { richText } from '../../../web/rich-text';
import {
  chosenPairs,
  errorId,
  fieldError,
  fieldName,
  pictureOf,
  questionLegend,
  readListed,
  shownPartsOf,
  type AskedQuestion,
  type FormFace,
} from '../../../respondent/question-form-face';
import { matching, type MatchingQuestion } from './index';

/**
 * Prompts to match (matching): one labelled select per prompt, in the attempt's order, each
 * offering every match in the attempt's order, so it works by keyboard and without scripts.
 * Values are "<prompt id>:<match id>", the attempt's opaque ids (a preview draws its own).
 */
function matchFieldset(
  { tr, question, index, total, required, values, error, rich }: AskedQuestion,
  key: MatchingQuestion,
): Html {
  const name = fieldName(question.id);
  const legendId = `legend-${question.id}`;
  const specs = matching.opaqueLists?.(key);
  if (!specs?.prompts || !specs.matches) return html``;
  const prompts = shownPartsOf(question, 'prompts', specs.prompts);
  const matches = shownPartsOf(question, 'matches', specs.matches);
  const chosen = chosenPairs(values.answers.get(question.id));
  return html`<fieldset
    class="question match-question${error ? ' has-error' : ''}"
    id="question-${question.id}"
    aria-labelledby="${legendId}"
    aria-describedby="${error ? `${errorId(question.id)} ` : ''}hint-${question.id}"
  >
    <legend id="${legendId}">${questionLegend(tr, question, index, total, rich)}</legend>
    ${pictureOf(question)}
    <p class="hint" id="hint-${question.id}">${tr.t('quiz.matchHint')}</p>
    ${fieldError(tr, question.id, error)}
    <ul class="match-items">
      ${prompts.map(
        (prompt, position) =>
          html`<li class="match-item">
            <label class="match-label" for="${name}_${position}"
              ><span dir="auto">${richText(prompt.label, rich, { control: true })}</span></label
            >
            <select
              id="${name}_${position}"
              name="${name}"
              class="match-choice"
              dir="auto"
              ${required ? html`aria-required="true"` : ''}
              ${error ? html`aria-invalid="true"` : ''}
            >
              <option value="">${tr.t('quiz.matchNone')}</option>
              ${matches.map(
                (match) =>
                  html`<option
                    value="${prompt.id}:${match.id}"
                    ${chosen.get(prompt.id) === match.id ? html`selected` : ''}
                  >
                    ${match.label}
                  </option>`,
              )}
            </select>
          </li>`,
      )}
    </ul>
  </fieldset>`;
}

/** Prompts to match on the public form: one select per prompt, each value "<prompt id>:<match id>". */
export const matchingForm: FormFace<MatchingQuestion> = {
  type: 'matching',
  fieldset: matchFieldset,
  // Prompts left unmatched are allowed.
  read: (form, questionId) => readListed(form, questionId),
  message: (_issue, tr) => tr.t('error.chooseListed'),
};
