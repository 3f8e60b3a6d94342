import { html, type Html } from '../../../web/html';
import { choice } from '../../../web/parts';
import {
  errorId,
  fieldError,
  fieldName,
  pictureOf,
  questionLegend,
  readText,
  type AskedQuestion,
  type FormFace,
} from '../../../respondent/question-form-face';
import type { ScaleQuestion } from './index';

/**
 * An opinion scale: one radio per value, in a row that wraps (eleven fit a phone in two rows),
 * the end words shown beside the row and read with the end values' names.
 */
function scaleFieldset(
  { tr, question, index, total, required, values, error, rich }: AskedQuestion,
  key: ScaleQuestion,
): Html {
  const name = fieldName(question.id);
  const legendId = `legend-${question.id}`;
  const hintId = `hint-${question.id}`;
  const chosen = values.answers.get(question.id);
  const [lowWords, highWords] = key.labels;
  const valuesShown = Array.from({ length: key.max - key.min + 1 }, (_, offset) => key.min + offset);
  const endWords = (value: number) =>
    value === key.min && lowWords ? lowWords : value === key.max && highWords ? highWords : '';
  return html`<fieldset
    class="question${error ? ' has-error' : ''}"
    id="question-${question.id}"
    role="radiogroup"
    aria-labelledby="${legendId}"
    aria-describedby="${error ? `${errorId(question.id)} ` : ''}${hintId}"
    ${required ? html`aria-required="true"` : ''}
    ${error ? html`aria-invalid="true"` : ''}
  >
    <legend id="${legendId}">${questionLegend(tr, question, index, total, rich)}</legend>
    ${pictureOf(question)}
    <p class="hint" id="${hintId}">${tr.t('quiz.scaleHint', { min: key.min, max: key.max })}</p>
    ${fieldError(tr, question.id, error)}
    ${
      lowWords || highWords
        ? html`<p class="scale-ends" aria-hidden="true">
            <span dir="auto">${lowWords ? `${key.min}: ${lowWords}` : ''}</span>
            <span dir="auto">${highWords ? `${key.max}: ${highWords}` : ''}</span>
          </p>`
        : ''
    }
    <div class="scale-values">
      ${valuesShown.map((value, position) => {
        const words = endWords(value);
        return choice({
          type: 'radio',
          id: `${name}_${position}`,
          name,
          value: String(value),
          checked: chosen === String(value),
          // An end's words are read with its value ("0, Not at all likely"), as one phrase.
          label: words
            ? html`<span aria-hidden="true">${String(value)}</span
                ><span class="sr-only">${String(value)}, <bdi>${words}</bdi></span>`
            : String(value),
        });
      })}
    </div>
  </fieldset>`;
}

/** An opinion scale on the public form: a radio group of its values. */
export const face: FormFace<ScaleQuestion> = {
  type: 'scale',
  fieldset: scaleFieldset,
  read: (form, questionId) => readText(form, questionId),
  // Any other value is one the page never offers.
  message: (_issue, tr) => tr.t('error.chooseListed'),
};
