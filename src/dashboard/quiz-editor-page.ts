import type { Response } from 'express';
import { LIMITS, QUESTION_TYPES, type QuestionType } from '../domain/quiz-input';
import { csrfField } from '../web/csrf';
import { html, type Html } from '../web/html';
import { sendPage } from '../web/page-shell';
import {
  checkbox,
  errorSummary,
  errorsFor,
  field,
  fieldErrorText,
  radioGroup,
  selectField,
  type FieldError,
} from '../web/parts';
import {
  EDITOR_SETTINGS,
  PAIR_MARK,
  type DraftPicture,
  type DraftQuestion,
  type QuizDraft,
} from './quiz-draft';
import { IMAGE_LIMITS } from '../domain/images/decode-image';
import { parseAction, placeAfter } from './quiz-draft-actions';

export interface EditorState {
  draft: QuizDraft;
  /** The quiz being edited; absent for a new quiz. */
  quiz?: { id: string; title: string; published: boolean };
  /** Field errors by form id (see `fieldId`), with '' for the form as a whole. */
  errors?: FieldError[];
  status?: number;
  /** The element a button's change left the teacher at (focused on load). */
  focus?: string;
  /** The IANA zone the opening and closing times are shown and picked in. */
  timeZone?: string;
}

/** `questions[2].options[1].label` (the domain's field) and `questions[2][options][1][label]` (the form's name) as one element id. */
export function fieldId(field: string): string {
  return field
    .replace(/\]\[|\]\.|\[|\./g, '-')
    .replace(/\]/g, '')
    .replace(/-+$/, '');
}

/** The ids the editor renders a field (and its error) under; `renderedField` finds the nearest. */
const RENDERED = [
  /^(title|description|questions|settings|confirm_edit_published)$/,
  /^questions-\d+$/,
  /^questions-\d+-(text|explanation|points|correct_answer|options|accepted_answers|correct_number|tolerance|items|points_per_item|pairs|extra_matches|points_per_pair|scale_min|scale_max|min_label|max_label|blanks)$/,
  /^questions-\d+-options-\d+-(label|score)$/,
  /^questions-\d+(-options-\d+)?-(image_alt|image_file)$/,
  // Each setting the editor asks for by a field of its own (a tick box's problem is shown with the settings).
  new RegExp(
    `^settings-(${EDITOR_SETTINGS.filter((entry) => entry.editor!.kind !== 'checkbox')
      .map((entry) => entry.name)
      .join('|')})$`,
  ),
];

/** The nearest field the form shows for a domain field (`questions[2].type` is shown on question 3); '' for the form. */
export function renderedField(field: string): string {
  // A scale's two end words are one list to the tools and two fields here.
  let id = fieldId(field)
    .replace(/-scale_labels-0$/, '-min_label')
    .replace(/-scale_labels-1$/, '-max_label')
    // A picture's alt text is its own field; any other problem with it is shown at its file field.
    .replace(/-image-alt$/, '-image_alt')
    .replace(/-image(-(url|upload_id|data))?$/, '-image_file');
  while (id && !RENDERED.some((pattern) => pattern.test(id))) id = id.replace(/-?[^-]*$/, '');
  return id;
}

/** What the editor is showing: where a teacher's last button left them, and the zone of its times. */
interface View {
  errors: FieldError[];
  /** The element to focus on load, so the keyboard stays where the change was made. */
  focus: string;
  /** The form's address, to which each button adds the fragment it lands on. */
  action: string;
  timeZone: string;
  /** The draft as shown, from which each button's landing place is worked out. */
  draft: QuizDraft;
}

function errorOf(errors: FieldError[], id: string): Html {
  return fieldErrorText(id, errorsFor(errors, id));
}

interface TextOptions {
  name: string;
  label: Html | string;
  value: string;
  view: View;
  hint?: string;
  multiline?: boolean;
  maxlength?: number;
  inputmode?: 'numeric' | 'decimal';
  className?: string;
  type?: 'text' | 'datetime-local';
  /** Owner's text in any script. */
  text?: boolean;
}

/** A field of the editor: its id from the form name, its errors and focus from the view. */
function textField(options: TextOptions): Html {
  const id = fieldId(options.name);
  return field({
    id,
    name: options.name,
    label: options.label,
    value: options.value,
    errors: errorsFor(options.view.errors, id),
    ...(options.hint ? { hint: options.hint } : {}),
    ...(options.multiline ? { multiline: true } : {}),
    ...(options.maxlength ? { maxlength: options.maxlength } : {}),
    ...(options.inputmode ? { inputmode: options.inputmode } : {}),
    ...(options.className ? { className: options.className } : {}),
    ...(options.type ? { type: options.type } : {}),
    ...(options.text ? { dir: 'auto' as const } : {}),
  });
}

function checkboxField(name: string, label: string, checked: boolean, hint?: string): Html {
  return checkbox({ id: fieldId(name), name, label, checked, ...(hint ? { hint } : {}) });
}

/**
 * A submit button that changes the form; `lands` is the element the page comes back at: the
 * button posts to the form's address with that fragment (formaction), so the browser scrolls
 * there, and assets/editor-place.js focuses the element the view names.
 */
function actionButton(
  view: View,
  action: string,
  label: string,
  accessible: string,
  className = 'secondary small',
  id?: string,
): Html {
  const lands = placeAfter(view.draft, parseAction(action));
  return html`<button
    type="submit"
    name="_action"
    value="${action}"
    class="${className}"
    formaction="${view.action}#${lands}"
    ${id ? html`id="${id}"` : ''}
  >
    ${label}${accessible ? html`<span class="sr-only"> ${accessible}</span>` : ''}
  </button>`;
}

/** Where the editor shows a picture: a stored one from our origin, an upload not yet saved from its owner's route. */
export const picturePreviewPath = (ref: string) =>
  ref.startsWith('upl_') ? `/dashboard/pictures/${ref}` : ref;

/**
 * A question's or an option's picture: the current one with its alt text, a file field to send
 * one (or another), its alt text (required with a picture) and the buttons that upload and
 * remove it. The file travels with the whole form (multipart), so Upload works without script.
 */
function pictureFields(base: string, picture: DraftPicture, view: View, place: string, action: string): Html {
  const fileId = fieldId(`${base}[image_file]`);
  const fileErrors = errorsFor(view.errors, fileId);
  const hintId = `${fileId}-hint`;
  const describedBy = [hintId, fileErrors.length > 0 ? `${fileId}-error` : ''].filter(Boolean).join(' ');
  const mb = IMAGE_LIMITS.maxBytes / (1024 * 1024);
  return html`<div class="picture-field" id="${fieldId(base)}-picture">
    ${
      picture.ref
        ? html`<figure class="picture-current">
            <a class="question-image" href="${picturePreviewPath(picture.ref)}" target="_blank" rel="noopener"
              ><img
                src="${picturePreviewPath(picture.ref)}"
                alt="${picture.alt}"
                ${picture.width ? html`width="${picture.width}"` : ''}
                ${picture.height ? html`height="${picture.height}"` : ''}
              /><span class="sr-only">Open the picture at full size</span></a
            >
            <figcaption>
              ${picture.ref.startsWith('upl_') ? 'Uploaded picture (stored when you save)' : 'Current picture'}
              ${picture.alt ? html`: “${picture.alt}”` : ''}
            </figcaption>
          </figure>`
        : ''
    }
    <input type="hidden" name="${base}[image_ref]" value="${picture.ref}" />
    <input type="hidden" name="${base}[image_width]" value="${picture.width}" />
    <input type="hidden" name="${base}[image_height]" value="${picture.height}" />
    <div class="field">
      <label for="${fileId}"
        >${picture.ref ? `Replace the picture of ${place}` : `Picture for ${place} (optional)`}</label
      >
      <p class="hint" id="${hintId}">PNG, JPEG, WebP or GIF, at most ${mb} MB; choose a file, then Upload.</p>
      ${fieldErrorText(fileId, fileErrors)}
      <input
        type="file"
        id="${fileId}"
        name="${base}[image_file]"
        accept="image/png,image/jpeg,image/webp,image/gif"
        aria-describedby="${describedBy}"
        ${fileErrors.length > 0 ? html`aria-invalid="true"` : ''}
      />
    </div>
    ${textField({
      name: `${base}[image_alt]`,
      label: `Alt text of the picture of ${place}`,
      value: picture.alt,
      view,
      maxlength: LIMITS.imageAltMax,
      text: true,
      hint: 'Required with a picture: what it shows, for people who cannot see it.',
    })}
    <p class="picture-tools">
      ${actionButton(view, `upload-image:${action}`, 'Upload', `the picture of ${place}`)}
      ${picture.ref ? actionButton(view, `remove-image:${action}`, 'Remove the picture', `of ${place}`, 'secondary small danger') : ''}
    </p>
  </div>`;
}

function yesNoFields(base: string, question: DraftQuestion, view: View): Html {
  const id = fieldId(`${base}[correct_answer]`);
  return html`${radioGroup({
    id,
    name: `${base}[correct_answer]`,
    legend: 'Right answer',
    value: question.correct_answer,
    choices: [
      { value: 'yes', label: 'Yes' },
      { value: 'no', label: 'No' },
    ],
    errors: errorsFor(view.errors, id),
  })}
  ${textField({
    name: `${base}[points]`,
    label: 'Points for the right answer',
    value: question.points,
    view,
    hint: `A whole number from ${LIMITS.pointsMin} to ${LIMITS.pointsMax}; the other answer earns 0.`,
    inputmode: 'numeric',
    className: 'short',
  })}`;
}

/** The options of a choice question, with how respondents answer them (`how`, from the type's entry). */
function optionFields(base: string, index: number, question: DraftQuestion, view: View, how: string): Html {
  const id = fieldId(`${base}[options]`);
  const hasError = view.errors.some((error) => error.field === id);
  const count = question.options.length;
  return html`<fieldset class="options${hasError ? ' has-error' : ''}" id="${id}">
    <legend>
      Options
      <span class="hint">(${how})</span>
    </legend>
    ${errorOf(view.errors, id)}
    <ol class="option-list">
      ${question.options.map((option, optionIndex) => {
        const name = `${base}[options][${optionIndex}]`;
        return html`<li class="option-row">
          ${textField({
            name: `${name}[label]`,
            label: html`Option ${optionIndex + 1}`,
            value: option.label,
            view,
            maxlength: LIMITS.optionLabelMax,
            text: true,
          })}
          ${textField({
            name: `${name}[score]`,
            label: 'Score',
            value: option.score,
            view,
            inputmode: 'numeric',
            className: 'short',
          })}
          ${pictureFields(
            name,
            option.image,
            view,
            `option ${optionIndex + 1} of question ${index + 1}`,
            `${index}:${optionIndex}`,
          )}
          ${actionButton(
            view,
            `remove-option:${index}:${optionIndex}`,
            'Remove',
            `option ${optionIndex + 1} of question ${index + 1}`,
            'link',
          )}
        </li>`;
      })}
    </ol>
    ${
      count < LIMITS.optionsMax
        ? actionButton(
            view,
            `add-option:${index}`,
            'Add an option',
            `to question ${index + 1}`,
            'secondary small',
            `${id}-add`,
          )
        : ''
    }
  </fieldset>`;
}

function pointsField(base: string, question: DraftQuestion, view: View, hint: string): Html {
  return textField({
    name: `${base}[points]`,
    label: 'Points for the right answer',
    value: question.points,
    view,
    hint,
    inputmode: 'numeric',
    className: 'short',
  });
}

function typedAnswerFields(base: string, question: DraftQuestion, view: View): Html {
  return html`${textField({
    name: `${base}[accepted_answers]`,
    label: 'Accepted answers (optional), one per line',
    value: question.accepted_answers,
    view,
    multiline: true,
    text: true,
    hint: 'Compared ignoring case and extra spaces; accents count, so list "Peru" and "Perú" if both are right. Leave empty to collect text without marking it.',
  })}
  ${pointsField(base, question, view, 'A whole number; used when accepted answers are given.')}`;
}

function numberFields(base: string, question: DraftQuestion, view: View): Html {
  return html`${textField({
    name: `${base}[correct_number]`,
    label: 'Right number',
    value: question.correct_number,
    view,
    inputmode: 'decimal',
    className: 'short',
    hint: 'A decimal point or comma both work: 3.5 or 3,5.',
  })}
  ${textField({
    name: `${base}[tolerance]`,
    label: 'Tolerance',
    value: question.tolerance,
    view,
    inputmode: 'decimal',
    className: 'short',
    hint: 'How far off an answer may be and still earn the points, bounds included (0: exactly).',
  })}
  ${pointsField(base, question, view, 'A whole number; a wrong answer earns 0.')}`;
}

function orderingFields(base: string, question: DraftQuestion, view: View): Html {
  return html`${textField({
    name: `${base}[items]`,
    label: `Items, one per line, in the right order (${LIMITS.orderingItemsMin} to ${LIMITS.orderingItemsMax})`,
    value: question.items,
    view,
    multiline: true,
    text: true,
    hint: 'Respondents see them shuffled, never in this order.',
  })}
  ${pointsField(base, question, view, 'A whole number, for the whole order right.')}
  ${textField({
    name: `${base}[points_per_item]`,
    label: 'Points per item in its place (optional)',
    value: question.points_per_item,
    view,
    inputmode: 'numeric',
    className: 'short',
    hint: 'Instead of the points above: this many for each item in its right place.',
  })}`;
}

/** A text with blanks: one line per blank, its answers or its choice list (quiz-draft.ts). */
function blanksFields(base: string, question: DraftQuestion, view: View): Html {
  return textField({
    name: `${base}[blanks]`,
    label: `Blanks, one per line, for [[1]], [[2]]… in the question (1 to ${LIMITS.blanksMax})`,
    value: question.blanks,
    view,
    multiline: true,
    text: true,
    hint: 'Write each blank into the question as [[1]], [[2]]… Then one line per blank: its right answers between | ("Paris | paris"), compared ignoring case and spaces, accents count; or a list to choose from, the right one starred ("1789 | *1889 | 1901"). Each blank earns 1 point; end a line with " = 2" for 2.',
  });
}

function matchingFields(base: string, question: DraftQuestion, view: View): Html {
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

/** An opinion scale: its range and the words of its ends; it earns no points. */
function scaleFields(base: string, question: DraftQuestion, view: View): Html {
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

/** An essay: its rubric, one criterion per line, or its points; the word bounds. */
function essayFields(base: string, question: DraftQuestion, view: View): Html {
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

type KeyFields = (base: string, index: number, question: DraftQuestion, view: View) => Html;

/**
 * The editor's entry for each type: its name on the question's badge, its "add" button, and its
 * key fields.
 */
const EDITOR_TYPES: Record<QuestionType, { name: string; add: string; keyFields: KeyFields }> = {
  yes_no: {
    name: 'Yes/no',
    add: 'Add a yes/no question',
    keyFields: (base, _index, question, view) => yesNoFields(base, question, view),
  },
  multiple_choice: {
    name: 'Multiple choice',
    add: 'Add a multiple-choice question',
    keyFields: (base, index, question, view) =>
      optionFields(base, index, question, view, 'respondents pick one; each earns its score'),
  },
  multiple_select: {
    name: 'Tick all that apply',
    add: 'Add a tick-all-that-apply question',
    keyFields: (base, index, question, view) =>
      optionFields(
        base,
        index,
        question,
        view,
        'respondents tick any; the ticked scores add up, never below 0',
      ),
  },
  short_text: {
    name: 'Typed answer',
    add: 'Add a typed-answer question',
    keyFields: (base, _index, question, view) => typedAnswerFields(base, question, view),
  },
  number: {
    name: 'Number',
    add: 'Add a number question',
    keyFields: (base, _index, question, view) => numberFields(base, question, view),
  },
  ordering: {
    name: 'Put in order',
    add: 'Add a put-in-order question',
    keyFields: (base, _index, question, view) => orderingFields(base, question, view),
  },
  fill_in_blanks: {
    name: 'Fill in the blanks',
    add: 'Add a fill-in-the-blanks question',
    keyFields: (base, _index, question, view) => blanksFields(base, question, view),
  },
  matching: {
    name: 'Matching',
    add: 'Add a matching question',
    keyFields: (base, _index, question, view) => matchingFields(base, question, view),
  },
  scale: {
    name: 'Opinion scale',
    add: 'Add an opinion scale',
    keyFields: (base, _index, question, view) => scaleFields(base, question, view),
  },
  essay: {
    name: 'Essay',
    add: 'Add an essay question',
    keyFields: (base, _index, question, view) => essayFields(base, question, view),
  },
};

function questionFields(question: DraftQuestion, index: number, count: number, view: View): Html {
  const base = `questions[${index}]`;
  const id = fieldId(base);
  const hasError = view.errors.some((error) => error.field === id || error.field.startsWith(`${id}-`));
  const typeName = EDITOR_TYPES[question.type].name;
  return html`<li>
    <fieldset class="question-editor${hasError ? ' has-error' : ''}" id="${id}">
      <legend>Question ${index + 1} <span class="badge">${typeName}</span></legend>
      ${errorOf(view.errors, id)}
      <input type="hidden" name="${base}[type]" value="${question.type}" />
      <input type="hidden" name="${base}[question_id]" value="${question.question_id}" />
      ${textField({
        name: `${base}[text]`,
        label: 'Question',
        value: question.text,
        view,
        multiline: true,
        maxlength: LIMITS.questionTextMax,
        text: true,
      })}
      ${pictureFields(base, question.image, view, `question ${index + 1}`, String(index))}
      ${EDITOR_TYPES[question.type].keyFields(base, index, question, view)}
      ${textField({
        name: `${base}[explanation]`,
        label: 'Explanation (optional)',
        value: question.explanation,
        view,
        multiline: true,
        maxlength: LIMITS.explanationMax,
        text: true,
        hint: 'Why the right answer is right; shown with the answers when the settings say so.',
      })}
      <p class="question-tools">
        ${
          index > 0
            ? actionButton(view, `up:${index}`, 'Move up', `question ${index + 1}`, undefined, `${id}-up`)
            : ''
        }
        ${
          index < count - 1
            ? actionButton(
                view,
                `down:${index}`,
                'Move down',
                `question ${index + 1}`,
                undefined,
                `${id}-down`,
              )
            : ''
        }
        ${actionButton(view, `remove:${index}`, 'Remove', `question ${index + 1}`, 'secondary small danger')}
      </p>
    </fieldset>
  </li>`;
}

/** One setting's control, as its entry in the table says (domain/quiz-settings.ts). */
function settingField(entry: (typeof EDITOR_SETTINGS)[number], draft: QuizDraft, view: View): Html {
  const name = `settings[${entry.name}]`;
  const value = draft.settings[entry.name];
  const control = entry.editor!;
  if (control.kind === 'checkbox') return checkboxField(name, control.label, value === true, control.hint);
  const text = typeof value === 'string' ? value : '';
  if (control.kind === 'choice') {
    const id = fieldId(name);
    return selectField({
      id,
      name,
      label: control.label,
      value: text,
      choices: Object.entries(control.choices).map(([choice, label]) => ({ value: choice, label })),
      errors: errorsFor(view.errors, id),
    });
  }
  if (control.kind === 'time') {
    const zone = view.timeZone === 'UTC' ? 'UTC' : `your time zone (${view.timeZone})`;
    return textField({
      name,
      label: control.label,
      value: text,
      view,
      type: 'datetime-local',
      className: 'short-time',
      hint: control.hint(zone),
    });
  }
  return textField({
    name,
    label: control.label,
    value: text,
    view,
    hint: control.hint,
    className: 'short',
    ...(control.whole ? { inputmode: 'numeric' as const } : {}),
  });
}

/** The settings, from the table: the quiz's own, then how it is taken (domain/attempts/). */
function settingsFields(draft: QuizDraft, view: View): Html {
  const group = (name: 'how' | 'taking') =>
    EDITOR_SETTINGS.filter((entry) => entry.group === name).map((entry) => settingField(entry, draft, view));
  return html`<fieldset id="settings">
    <legend>Settings</legend>
    ${group('how')}
    <fieldset id="settings-taking">
      <legend>How it is taken</legend>
      ${group('taking')}
      <input type="hidden" name="time_zone" value="${view.timeZone}" />
    </fieldset>
  </fieldset>`;
}

/** Asked of a published quiz before Save: a box to tick, beside which a refusal is shown. */
function publishedConfirmation(draft: QuizDraft, errors: FieldError[]): Html {
  const id = 'confirm_edit_published';
  const hasError = errors.some((error) => error.field === id);
  return html`<fieldset class="confirm${hasError ? ' has-error' : ''}" id="${id}-group">
    <legend>This quiz is published</legend>
    <p id="${id}-hint">
      People may already have answered it. Past responses keep their scores; a question whose answer key or
      scores change counts as a new question in the statistics.
    </p>
    ${errorOf(errors, id)}
    ${checkbox({
      id,
      name: id,
      label: 'Change the published quiz',
      checked: draft.confirm_edit_published,
      invalid: hasError,
    })}
    ${checkbox({
      id: 'remark_past_responses',
      name: 'remark_past_responses',
      label: 'Re-mark past responses',
      checked: draft.remark_past_responses,
      hint:
        'For a question whose answer key I fixed (same type and number of options): keep its statistics and ' +
        'mark its past answers again. Each changed response keeps its original score.',
    })}
  </fieldset>`;
}

export function sendEditorPage(res: Response, state: EditorState): void {
  const { draft, quiz } = state;
  const errors = state.errors ?? [];
  const action = quiz ? `/dashboard/quizzes/${quiz.id}/edit` : '/dashboard/quizzes/new';
  const view: View = { errors, focus: state.focus ?? '', action, timeZone: state.timeZone ?? 'UTC', draft };
  const title = quiz ? `Edit “${quiz.title}”` : 'New quiz';
  const save = html`<button type="submit" name="_action" value="save">
    ${quiz ? 'Save changes' : 'Create the quiz'}
  </button>`;
  const canAdd = draft.questions.length < LIMITS.questionsMax;
  sendPage(res, {
    title,
    section: 'quizzes',
    status: state.status ?? 200,
    scripts: ['editor-place.js'],
    body: html`<p class="breadcrumb">
        <a href="/dashboard/quizzes">Quizzes</a> ›
        ${quiz ? html`<a href="/dashboard/quizzes/${quiz.id}">${quiz.title}</a> ›` : ''}
      </p>
      <h1>${title}</h1>
      ${errorSummary({ errors, autofocus: errors.length > 0 })}
      <form
        method="post"
        action="${action}"
        enctype="multipart/form-data"
        class="quiz-editor"
        novalidate
        ${view.focus ? html`data-focus="${view.focus}"` : ''}
      >
        ${csrfField(res)}
        <!-- The first submit button is what Enter in a field presses: Save, never Remove. -->
        <p class="editor-top">${save}</p>
        ${textField({
          name: 'title',
          label: 'Title',
          value: draft.title,
          view,
          maxlength: LIMITS.titleMax,
          text: true,
        })}
        ${textField({
          name: 'description',
          label: 'Description (optional)',
          value: draft.description,
          view,
          multiline: true,
          maxlength: LIMITS.descriptionMax,
          hint: 'Plain text shown above the questions.',
          text: true,
        })}
        <section aria-labelledby="questions-title" id="questions">
          <h2 id="questions-title" tabindex="-1">Questions</h2>
          ${errorOf(errors, 'questions')}
          ${
            draft.questions.length === 0
              ? html`<p class="muted">No questions yet. A quiz needs one before it can be published.</p>`
              : html`<ol class="question-editors">
                  ${draft.questions.map((question, index) =>
                    questionFields(question, index, draft.questions.length, view),
                  )}
                </ol>`
          }
          ${
            canAdd
              ? html`<p class="add-question">
                  ${QUESTION_TYPES.map((type) =>
                    actionButton(view, `add:${type}`, EDITOR_TYPES[type].add, '', 'secondary'),
                  )}
                </p>`
              : html`<p class="muted">A quiz takes at most ${LIMITS.questionsMax} questions.</p>`
          }
        </section>
        ${settingsFields(draft, view)} ${quiz?.published ? publishedConfirmation(draft, errors) : ''}
        <p class="actions">
          ${save}
          <a class="button secondary" href="${quiz ? `/dashboard/quizzes/${quiz.id}` : '/dashboard/quizzes'}"
            >Cancel</a
          >
        </p>
      </form>`,
  });
}
