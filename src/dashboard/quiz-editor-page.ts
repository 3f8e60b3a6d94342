import type { Response } from 'express';
import {
  LANGUAGES,
  LIMITS,
  QUESTION_TYPES,
  SHOW_CORRECT_ANSWERS,
  type QuestionType,
} from '../domain/quiz-input';
import { csrfField } from '../web/csrf';
import { html, type Html } from '../web/html';
import { sendPage } from '../web/page-shell';
import { errorSummary, type FieldError } from './form-fields';
import type { DraftQuestion, QuizDraft } from './quiz-draft';

export interface EditorState {
  draft: QuizDraft;
  /** The quiz being edited; absent for a new quiz. */
  quiz?: { id: string; title: string; published: boolean };
  /** Field errors by form id (see `fieldId`), with '' for the form as a whole. */
  errors?: FieldError[];
  status?: number;
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
  /^questions-\d+-(text|explanation|points|correct_answer|options|accepted_answers|correct_number|tolerance)$/,
  /^questions-\d+-options-\d+-(label|score)$/,
  /^settings-(pass_mark_percent|show_correct_answers)$/,
  /^settings-(time_limit_minutes|opens_at|closes_at|question_pool_size|max_attempts_per_email|language)$/,
];

/** The nearest field the form shows for a domain field (`questions[2].type` is shown on question 3); '' for the form. */
export function renderedField(field: string): string {
  let id = fieldId(field);
  while (id && !RENDERED.some((pattern) => pattern.test(id))) id = id.replace(/-?[^-]*$/, '');
  return id;
}

const SHOW_CORRECT_LABELS: Record<(typeof SHOW_CORRECT_ANSWERS)[number], string> = {
  never: 'Never',
  after_submit: 'Right after submitting',
  after_close: 'Once the quiz is closed',
};

function errorOf(errors: FieldError[], id: string): Html {
  const messages = errors.filter((error) => error.field === id).map((error) => error.message);
  if (messages.length === 0) return html``;
  return html`<p class="field-error" id="${id}-error">
    <span class="sr-only">Error: </span>${messages.join('; ')}
  </p>`;
}

interface TextOptions {
  name: string;
  label: Html | string;
  value: string;
  errors: FieldError[];
  hint?: string;
  multiline?: boolean;
  maxlength?: number;
  inputmode?: 'numeric' | 'decimal';
  className?: string;
}

/** A labelled input or textarea with its hint and error tied to it (aria-describedby). */
function textField(options: TextOptions): Html {
  const id = fieldId(options.name);
  const hasError = options.errors.some((error) => error.field === id);
  const describedBy = [options.hint ? `${id}-hint` : '', hasError ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  const attributes = html`id="${id}"
  name="${options.name}"${
    options.maxlength ? html` maxlength="${options.maxlength}"` : ''
  }${describedBy ? html` aria-describedby="${describedBy}"` : ''}${hasError ? html` aria-invalid="true"` : ''}`;
  return html`<div class="field ${options.className ?? ''}">
    <label for="${id}">${options.label}</label>
    ${options.hint ? html`<p class="hint" id="${id}-hint">${options.hint}</p>` : ''}
    ${errorOf(options.errors, id)}
    ${
      options.multiline
        ? html`<textarea ${attributes} rows="3">${options.value}</textarea>`
        : html`<input
            type="text"
            ${attributes}
            value="${options.value}"
            ${options.inputmode ? html` inputmode="${options.inputmode}"` : ''}
          />`
    }
  </div>`;
}

function checkbox(name: string, label: string, checked: boolean, hint?: string): Html {
  const id = fieldId(name);
  return html`<label class="choice" for="${id}">
    <input
      type="checkbox"
      id="${id}"
      name="${name}"
      ${checked ? html` checked` : ''}${hint ? html` aria-describedby="${id}-hint"` : ''}
    />
    <span>${label}${hint ? html`<span class="hint" id="${id}-hint"> ${hint}</span>` : ''}</span>
  </label>`;
}

function actionButton(
  action: string,
  label: string,
  accessible: string,
  className = 'secondary small',
): Html {
  return html`<button type="submit" name="_action" value="${action}" class="${className}">
    ${label}<span class="sr-only"> ${accessible}</span>
  </button>`;
}

function yesNoFields(base: string, question: DraftQuestion, errors: FieldError[]): Html {
  const id = fieldId(`${base}[correct_answer]`);
  return html`<fieldset class="inline-choices" id="${id}">
      <legend>Right answer</legend>
      ${(['yes', 'no'] as const).map(
        (value) =>
          html`<label class="choice" for="${id}-${value}">
            <input
              type="radio"
              id="${id}-${value}"
              name="${base}[correct_answer]"
              value="${value}"
              ${question.correct_answer === value ? html` checked` : ''}
            />
            <span>${value === 'yes' ? 'Yes' : 'No'}</span>
          </label>`,
      )}
    </fieldset>
    ${textField({
      name: `${base}[points]`,
      label: 'Points for the right answer',
      value: question.points,
      errors,
      hint: `A whole number from ${LIMITS.pointsMin} to ${LIMITS.pointsMax}; the other answer earns 0.`,
      inputmode: 'numeric',
      className: 'short',
    })}`;
}

function optionFields(base: string, index: number, question: DraftQuestion, errors: FieldError[]): Html {
  const id = fieldId(`${base}[options]`);
  const hasError = errors.some((error) => error.field === id);
  return html`<fieldset class="options${hasError ? ' has-error' : ''}" id="${id}">
    <legend>
      Options
      <span class="hint"
        >${
          question.type === 'multiple_select'
            ? '(respondents tick any; the ticked scores add up, never below 0)'
            : '(respondents pick one; each earns its score)'
        }</span
      >
    </legend>
    ${errorOf(errors, id)}
    <ol class="option-list">
      ${question.options.map((option, optionIndex) => {
        const name = `${base}[options][${optionIndex}]`;
        return html`<li class="option-row">
          ${textField({
            name: `${name}[label]`,
            label: html`Option ${optionIndex + 1}`,
            value: option.label,
            errors,
            maxlength: LIMITS.optionLabelMax,
          })}
          ${textField({
            name: `${name}[score]`,
            label: 'Score',
            value: option.score,
            errors,
            inputmode: 'numeric',
            className: 'short',
          })}
          ${actionButton(
            `remove-option:${index}:${optionIndex}`,
            'Remove',
            `option ${optionIndex + 1} of question ${index + 1}`,
            'link',
          )}
        </li>`;
      })}
    </ol>
    ${
      question.options.length < LIMITS.optionsMax
        ? actionButton(`add-option:${index}`, 'Add an option', `to question ${index + 1}`)
        : ''
    }
  </fieldset>`;
}

const TYPE_NAMES: Record<QuestionType, string> = {
  yes_no: 'Yes/no',
  multiple_choice: 'Multiple choice',
  multiple_select: 'Tick all that apply',
  short_text: 'Typed answer',
  number: 'Number',
};

const ADD_LABELS: Record<QuestionType, string> = {
  yes_no: 'Add a yes/no question',
  multiple_choice: 'Add a multiple-choice question',
  multiple_select: 'Add a tick-all-that-apply question',
  short_text: 'Add a typed-answer question',
  number: 'Add a number question',
};

function pointsField(base: string, question: DraftQuestion, errors: FieldError[], hint: string): Html {
  return textField({
    name: `${base}[points]`,
    label: 'Points for the right answer',
    value: question.points,
    errors,
    hint,
    inputmode: 'numeric',
    className: 'short',
  });
}

function typedAnswerFields(base: string, question: DraftQuestion, errors: FieldError[]): Html {
  return html`${textField({
    name: `${base}[accepted_answers]`,
    label: 'Accepted answers (optional), one per line',
    value: question.accepted_answers,
    errors,
    multiline: true,
    hint: 'Compared ignoring case and extra spaces; accents count, so list "Peru" and "Perú" if both are right. Leave empty to collect text without marking it.',
  })}
  ${pointsField(base, question, errors, 'A whole number; used when accepted answers are given.')}`;
}

function numberFields(base: string, question: DraftQuestion, errors: FieldError[]): Html {
  return html`${textField({
    name: `${base}[correct_number]`,
    label: 'Right number',
    value: question.correct_number,
    errors,
    inputmode: 'decimal',
    className: 'short',
    hint: 'A decimal point or comma both work: 3.5 or 3,5.',
  })}
  ${textField({
    name: `${base}[tolerance]`,
    label: 'Tolerance',
    value: question.tolerance,
    errors,
    inputmode: 'decimal',
    className: 'short',
    hint: 'How far off an answer may be and still earn the points, bounds included (0: exactly).',
  })}
  ${pointsField(base, question, errors, 'A whole number; a wrong answer earns 0.')}`;
}

/** Each type's key fields in the editor. */
const ANSWER_KEY_FIELDS: Record<
  QuestionType,
  (base: string, index: number, question: DraftQuestion, errors: FieldError[]) => Html
> = {
  yes_no: (base, _index, question, errors) => yesNoFields(base, question, errors),
  multiple_choice: optionFields,
  multiple_select: optionFields,
  short_text: (base, _index, question, errors) => typedAnswerFields(base, question, errors),
  number: (base, _index, question, errors) => numberFields(base, question, errors),
};

function answerKeyFields(base: string, index: number, question: DraftQuestion, errors: FieldError[]): Html {
  return ANSWER_KEY_FIELDS[question.type](base, index, question, errors);
}

function questionFields(question: DraftQuestion, index: number, count: number, errors: FieldError[]): Html {
  const base = `questions[${index}]`;
  const id = fieldId(base);
  const hasError = errors.some((error) => error.field === id || error.field.startsWith(`${id}-`));
  const typeName = TYPE_NAMES[question.type];
  return html`<li>
    <fieldset class="question-editor${hasError ? ' has-error' : ''}" id="${id}">
      <legend>Question ${index + 1} <span class="badge">${typeName}</span></legend>
      ${errorOf(errors, id)}
      <input type="hidden" name="${base}[type]" value="${question.type}" />
      <input type="hidden" name="${base}[question_id]" value="${question.question_id}" />
      ${textField({
        name: `${base}[text]`,
        label: 'Question',
        value: question.text,
        errors,
        multiline: true,
        maxlength: LIMITS.questionTextMax,
      })}
      ${answerKeyFields(base, index, question, errors)}
      ${textField({
        name: `${base}[explanation]`,
        label: 'Explanation (optional)',
        value: question.explanation,
        errors,
        multiline: true,
        maxlength: LIMITS.explanationMax,
        hint: 'Why the right answer is right; shown with the answers when the settings say so.',
      })}
      <p class="question-tools">
        ${index > 0 ? actionButton(`up:${index}`, 'Move up', `question ${index + 1}`) : ''}
        ${index < count - 1 ? actionButton(`down:${index}`, 'Move down', `question ${index + 1}`) : ''}
        ${actionButton(`remove:${index}`, 'Remove', `question ${index + 1}`, 'secondary small danger')}
      </p>
    </fieldset>
  </li>`;
}

function settingsFields(draft: QuizDraft, errors: FieldError[]): Html {
  const s = draft.settings;
  const showId = 'settings-show_correct_answers';
  return html`<fieldset id="settings">
    <legend>Settings</legend>
    ${checkbox('settings[show_score_to_respondent]', 'Show respondents their score', s.show_score_to_respondent)}
    ${checkbox('settings[collect_name]', 'Ask for their name', s.collect_name)}
    ${checkbox('settings[collect_email]', 'Ask for their email address', s.collect_email)}
    ${checkbox('settings[require_all_answers]', 'Every question must be answered', s.require_all_answers)}
    ${checkbox(
      'settings[allow_embedding]',
      'Allow other sites to embed the quiz',
      s.allow_embedding,
      'Lets a school site or blog show the public page in a frame.',
    )}
    ${textField({
      name: 'settings[pass_mark_percent]',
      label: 'Pass mark, in percent (optional)',
      value: s.pass_mark_percent,
      errors,
      hint: 'From 0 to 100; leave empty for no pass mark.',
      className: 'short',
    })}
    <div class="field">
      <label for="${showId}">Show the right answers and explanations</label>
      ${errorOf(errors, showId)}
      <select id="${showId}" name="settings[show_correct_answers]">
        ${SHOW_CORRECT_ANSWERS.map(
          (value) =>
            html`<option value="${value}" ${s.show_correct_answers === value ? html` selected` : ''}>
              ${SHOW_CORRECT_LABELS[value]}
            </option>`,
        )}
      </select>
    </div>
    ${takingFields(draft, errors)}
  </fieldset>`;
}

const LANGUAGE_NAMES: Record<(typeof LANGUAGES)[number], string> = {
  en: 'English',
  es: 'Español',
  pt: 'Português',
  fr: 'Français',
  de: 'Deutsch',
  ar: 'العربية',
};

/** How the quiz is taken: time limit, window, shuffles, pool, attempts per email, language. */
function takingFields(draft: QuizDraft, errors: FieldError[]): Html {
  const s = draft.settings;
  const languageId = 'settings-language';
  return html`<fieldset id="settings-taking">
    <legend>How it is taken</legend>
    ${textField({
      name: 'settings[time_limit_minutes]',
      label: 'Time limit, in minutes (optional)',
      value: s.time_limit_minutes,
      errors,
      hint: 'From 1 to 600. The page counts down and sends the answers when the time is up.',
      className: 'short',
      inputmode: 'numeric',
    })}
    ${textField({
      name: 'settings[opens_at]',
      label: 'Opens at (optional)',
      value: s.opens_at,
      errors,
      hint: 'A date, time and offset, such as 2026-03-01T09:00+01:00 or 2026-03-01T08:00Z.',
    })}
    ${textField({
      name: 'settings[closes_at]',
      label: 'Closes at (optional)',
      value: s.closes_at,
      errors,
      hint: 'After the opening time. An attempt started before it may finish within its time limit.',
    })}
    ${checkbox('settings[shuffle_questions]', 'Shuffle the questions for each attempt', s.shuffle_questions)}
    ${checkbox('settings[shuffle_options]', 'Shuffle the options for each attempt', s.shuffle_options)}
    ${textField({
      name: 'settings[question_pool_size]',
      label: 'Questions drawn per attempt (optional)',
      value: s.question_pool_size,
      errors,
      hint: 'Each attempt gets this many questions at random; leave empty for all of them.',
      className: 'short',
      inputmode: 'numeric',
    })}
    ${textField({
      name: 'settings[max_attempts_per_email]',
      label: 'Submissions per email address (optional)',
      value: s.max_attempts_per_email,
      errors,
      hint: 'Needs "Ask for their email address". It holds honest people to the rule; someone determined can use another address.',
      className: 'short',
      inputmode: 'numeric',
    })}
    <div class="field">
      <label for="${languageId}">Language of the public pages</label>
      ${errorOf(errors, languageId)}
      <select id="${languageId}" name="settings[language]">
        ${LANGUAGES.map(
          (value) =>
            html`<option value="${value}" ${s.language === value ? html` selected` : ''}>
              ${LANGUAGE_NAMES[value]}
            </option>`,
        )}
      </select>
    </div>
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
    <label class="choice" for="${id}">
      <input
        type="checkbox"
        id="${id}"
        name="${id}"
        aria-describedby="${id}-hint"
        ${draft.confirm_edit_published ? html` checked` : ''}${hasError ? html` aria-invalid="true"` : ''}
      />
      <span>Change the published quiz</span>
    </label>
    <label class="choice" for="remark_past_responses">
      <input
        type="checkbox"
        id="remark_past_responses"
        name="remark_past_responses"
        aria-describedby="remark_past_responses-hint"
        ${draft.remark_past_responses ? html` checked` : ''}
      />
      <span
        >Re-mark past responses
        <span class="hint" id="remark_past_responses-hint">
          For a question whose answer key I fixed (same type and number of options): keep its statistics and
          mark its past answers again. Each changed response keeps its original score.</span
        ></span
      >
    </label>
  </fieldset>`;
}

export function sendEditorPage(res: Response, state: EditorState): void {
  const { draft, quiz } = state;
  const errors = state.errors ?? [];
  const action = quiz ? `/dashboard/quizzes/${quiz.id}/edit` : '/dashboard/quizzes/new';
  const title = quiz ? `Edit “${quiz.title}”` : 'New quiz';
  const save = html`<button type="submit" name="_action" value="save">
    ${quiz ? 'Save changes' : 'Create the quiz'}
  </button>`;
  const canAdd = draft.questions.length < LIMITS.questionsMax;
  sendPage(res, {
    title,
    section: 'quizzes',
    status: state.status ?? 200,
    body: html`<p class="breadcrumb">
        <a href="/dashboard/quizzes">Quizzes</a> ›
        ${quiz ? html`<a href="/dashboard/quizzes/${quiz.id}">${quiz.title}</a> ›` : ''}
      </p>
      <h1>${title}</h1>
      ${errorSummary(errors)}
      <form method="post" action="${action}" class="quiz-editor" novalidate>
        ${csrfField(res)}
        <!-- The first submit button is what Enter in a field presses: Save, never Remove. -->
        <p class="editor-top">${save}</p>
        ${textField({
          name: 'title',
          label: 'Title',
          value: draft.title,
          errors,
          maxlength: LIMITS.titleMax,
        })}
        ${textField({
          name: 'description',
          label: 'Description (optional)',
          value: draft.description,
          errors,
          multiline: true,
          maxlength: LIMITS.descriptionMax,
          hint: 'Plain text shown above the questions.',
        })}
        <section aria-labelledby="questions-title" id="questions">
          <h2 id="questions-title">Questions</h2>
          ${errorOf(errors, 'questions')}
          ${
            draft.questions.length === 0
              ? html`<p class="muted">No questions yet. A quiz needs one before it can be published.</p>`
              : html`<ol class="question-editors">
                  ${draft.questions.map((question, index) =>
                    questionFields(question, index, draft.questions.length, errors),
                  )}
                </ol>`
          }
          ${
            canAdd
              ? html`<p class="add-question">
                  ${QUESTION_TYPES.map((type) => actionButton(`add:${type}`, ADD_LABELS[type], '', 'secondary'))}
                </p>`
              : html`<p class="muted">A quiz takes at most ${LIMITS.questionsMax} questions.</p>`
          }
        </section>
        ${settingsFields(draft, errors)} ${quiz?.published ? publishedConfirmation(draft, errors) : ''}
        <p class="actions">
          ${save}
          <a class="button secondary" href="${quiz ? `/dashboard/quizzes/${quiz.id}` : '/dashboard/quizzes'}"
            >Cancel</a
          >
        </p>
      </form>`,
  });
}
