import { TEXT_ANSWER_MAX } from '../../answer-text';
import { html, type Html } from '../../../web/html';
import { richTextWithSlots } from '../../../web/rich-text';
import {
  errorId,
  fieldError,
  firstInputId,
  partFieldName,
  pictureOf,
  readParts,
  shownPartsOf,
  tooLongOr,
  type AskedQuestion,
  type FormFace,
} from '../../../respondent/question-form-face';
import { BLANK_MARKER, blankListName, fillInBlanks, type FillInBlanksQuestion } from './index';

/** The blanks' values as a refused form sent them back: a JSON list in blank order. */
function blankValues(raw: string | undefined): string[] {
  try {
    const parsed: unknown = JSON.parse(raw ?? '[]');
    return Array.isArray(parsed) ? parsed.map((value) => (typeof value === 'string' ? value : '')) : [];
  } catch {
    return [];
  }
}

/**
 * A text with blanks (fill_in_blanks): each [[n]] marker becomes, in place, a text box or a
 * select of its options (under the attempt's opaque ids), labelled with its number. Formulas and
 * code around them are typeset as in any question; a blank the text does not show inline (a
 * marker inside a formula) follows the text, so each can still be answered.
 */
function blanksFieldset(
  { tr, question, index, total, required, values, error, rich }: AskedQuestion,
  key: FillInBlanksQuestion,
): Html {
  const legendId = `legend-${question.id}`;
  const specs = fillInBlanks.opaqueLists?.(key) ?? {};
  const given = blankValues(values.answers.get(question.id));
  let position = 0;
  const control = (number: number): Html => {
    const blank = key.blanks[number - 1];
    if (!blank) return html`[[${String(number)}]]`;
    const id = `${firstInputId(question.id).replace(/_0$/, '')}_${position}`;
    position += 1;
    const name = partFieldName(question.id, number);
    const value = given[number - 1] ?? '';
    const common = html`id="${id}" name="${name}" ${required ? html`aria-required="true"` : ''}
    ${error ? html`aria-invalid="true"` : ''}`;
    const spec = specs[blankListName(number)];
    let input: Html;
    if (spec && blank.options !== null) {
      input = html`<select ${common} class="blank-choice">
        <option value="">${tr.t('quiz.blankChoose')}</option>
        ${shownPartsOf(question, blankListName(number), spec).map(
          (part) =>
            html`<option value="${part.id}" ${value === part.id ? html`selected` : ''}>
              ${part.label}
            </option>`,
        )}
      </select>`;
    } else {
      input = html`<input
        type="text"
        ${common}
        class="blank-text"
        value="${value}"
        autocomplete="off"
        maxlength="${TEXT_ANSWER_MAX}"
      />`;
    }
    return html`<span class="blank"
      ><label class="blank-number" for="${id}"
        ><span class="sr-only">${tr.t('quiz.blankLabel', { number })}</span
        ><span aria-hidden="true">${String(number)}</span></label
      >${input}</span
    >`;
  };
  const shown = new Set<number>();
  const { html: body } = richTextWithSlots(question.text, rich, BLANK_MARKER, (match) => {
    const number = Number(match[1]);
    if (shown.has(number)) return html`${match[0]}`;
    shown.add(number);
    return control(number);
  });
  const rest = key.blanks.map((_, at) => at + 1).filter((number) => !shown.has(number));
  return html`<fieldset
    class="question blanks-question${error ? ' has-error' : ''}"
    id="question-${question.id}"
    aria-labelledby="${legendId}"
    aria-describedby="${error ? `${errorId(question.id)} ` : ''}hint-${question.id}"
  >
    <legend id="${legendId}">
      <span class="question-number">${tr.t('quiz.questionNumber', { number: index + 1, total })}</span>
    </legend>
    ${pictureOf(question)}
    <p class="hint" id="hint-${question.id}">${tr.t('quiz.blanksHint')}</p>
    ${fieldError(tr, question.id, error)}
    <p class="question-text blanks-text" dir="auto">${body}</p>
    ${rest.length > 0 ? html`<p class="blanks-rest">${rest.map((number) => control(number))}</p>` : ''}
  </fieldset>`;
}

/**
 * A text with blanks on the public form: one text box or select per blank, each named apart
 * (partFieldName); the domain's words for a blank too long.
 */
export const face: FormFace<FillInBlanksQuestion> = {
  type: 'fill_in_blanks',
  fieldset: blanksFieldset,
  read: (form, questionId, key) => readParts(form, questionId, key.blanks.length),
  message: (issue, tr) => tooLongOr(issue, tr, TEXT_ANSWER_MAX, tr.t('error.blanksListed')),
};
