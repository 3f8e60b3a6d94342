import type { QuestionRow } from '../db/repositories';
import type { FieldIssue } from '../domain/errors';
import { shownOptions, type ShownQuestion } from '../domain/attempts/attempts';
import {
  drawOpaqueList,
  shownParts,
  type OpaqueListSpec,
  type ScorableQuestion,
} from '../domain/question-types';
import { html, type Html } from '../web/html';
import { choice, fieldErrorText } from '../web/parts';
import { richText, type RichTextOptions } from '../web/rich-text';
import { optionImage, questionImage, questionMedia } from '../web/images';
import type { Translator } from './i18n';

// What a question type's face on the public form (src/domain/question-types/<type>/form.ts) is
// given: the interface it implements and the parts its control is drawn with. This module never
// imports the faces' table (question-forms.ts), so a face may import it without a cycle.

export type { Translator } from './i18n';

/**
 * The quiz form's values: `name`, `email`, `version` (the quiz version the page was rendered
 * from) and one `q_<question_id>` per question, whose value each type's face reads (its `read`).
 */
export interface FormValues {
  name: string;
  email: string;
  /**
   * Raw value by question id, only for questions the person answered; a multiple_select
   * question's ticked indexes are joined by commas ("" when none was ticked).
   */
  answers: ReadonlyMap<string, string>;
  version: string | undefined;
}

/** The posted form, as Express's urlencoded parser hands it over. */
export type PostedForm = Record<string, unknown>;

/** One question as the form asks it: what every type's control is drawn from. */
export interface AskedQuestion {
  tr: Translator;
  question: QuestionRow;
  index: number;
  total: number;
  required: boolean;
  values: FormValues;
  error: string | undefined;
  rich: RichTextOptions;
}

/**
 * A question type's face on the public form: its control, how the posted form is read back into
 * its raw value, and its problems in the page's words. Each is given the question's own key
 * (`key`, of its type), so the form never asks which type a question is.
 */
export interface FormFace<S extends ScorableQuestion = ScorableQuestion> {
  readonly type: S['type'];
  /** The question's control: a fieldset (or a labelled box) with its legend, hint and error. */
  fieldset(asked: AskedQuestion, key: S): Html;
  /** The raw value the form sent for it (FormValues' `answers`); undefined: left unanswered. */
  read(form: PostedForm, questionId: string, key: S): string | undefined;
  /**
   * A problem the domain found with its answer, in the page's language, from the issue's code
   * (never its English). Left unanswered is said by the form before a face is asked.
   */
  message(issue: FieldIssue, tr: Translator): string;
}

export const fieldName = (questionId: string) => `q_${questionId}`;
/** The first control of a question (radio, checkbox or text box): where an error summary link lands. */
export const firstInputId = (questionId: string) => `q_${questionId}_0`;
export const errorId = (key: string) => `error-${key}`;
/** A control of a question in parts (fill_in_blanks' blanks): its own name, by part number (1 first). */
export const partFieldName = (questionId: string, part: number) => `${fieldName(questionId)}_b${part}`;

// Only single string values count: a repeated field (an array) is tampering and reads as unanswered.
export const postedText = (value: unknown): string => (typeof value === 'string' ? value : '');

/** A typed answer or a radio group's value: what was sent, unless blank. */
export function readText(form: PostedForm, questionId: string): string | undefined {
  const value = postedText(form[fieldName(questionId)]);
  return value.trim() ? value : undefined;
}

/** A checkbox group's values: its empty marker, then one value per ticked box. */
export function readTicked(form: PostedForm, questionId: string): string | undefined {
  const value = form[fieldName(questionId)];
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((item) => typeof item === 'string') || values.length > 64) return undefined;
  if (!values.includes('')) return undefined; // the page always sends the marker: no marker, no answer
  return values.filter((item) => item !== '').join(',');
}

/** A list of selects (ordering's positions, matching's matches): the values chosen, joined; none chosen is no answer. */
export function readListed(form: PostedForm, questionId: string): string | undefined {
  const value = form[fieldName(questionId)];
  const values = Array.isArray(value) ? value : [value];
  if (!values.every((item) => typeof item === 'string') || values.length > 64) return undefined;
  const chosen = values.filter((item) => item !== '');
  return chosen.length > 0 ? chosen.join(',') : undefined;
}

/** A question answered in parts: each part's text as a JSON list in part order; none filled is no answer. */
export function readParts(form: PostedForm, questionId: string, count: number): string | undefined {
  const values = Array.from({ length: count }, (_, index) =>
    postedText(form[partFieldName(questionId, index + 1)]),
  );
  return values.some((value) => value.trim() !== '') ? JSON.stringify(values) : undefined;
}

/** A typed answer's problem: too long in the page's words, with the domain's limit; otherwise `other`. */
export const tooLongOr = (issue: FieldIssue, tr: Translator, max: number, other: string): string =>
  issue.code === 'too_long' ? tr.t('error.tooLong', { max: issue.params?.max ?? max }) : other;

/** A question's number and text, as its legend or label says them. */
export function questionLegend(
  tr: Translator,
  question: QuestionRow,
  index: number,
  total: number,
  rich: RichTextOptions,
) {
  return html`<span class="question-number"
      >${tr.t('quiz.questionNumber', { number: index + 1, total })}</span
    >
    <span class="question-text" dir="auto">${richText(question.text, rich, { control: true })}</span>`;
}

/** The question's picture, after its legend or label (web/images.ts). */
export const pictureOf = (question: QuestionRow) => questionImage(questionMedia(question)?.image);

/** An option's label with its picture, by the option's index in the quiz's order. */
export const withOptionImage = (question: QuestionRow, optionIndex: number, label: Html | string) => {
  const ref = questionMedia(question)?.options?.[optionIndex];
  return ref ? html`${label} ${optionImage(ref)}` : label;
};

/** The question's error, above its control, in the page's language. */
export const fieldError = (tr: Translator, key: string, error: string | undefined) =>
  fieldErrorText(key, error ? [error] : [], tr.t('quiz.errorPrefix'), errorId(key));

/**
 * A list the question names by opaque ids (ordering's items, matching's prompts...), in the
 * attempt's order under the attempt's ids; a preview, without an attempt, draws ids of its own,
 * never submitted.
 */
export function shownPartsOf(question: QuestionRow, name: string, spec: OpaqueListSpec) {
  return shownParts((question as ShownQuestion).shownLists?.[name] ?? drawOpaqueList(spec), spec);
}

/** The options a form shows: in the attempt's order when it has one, else in the quiz's. */
export { shownOptions };

/** What a refused form sent back from a list of selects: "<part id>:<choice>" entries, by part id. */
export function chosenPairs(raw: string | undefined): Map<string, string> {
  return new Map(
    (raw ?? '').split(',').map((entry): [string, string] => {
      const [id = '', chosen = ''] = entry.split(':');
      return [id, chosen];
    }),
  );
}

/** One choice of a radio group: its value, its label, and whether the label is the owner's rich text. */
export interface RadioChoice {
  value: string;
  label: string;
  rich: boolean;
}

/** The options of a question, in the order shown; values only, never scores. */
export function optionChoices(question: QuestionRow): RadioChoice[] {
  // The canonical index, which an attempt's shuffled order keeps; the owner's labels are rich text.
  return shownOptions(question).map((option) => ({
    value: String(option.index),
    label: option.label,
    rich: true,
  }));
}

/** A radio group: one of the choices given (yes and no, or the question's options). */
export function radioFieldset(
  { tr, question, index, total, required, values, error, rich }: AskedQuestion,
  choices: readonly RadioChoice[],
): Html {
  const name = fieldName(question.id);
  const legendId = `legend-${question.id}`;
  const chosen = values.answers.get(question.id);
  // role=radiogroup carries aria-invalid/aria-required, which a plain fieldset (role=group) does not.
  return html`<fieldset
    class="question${error ? ' has-error' : ''}"
    id="question-${question.id}"
    role="radiogroup"
    aria-labelledby="${legendId}"
    ${required ? html`aria-required="true"` : ''}
    ${error ? html`aria-invalid="true" aria-describedby="${errorId(question.id)}"` : ''}
  >
    <legend id="${legendId}">${questionLegend(tr, question, index, total, rich)}</legend>
    ${pictureOf(question)} ${fieldError(tr, question.id, error)}
    <div class="choices">
      ${choices.map((option, position) =>
        choice({
          type: 'radio',
          id: `${name}_${position}`,
          name,
          value: option.value,
          checked: chosen === option.value,
          label: option.rich
            ? withOptionImage(question, Number(option.value), richText(option.label, rich, { control: true }))
            : option.label,
          dir: 'auto',
        }),
      )}
    </div>
  </fieldset>`;
}

/**
 * A number typed on the form, for the types answered with one (number, calculated): a text box
 * with a decimal keypad, not type=number (which drops "3,5"), read as written.
 */
export const numberBox: Pick<FormFace, 'fieldset' | 'read' | 'message'> = {
  fieldset: (asked) =>
    typedAnswerField(
      asked,
      asked.tr.t('quiz.numberHint'),
      html`inputmode="decimal" maxlength="40" class="number-answer"`,
    ),
  read: (form, questionId) => readText(form, questionId),
  message: (_issue, tr) => tr.t('error.numberInvalid'),
};

/**
 * A typed answer: one labelled text box, its hint and its own attributes (a number's decimal
 * keypad, or a text's length).
 */
export function typedAnswerField(
  { tr, question, index, total, required, values, error, rich }: AskedQuestion,
  hint: string,
  attributes: Html,
): Html {
  const id = firstInputId(question.id);
  return html`<div class="question${error ? ' has-error' : ''}" id="question-${question.id}">
    <label class="question-label" for="${id}">${questionLegend(tr, question, index, total, rich)}</label>
    ${pictureOf(question)}
    <p class="hint" id="hint-${question.id}">${hint}</p>
    ${fieldError(tr, question.id, error)}
    <input
      type="text"
      id="${id}"
      name="${fieldName(question.id)}"
      value="${values.answers.get(question.id) ?? ''}"
      autocomplete="off"
      ${attributes}
      ${required ? html`aria-required="true"` : ''}
      aria-describedby="${error ? `${errorId(question.id)} ` : ''}hint-${question.id}"
      ${error ? html`aria-invalid="true"` : ''}
    />
  </div>`;
}

/** What a list of selects asks: its parts (items to place, prompts to match) and the choices each offers. */
export interface SelectList {
  /** The prefix of the classes its fieldset, list, items and labels take ("order", "match"). */
  kind: string;
  /** An ordered list (<ol>) when the parts' order is what is asked, else <ul>. */
  ordered: boolean;
  /** The class of each select, which the browser suites find it by. */
  selectClass: string;
  /** Whether each select takes dir="auto" (its choices are the owner's words, not numbers). */
  autoDirection: boolean;
  hint: string;
  /** The first choice of each select: none chosen. */
  none: string;
  parts: readonly { id: string; label: string }[];
  choices: readonly { value: string; label: string }[];
}

/**
 * A list of selects (ordering's positions, matching's matches): each part labelled, in the
 * attempt's order, with a select of every choice, so it works by keyboard and without scripts.
 * Values are "<part id>:<choice>", which readListed reads back and chosenPairs re-selects.
 */
export function selectListFieldset(
  { tr, question, index, total, required, values, error, rich }: AskedQuestion,
  list: SelectList,
): Html {
  const name = fieldName(question.id);
  const legendId = `legend-${question.id}`;
  const chosen = chosenPairs(values.answers.get(question.id));
  const items = list.parts.map(
    (part, position) =>
      html`<li class="${list.kind}-item">
        <label class="${list.kind}-label" for="${name}_${position}"
          ><span dir="auto">${richText(part.label, rich, { control: true })}</span></label
        >
        <select
          id="${name}_${position}"
          name="${name}"
          class="${list.selectClass}"
          ${list.autoDirection ? html`dir="auto"` : ''}
          ${required ? html`aria-required="true"` : ''}
          ${error ? html`aria-invalid="true"` : ''}
        >
          <option value="">${list.none}</option>
          ${list.choices.map(
            (option) =>
              html`<option
                value="${part.id}:${option.value}"
                ${chosen.get(part.id) === option.value ? html`selected` : ''}
              >
                ${option.label}
              </option>`,
          )}
        </select>
      </li>`,
  );
  return html`<fieldset
    class="question ${list.kind}-question${error ? ' has-error' : ''}"
    id="question-${question.id}"
    aria-labelledby="${legendId}"
    aria-describedby="${error ? `${errorId(question.id)} ` : ''}hint-${question.id}"
  >
    <legend id="${legendId}">${questionLegend(tr, question, index, total, rich)}</legend>
    ${pictureOf(question)}
    <p class="hint" id="hint-${question.id}">${list.hint}</p>
    ${fieldError(tr, question.id, error)}
    ${
      list.ordered
        ? html`<ol class="${list.kind}-items">
            ${items}
          </ol>`
        : html`<ul class="${list.kind}-items">
            ${items}
          </ul>`
    }
  </fieldset>`;
}
