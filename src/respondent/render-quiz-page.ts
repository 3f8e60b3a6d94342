import { randomBytes } from 'node:crypto';
import type { QuestionRow, QuizWithQuestions } from '../db/repositories';
import { TEXT_ANSWER_MAX } from '../domain/answer-text';
import { shownOptions, type ShownQuestion } from '../domain/attempts/attempts';
import {
  BLANK_MARKER,
  blankListName,
  drawOpaqueList,
  shownParts,
  storedDefinition,
  storedTypeOf,
  toScorable,
  type QuestionType,
} from '../domain/question-types';
import { LIMITS } from '../domain/limits';
import { RESPONDENT_LIMITS } from '../domain/attempts/validate-submission';
import { html, type Html } from '../web/html';
import { layout } from '../web/layout';
import { choice, errorSummary, field, fieldErrorText } from '../web/parts';
import { richOptionsOf, richText, richTextWithSlots, type RichTextOptions } from '../web/rich-text';
import { optionImage, questionImage, questionMedia } from '../web/images';
import { translator, type Translator } from './i18n';
import {
  EMAIL_ID,
  EMPTY_VALUES,
  errorId,
  fieldName,
  firstInputId,
  NAME_ID,
  partFieldName,
  type FormErrors,
  type FormValues,
} from './read-form-answers';

export interface QuizPageState {
  values?: FormValues;
  errors?: FormErrors;
  /** The quiz changed between rendering the page and submitting it. */
  changed?: boolean;
  /** A quiz taken in one attempt (attempt-pages.ts): its token, timer and email, in place of the version field. */
  attempt?: {
    fields: Html;
    scripts: readonly string[];
    emailFixed: boolean;
    /** Where the answers are saved as the student goes (save-routes.ts). */
    saveUrl?: string;
    /** The page follows a no-script Save: say the answers are kept. */
    saved?: boolean;
  };
  /** A preview (a signed link): marked as one, and its form sends nothing. */
  preview?: boolean;
  /** In a browser that submitted the quiz before: the way to that result (kept-cookie.ts). */
  returning?: Html;
}

/** Where the quiz begins below a returning student's notice: "Take it again" goes there. */
export const TAKE_ID = 'take';

// Public pages of someone else's quiz: keep them (and their results) out of search engines.
export const ROBOTS = 'noindex, nofollow';

function formErrorSummary(tr: Translator, errors: FormErrors | undefined, changed: boolean): Html | string {
  if (!errors?.summary.length && !changed) return '';
  // Focused on load (autofocus works without scripts) so keyboard and screen-reader users land on it.
  return errorSummary({
    errors: (errors?.summary ?? []).map((item) => ({
      field: item.href.replace(/^#/, ''),
      message: item.message,
    })),
    heading: changed ? tr.t('quiz.changedHeading') : tr.t('quiz.problemHeading'),
    intro: changed ? tr.t('quiz.changedText') : '',
    autofocus: true,
    force: true,
  });
}

/** A respondent's text field (name, email) in the quiz's language, on the shared field part. */
export function textField(
  tr: Translator,
  options: {
    id: string;
    key: string;
    name: string;
    label: string;
    type: 'text' | 'email';
    autocomplete: string;
    maxlength: number;
    value: string;
    error: string | undefined;
  },
): Html {
  const { id, key, error } = options;
  return field({
    id,
    errorId: errorId(key),
    name: options.name,
    label: options.label,
    type: options.type,
    value: options.value,
    autocomplete: options.autocomplete,
    maxlength: options.maxlength,
    errors: error ? [error] : [],
    errorPrefix: tr.t('quiz.errorPrefix'),
    ...(options.type === 'email' ? { spellcheck: false, inputmode: 'email' as const } : {}),
  });
}

function respondentFields(
  tr: Translator,
  quiz: QuizWithQuestions,
  values: FormValues,
  errors: FormErrors | undefined,
  emailFixed: boolean,
): Html | string {
  const askEmail = quiz.collectEmail && !emailFixed;
  if (!quiz.collectName && !askEmail) return '';
  const asked = quiz.collectName && quiz.collectEmail ? 'both' : quiz.collectName ? 'name' : 'email';
  return html`<fieldset class="respondent">
    <legend>${tr.t('quiz.aboutYou')}</legend>
    <p class="hint">${tr.t('quiz.sharedWithOwner', { asked })}</p>
    ${
      quiz.collectName
        ? textField(tr, {
            id: NAME_ID,
            key: 'name',
            name: 'name',
            label: tr.t('quiz.yourName'),
            type: 'text',
            autocomplete: 'name',
            maxlength: RESPONDENT_LIMITS.nameMax,
            value: values.name,
            error: errors?.fields.get('name'),
          })
        : ''
    }
    ${
      askEmail
        ? textField(tr, {
            id: EMAIL_ID,
            key: 'email',
            name: 'email',
            label: tr.t('quiz.yourEmail'),
            type: 'email',
            autocomplete: 'email',
            maxlength: RESPONDENT_LIMITS.emailMax,
            value: values.email,
            error: errors?.fields.get('email'),
          })
        : ''
    }
  </fieldset>`;
}

/** The choices of a question, in the order given; values only, never scores. */
function choicesOf(
  tr: Translator,
  question: QuestionRow,
): Array<{ value: string; label: string; rich: boolean }> {
  if (question.type === 'yes_no') {
    return [
      { value: 'yes', label: tr.t('quiz.yes'), rich: false },
      { value: 'no', label: tr.t('quiz.no'), rich: false },
    ];
  }
  // The canonical index, which an attempt's shuffled order keeps; the owner's labels are rich text.
  return shownOptions(question).map((option) => ({
    value: String(option.index),
    label: option.label,
    rich: true,
  }));
}

function questionLegend(
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
const pictureOf = (question: QuestionRow) => questionImage(questionMedia(question)?.image);

/** An option's label with its picture, by the option's index in the quiz's order. */
const withOptionImage = (question: QuestionRow, optionIndex: number, label: Html | string) => {
  const ref = questionMedia(question)?.options?.[optionIndex];
  return ref ? html`${label} ${optionImage(ref)}` : label;
};

/** One question as the form asks it: what every type's control is drawn from. */
interface AskedQuestion {
  tr: Translator;
  question: QuestionRow;
  index: number;
  total: number;
  required: boolean;
  values: FormValues;
  error: string | undefined;
  rich: RichTextOptions;
}

const fieldError = (tr: Translator, key: string, error: string | undefined) =>
  fieldErrorText(key, error ? [error] : [], tr.t('quiz.errorPrefix'), errorId(key));

/** A typed answer: one labelled text box; numbers get a decimal keypad, not type=number (which drops "3,5"). */
function typedAnswerField({
  tr,
  question,
  index,
  total,
  required,
  values,
  error,
  rich,
}: AskedQuestion): Html {
  const id = firstInputId(question.id);
  const number = question.type === 'number';
  return html`<div class="question${error ? ' has-error' : ''}" id="question-${question.id}">
    <label class="question-label" for="${id}">${questionLegend(tr, question, index, total, rich)}</label>
    ${pictureOf(question)}
    <p class="hint" id="hint-${question.id}">${number ? tr.t('quiz.numberHint') : tr.t('quiz.textHint')}</p>
    ${fieldError(tr, question.id, error)}
    <input
      type="text"
      id="${id}"
      name="${fieldName(question.id)}"
      value="${values.answers.get(question.id) ?? ''}"
      autocomplete="off"
      ${number ? html`inputmode="decimal" maxlength="40" class="number-answer"` : html`maxlength="${TEXT_ANSWER_MAX}"`}
      ${required ? html`aria-required="true"` : ''}
      aria-describedby="${error ? `${errorId(question.id)} ` : ''}hint-${question.id}"
      ${error ? html`aria-invalid="true"` : ''}
    />
  </div>`;
}

/** A long answer (essay): a labelled text area, its word bounds said in the hint. */
function essayAnswerField({
  tr,
  question,
  index,
  total,
  required,
  values,
  error,
  rich,
}: AskedQuestion): Html {
  const key = toScorable(question);
  if (key.type !== 'essay') return html``;
  const id = firstInputId(question.id);
  const bounds =
    key.minWords === null && key.maxWords === null
      ? ''
      : ` ${tr.t('quiz.essayWords', { min: key.minWords ?? 'none', max: key.maxWords ?? 'none' }).trim()}`;
  return html`<div class="question${error ? ' has-error' : ''}" id="question-${question.id}">
    <label class="question-label" for="${id}">${questionLegend(tr, question, index, total, rich)}</label>
    ${pictureOf(question)}
    <p class="hint" id="hint-${question.id}">${tr.t('quiz.essayHint')}${bounds}</p>
    ${fieldError(tr, question.id, error)}
    <textarea
      id="${id}"
      name="${fieldName(question.id)}"
      rows="10"
      class="essay-answer"
      maxlength="${LIMITS.essayTextMax}"
      dir="auto"
      ${required ? html`aria-required="true"` : ''}
      aria-describedby="${error ? `${errorId(question.id)} ` : ''}hint-${question.id}"
      ${error ? html`aria-invalid="true"` : ''}
    >
${values.answers.get(question.id) ?? ''}</textarea>
  </div>`;
}

/** A checkbox group: an empty marker value is always sent, so that ticking none is an answer. */
function tickedAnswerFieldset({ tr, question, index, total, values, error, rich }: AskedQuestion): Html {
  const name = fieldName(question.id);
  const legendId = `legend-${question.id}`;
  const ticked = new Set((values.answers.get(question.id) ?? '').split(',').filter(Boolean));
  return html`<fieldset
    class="question${error ? ' has-error' : ''}"
    id="question-${question.id}"
    aria-labelledby="${legendId}"
    aria-describedby="${error ? `${errorId(question.id)} ` : ''}hint-${question.id}"
  >
    <legend id="${legendId}">${questionLegend(tr, question, index, total, rich)}</legend>
    ${pictureOf(question)}
    <p class="hint" id="hint-${question.id}">${tr.t('quiz.tickHint')}</p>
    ${fieldError(tr, question.id, error)}
    <input type="hidden" name="${name}" value="" />
    <div class="choices">
      ${shownOptions(question).map(
        // The value is the canonical index, which an attempt's shuffled order keeps.
        (option, position) =>
          choice({
            type: 'checkbox',
            id: `${name}_${position}`,
            name,
            value: String(option.index),
            checked: ticked.has(String(option.index)),
            label: withOptionImage(question, option.index, richText(option.label, rich, { control: true })),
            dir: 'auto',
          }),
      )}
    </div>
  </fieldset>`;
}

/** What a refused form sent back from a list of selects: "<part id>:<choice>" entries, by part id. */
function chosenPairs(raw: string | undefined): Map<string, string> {
  return new Map(
    (raw ?? '').split(',').map((entry): [string, string] => {
      const [id = '', choice = ''] = entry.split(':');
      return [id, choice];
    }),
  );
}

/**
 * Items to put in order (ordering): each item, in the attempt's order, with a select of its
 * position, so it works by keyboard and without scripts. Values carry the attempt's opaque item
 * ids, never the canonical order (a preview draws ids of its own, never submitted).
 */
function orderFieldset({ tr, question, index, total, required, values, error, rich }: AskedQuestion): Html {
  const name = fieldName(question.id);
  const legendId = `legend-${question.id}`;
  const spec = storedDefinition(question.type).opaqueLists?.(toScorable(question)).items;
  if (!spec) return html``;
  const list = (question as ShownQuestion).shownLists?.items ?? drawOpaqueList(spec);
  const parts = shownParts(list, spec);
  const chosen = chosenPairs(values.answers.get(question.id));
  const positions = parts.map((_, position) => position + 1);
  return html`<fieldset
    class="question order-question${error ? ' has-error' : ''}"
    id="question-${question.id}"
    aria-labelledby="${legendId}"
    aria-describedby="${error ? `${errorId(question.id)} ` : ''}hint-${question.id}"
  >
    <legend id="${legendId}">${questionLegend(tr, question, index, total, rich)}</legend>
    ${pictureOf(question)}
    <p class="hint" id="hint-${question.id}">${tr.t('quiz.orderHint')}</p>
    ${fieldError(tr, question.id, error)}
    <ol class="order-items">
      ${parts.map(
        (part, position) =>
          html`<li class="order-item">
            <label class="order-label" for="${name}_${position}"
              ><span dir="auto">${richText(part.label, rich, { control: true })}</span></label
            >
            <select
              id="${name}_${position}"
              name="${name}"
              class="order-position"
              ${required ? html`aria-required="true"` : ''}
              ${error ? html`aria-invalid="true"` : ''}
            >
              <option value="">${tr.t('quiz.orderPosition')}</option>
              ${positions.map(
                (number) =>
                  html`<option
                    value="${part.id}:${number}"
                    ${chosen.get(part.id) === String(number) ? html`selected` : ''}
                  >
                    ${String(number)}
                  </option>`,
              )}
            </select>
          </li>`,
      )}
    </ol>
  </fieldset>`;
}

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
function blanksFieldset({ tr, question, index, total, required, values, error, rich }: AskedQuestion): Html {
  const legendId = `legend-${question.id}`;
  const key = toScorable(question);
  if (!('blanks' in key)) return html``;
  const specs = storedDefinition(question.type).opaqueLists?.(key) ?? {};
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
      const list = (question as ShownQuestion).shownLists?.[blankListName(number)] ?? drawOpaqueList(spec);
      input = html`<select ${common} class="blank-choice">
        <option value="">${tr.t('quiz.blankChoose')}</option>
        ${shownParts(list, spec).map(
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
 * Prompts to match (matching): one labelled select per prompt, in the attempt's order, each
 * offering every match in the attempt's order, so it works by keyboard and without scripts.
 * Values are "<prompt id>:<match id>", the attempt's opaque ids (a preview draws its own).
 */
function matchFieldset({ tr, question, index, total, required, values, error, rich }: AskedQuestion): Html {
  const name = fieldName(question.id);
  const legendId = `legend-${question.id}`;
  const specs = storedDefinition(question.type).opaqueLists?.(toScorable(question));
  if (!specs?.prompts || !specs.matches) return html``;
  const shown = (question as ShownQuestion).shownLists;
  const prompts = shownParts(shown?.prompts ?? drawOpaqueList(specs.prompts), specs.prompts);
  const matches = shownParts(shown?.matches ?? drawOpaqueList(specs.matches), specs.matches);
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

/** How the public form asks each type. */
const FIELDSETS: Record<QuestionType, (asked: AskedQuestion) => Html> = {
  yes_no: radioFieldset,
  multiple_choice: radioFieldset,
  multiple_select: tickedAnswerFieldset,
  short_text: typedAnswerField,
  number: typedAnswerField,
  ordering: orderFieldset,
  matching: matchFieldset,
  fill_in_blanks: blanksFieldset,
  scale: scaleFieldset,
  essay: essayAnswerField,
};

function questionFieldset(
  tr: Translator,
  question: QuestionRow,
  index: number,
  total: number,
  required: boolean,
  values: FormValues,
  errors: FormErrors | undefined,
  rich: RichTextOptions,
): Html {
  const error = errors?.fields.get(question.id);
  return FIELDSETS[storedTypeOf(question.type)]({
    tr,
    question,
    index,
    total,
    required,
    values,
    error,
    rich,
  });
}

/** A radio group: one choice of the question's (yes and no, or its options). */
function radioFieldset({ tr, question, index, total, required, values, error, rich }: AskedQuestion): Html {
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
      ${choicesOf(tr, question).map((option, position) =>
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
 * An opinion scale: one radio per value, in a row that wraps (eleven fit a phone in two rows),
 * the end words shown beside the row and read with the end values' names.
 */
function scaleFieldset({ tr, question, index, total, required, values, error, rich }: AskedQuestion): Html {
  const key = toScorable(question);
  if (key.type !== 'scale') return html``;
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

/** The owner's description: rich text (web/rich-text.ts), its line breaks kept. */
export function quizDescription(quiz: Pick<QuizWithQuestions, 'description' | 'mathDollars'>) {
  return quiz.description
    ? html`<p class="quiz-description" dir="auto">${richText(quiz.description, richOptionsOf(quiz))}</p>`
    : '';
}

/**
 * The respondent pages' one script (web/assets/quiz-taking.js; the CSP allows no inline script):
 * an attempt's timer and saves, and the answers a form without an attempt keeps in the browser.
 */
export const TAKING_SCRIPT = 'quiz-taking.js';

/** The browser-storage key of a quiz's answers taken without an attempt: one per quiz. */
export const keptAnswersKey = (slug: string) => `quiz-answers:${slug}`;

/** The place a no-script Save returns to (its anchor). */
export const SAVE_PLACE = 'save-answers';

/**
 * Save without script (a formaction post that comes back here), and the live line where the
 * page's script says whether the answers it saves as the student types are kept.
 */
function saveBar(tr: Translator, saveUrl: string, saved: boolean): Html {
  return html`<div class="save-bar" id="${SAVE_PLACE}" data-save-url="${saveUrl}">
    <button
      type="submit"
      class="secondary"
      formaction="${saveUrl}"
      formnovalidate
      name="save_place"
      value="${SAVE_PLACE}"
    >
      ${tr.t('quiz.saveAnswers')}
    </button>
    <p
      class="muted save-status"
      id="save-status"
      role="status"
      data-saved="${tr.t('quiz.saved')}"
      data-retrying="${tr.t('quiz.saveRetrying')}"
    >
      ${saved ? tr.t('quiz.saved') : ''}
    </p>
  </div>`;
}

/**
 * The form's one-time token: the same page posted twice (a double click, a resend after a dropped
 * connection) stores one response. Random per rendering, so two students' pages never share one.
 */
export const SUBMISSION_TOKEN_FIELD = 'submission_token';
const newSubmissionToken = () => randomBytes(16).toString('base64url');

/** GET /q/:slug and the 422 re-render: the form of a published quiz that takes responses. */
export function renderQuizPage(quiz: QuizWithQuestions, state: QuizPageState = {}): string {
  const tr = translator(quiz.language);
  const values = state.values ?? EMPTY_VALUES;
  const total = quiz.questions.length;
  const hasErrors = Boolean(state.errors?.summary.length) || Boolean(state.changed);
  // Without an attempt nothing is on the server until the form is sent: the page's script keeps
  // the answers in this browser instead, and says so in the status line it fills.
  const keptInBrowser = !state.attempt && !state.preview;
  const body = html`<h1 dir="auto">${quiz.title}</h1>
    ${state.returning ?? ''} ${quizDescription(quiz)}
    <p class="muted" id="${TAKE_ID}">
      ${tr.t('quiz.questionCount', { count: total })}
      ${quiz.requireAllAnswers ? tr.t('quiz.answerEvery') : tr.t('quiz.answerAny')}
    </p>
    ${state.preview ? html`<div class="notice preview" role="note"><p>${tr.t('quiz.previewBanner')}</p></div>` : ''}
    ${formErrorSummary(tr, state.errors, Boolean(state.changed))}
    <form
      method="post"
      action="${state.preview ? '' : `/q/${quiz.slug}`}"
      class="quiz-form"
      novalidate
      ${keptInBrowser ? html`data-keep-answers="${keptAnswersKey(quiz.slug)}"` : ''}
    >
      ${state.attempt ? state.attempt.fields : html`<input type="hidden" name="version" value="${quiz.version}" />`}
      ${state.preview ? '' : html`<input type="hidden" name="${SUBMISSION_TOKEN_FIELD}" value="${newSubmissionToken()}" />`}
      ${respondentFields(tr, quiz, values, state.errors, state.attempt?.emailFixed ?? false)}
      ${quiz.questions.map((question, index) =>
        questionFieldset(
          tr,
          question,
          index,
          total,
          quiz.requireAllAnswers,
          values,
          state.errors,
          richOptionsOf(quiz),
        ),
      )}
      ${
        state.preview
          ? html`<p class="muted" id="preview-no-submit">${tr.t('quiz.previewNoSubmit')}</p>
              <button type="submit" disabled aria-describedby="preview-no-submit">
                ${tr.t('quiz.submit')}
              </button>`
          : html`${state.attempt?.saveUrl ? saveBar(tr, state.attempt.saveUrl, state.attempt.saved === true) : ''}
              ${keptInBrowser ? keptStatus(tr) : ''} <button type="submit">${tr.t('quiz.submit')}</button>`
      }
    </form>`;
  return layout({
    title: hasErrors ? tr.t('quiz.errorTitle', { title: quiz.title }) : quiz.title,
    body,
    robots: ROBOTS,
    lang: tr.lang,
    dir: tr.dir,
    ...(state.attempt
      ? { scripts: state.attempt.scripts }
      : keptInBrowser
        ? { scripts: [TAKING_SCRIPT] }
        : {}),
  });
}

/** The live line the page's script fills once it keeps the answers in this browser; empty without script. */
function keptStatus(tr: Translator): Html {
  return html`<p
    class="muted save-status"
    id="kept-status"
    role="status"
    data-kept="${tr.t('quiz.keptInBrowser')}"
  ></p>`;
}

/** A published quiz whose owner stopped taking responses: say so, and show no form. */
export function renderClosedPage(quiz: QuizWithQuestions): string {
  const tr = translator(quiz.language);
  const body = html`<h1 dir="auto">${quiz.title}</h1>
    <div class="notice closed" role="status">
      <h2>${tr.t('quiz.closedHeading')}</h2>
      <p>${tr.t('quiz.closedText')}</p>
    </div>`;
  return layout({
    title: tr.t('quiz.closedTitle', { title: quiz.title }),
    body,
    robots: ROBOTS,
    lang: tr.lang,
    dir: tr.dir,
  });
}

/** A preview link that does not open (expired, revoked, altered): said to its owner, in English. */
export function renderLinkRefusedPage(text: string): string {
  const body = html`<h1>This link does not work</h1>
    <p>${text}</p>`;
  return layout({ title: 'Link not valid', body, robots: ROBOTS, lang: 'en', dir: 'ltr' });
}
