import type { Response } from 'express';
import { LIMITS, QUESTION_TYPES } from '../domain/quiz-input';
import { csrfField } from '../web/csrf';
import { html, type Html } from '../web/html';
import { sendPage } from '../web/page-shell';
import { checkbox, errorSummary, errorsFor, selectField, type FieldError } from '../web/parts';
import { EDITOR_SETTINGS, QUESTION_DRAFT_FIELDS, type DraftQuestion, type QuizDraft } from './quiz-draft';
import {
  actionButton,
  errorOf,
  fieldId,
  pictureFields,
  textField,
  type EditorView,
} from './question-editor-face';
import { EDITOR_FACES } from './question-editor-faces';

export { fieldId } from './question-editor-face';

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

/** The ids the editor renders a field (and its error) under; `renderedField` finds the nearest. */
const RENDERED = [
  /^(title|description|questions|settings|confirm_edit_published)$/,
  /^questions-\d+$/,
  // A question's own fields and every typed field's, as the draft names them.
  new RegExp(
    `^questions-\\d+-(${QUESTION_DRAFT_FIELDS.filter((name) => name !== 'question_id' && name !== 'type').join('|')})$`,
  ),
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

function checkboxField(name: string, label: string, checked: boolean, hint?: string): Html {
  return checkbox({ id: fieldId(name), name, label, checked, ...(hint ? { hint } : {}) });
}

function questionFields(question: DraftQuestion, index: number, count: number, view: EditorView): Html {
  const base = `questions[${index}]`;
  const id = fieldId(base);
  const hasError = view.errors.some((error) => error.field === id || error.field.startsWith(`${id}-`));
  const typeName = EDITOR_FACES[question.type].name;
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
      ${EDITOR_FACES[question.type].keyFields(base, index, question, view)}
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
function settingField(entry: (typeof EDITOR_SETTINGS)[number], draft: QuizDraft, view: EditorView): Html {
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
function settingsFields(draft: QuizDraft, view: EditorView): Html {
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
  const view: EditorView = {
    errors,
    focus: state.focus ?? '',
    action,
    timeZone: state.timeZone ?? 'UTC',
    draft,
  };
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
                    actionButton(view, `add:${type}`, EDITOR_FACES[type].add, '', 'secondary'),
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
