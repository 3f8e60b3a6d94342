import { html, type Html } from './html';

/**
 * The page parts every form and table is built from (GOV.UK patterns): an error summary linking
 * to each field, fields whose label, hint and error are tied together with aria-describedby and
 * flagged with aria-invalid, checkboxes, radio groups, the "shown once" secret panel, tables that
 * stack into cards on a phone, and a section navigation. Pages pass words in (the respondent pages
 * translate theirs), the markup stays here.
 */

/** An error beside a form field: `field` is the field's element id, '' for the form as a whole. */
export interface FieldError {
  field: string;
  message: string;
}

export interface ErrorSummaryOptions {
  errors: readonly FieldError[];
  heading?: string;
  /** A paragraph under the heading (the respondent form's "the quiz changed"). */
  intro?: Html | string;
  /** Focus it on load (autofocus needs no script), for a page shown again after a POST. */
  autofocus?: boolean;
  /** Shown even with no error listed (when `intro` says what happened). */
  force?: boolean;
}

export function errorSummary(options: ErrorSummaryOptions | readonly FieldError[]): Html {
  const {
    errors,
    heading = 'There is a problem',
    intro,
    autofocus = false,
    force = false,
  } = Array.isArray(options)
    ? { errors: options as readonly FieldError[] }
    : (options as ErrorSummaryOptions);
  if (errors.length === 0 && !force) return html``;
  // The start tag on one line: it is what tests and tools look for.
  const focus = autofocus ? html` autofocus` : '';
  // prettier-ignore
  const start = html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1"${focus}>`;
  return html`${start}
    <h2 id="error-summary-title">${heading}</h2>
    ${intro ? html`<p>${intro}</p>` : ''}
    ${
      errors.length > 0
        ? html`<ul>
            ${errors.map((error) =>
              error.field
                ? html`<li><a href="#${error.field}">${error.message}</a></li>`
                : html`<li>${error.message}</li>`,
            )}
          </ul>`
        : ''
    }
  </div>`;
}

/** The error paragraph of a field (several messages joined), or nothing. */
export function fieldErrorText(
  id: string,
  messages: readonly string[],
  prefix = 'Error:',
  errorId = `${id}-error`,
): Html {
  if (messages.length === 0) return html``;
  return html`<p class="field-error" id="${errorId}">
    <span class="sr-only">${prefix} </span>${messages.join('; ')}
  </p>`;
}

export interface FieldOptions {
  /** The element id; its hint is `${id}-hint`, its error `${id}-error` unless `errorId` says. */
  id: string;
  errorId?: string;
  name: string;
  label: Html | string;
  value?: string;
  type?: 'text' | 'email' | 'password' | 'datetime-local' | 'search';
  hint?: Html | string;
  /** Error messages for this field (from `errorsFor`). */
  errors?: readonly string[];
  /** The screen-reader prefix of an error ("Error:"), in the page's language. */
  errorPrefix?: string;
  multiline?: boolean;
  rows?: number;
  maxlength?: number;
  autocomplete?: string;
  required?: boolean;
  inputmode?: 'numeric' | 'decimal' | 'email';
  spellcheck?: boolean;
  /** `auto` for text the owner typed in any script. */
  dir?: 'auto';
  className?: string;
  /** Focus on load: where a teacher's action left them. */
  autofocus?: boolean;
}

/** No space may come between a textarea's tags and its value, which is the text typed. */
// prettier-ignore
const textarea = (id: string, name: string, rows: number, attributes: Html, value: string) =>
  html`<textarea id="${id}" name="${name}" rows="${rows}"${attributes}>${value}</textarea>`;

/** A labelled input or textarea with its hint and error. */
export function field(options: FieldOptions): Html {
  const { id, name, type = 'text', value, hint, maxlength, autocomplete, inputmode } = options;
  const errors = options.errors ?? [];
  const errorId = options.errorId ?? `${id}-error`;
  const describedBy = [hint ? `${id}-hint` : '', errors.length > 0 ? errorId : ''].filter(Boolean).join(' ');
  const common = html`${maxlength ? html` maxlength="${maxlength}"` : ''}${
    options.dir ? html` dir="${options.dir}"` : ''
  }${describedBy ? html` aria-describedby="${describedBy}"` : ''}${
    errors.length > 0 ? html` aria-invalid="true"` : ''
  }${options.autofocus ? html` autofocus` : ''}`;
  return html`<div class="field${options.className ? ` ${options.className}` : ''}">
    <label for="${id}">${options.label}</label>
    ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
    ${fieldErrorText(id, errors, options.errorPrefix, errorId)}
    ${
      options.multiline
        ? textarea(id, name, options.rows ?? 3, common, value ?? '')
        : html`<input
            id="${id}"
            name="${name}"
            type="${type}"
            ${value === undefined ? '' : html` value="${value}"`}${
              autocomplete ? html` autocomplete="${autocomplete}"` : ''
            }${options.required ? html` required` : ''}${inputmode ? html` inputmode="${inputmode}"` : ''}${
              options.spellcheck === false ? html` spellcheck="false"` : ''
            }${common}
          />`
    }
  </div>`;
}

export interface SelectFieldOptions {
  /** The element id; its hint is `${id}-hint`, its error `${id}-error`. */
  id: string;
  name: string;
  label: Html | string;
  choices: ReadonlyArray<{ value: string; label: string }>;
  value: string;
  hint?: Html | string;
  errors?: readonly string[];
  autocomplete?: string;
}

/** One choice of a drop-down list; `<option value="x" selected>` exactly, as tools look for it. */
// prettier-ignore
const option = (value: string, label: string, selected: boolean) =>
  html`<option value="${value}"${selected ? html` selected` : ''}>${label}</option>`;

/** A labelled drop-down list with its hint and error, tied together as `field` ties them. */
export function selectField(options: SelectFieldOptions): Html {
  const { id, hint } = options;
  const errors = options.errors ?? [];
  const describedBy = [hint ? `${id}-hint` : '', errors.length > 0 ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return html`<div class="field">
    <label for="${id}">${options.label}</label>
    ${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''} ${fieldErrorText(id, errors)}
    <select
      id="${id}"
      name="${options.name}"
      ${options.autocomplete ? html` autocomplete="${options.autocomplete}"` : ''}${
        describedBy ? html` aria-describedby="${describedBy}"` : ''
      }${errors.length > 0 ? html` aria-invalid="true"` : ''}
    >
      ${options.choices.map((choice) => option(choice.value, choice.label, choice.value === options.value))}
    </select>
  </div>`;
}

/** The messages of `errors` for the field `id`. */
export function errorsFor(errors: readonly FieldError[] | undefined, id: string): string[] {
  return (errors ?? []).filter((error) => error.field === id).map((error) => error.message);
}

export interface ChoiceOptions {
  type: 'checkbox' | 'radio';
  id: string;
  name: string;
  label: Html | string;
  checked: boolean;
  value?: string;
  hint?: Html | string;
  invalid?: boolean;
  /** `auto` for the owner's text in any script (a question's options). */
  dir?: 'auto';
}

/** One tick box or radio button with its label after it: the markup every choice is drawn with. */
export function choice({ type, id, name, label, checked, value, hint, invalid, dir }: ChoiceOptions): Html {
  const text = html`${label}${hint ? html`<span class="hint" id="${id}-hint"> ${hint}</span>` : ''}`;
  return html`<label class="choice" for="${id}">
    <input
      type="${type}"
      id="${id}"
      name="${name}"
      ${value === undefined ? '' : html` value="${value}"`}${checked ? html` checked` : ''}${
        hint ? html` aria-describedby="${id}-hint"` : ''
      }${invalid ? html` aria-invalid="true"` : ''}
    />
    ${dir ? html`<span dir="${dir}">${text}</span>` : html`<span>${text}</span>`}
  </label>`;
}

export type CheckboxOptions = Omit<ChoiceOptions, 'type'>;

/** A checkbox with its label after it, and an optional hint read with it. */
export function checkbox(options: CheckboxOptions): Html {
  return choice({ ...options, type: 'checkbox' });
}

export interface RadioGroupOptions {
  id: string;
  name: string;
  legend: Html | string;
  choices: ReadonlyArray<{ value: string; label: Html | string }>;
  value: string;
  errors?: readonly string[];
  className?: string;
  /** More controls that belong to the choice, after the radios (the quizzes a webhook is for). */
  children?: Html;
}

/** Radio buttons in a fieldset whose legend names the choice. */
export function radioGroup({
  id,
  name,
  legend,
  choices,
  value,
  errors = [],
  className,
  children,
}: RadioGroupOptions): Html {
  const classes = `${className ?? 'inline-choices'}${errors.length > 0 ? ' has-error' : ''}`;
  return html`<fieldset class="${classes}" id="${id}">
    <legend>${legend}</legend>
    ${fieldErrorText(id, errors)}
    ${choices.map((option) =>
      choice({
        type: 'radio',
        id: `${id}-${option.value}`,
        name,
        value: option.value,
        label: option.label,
        checked: option.value === value,
      }),
    )}
    ${children ?? ''}
  </fieldset>`;
}

export interface SecretPanelOptions {
  /** The id of the value's element (the copy button points at it). */
  id: string;
  title: Html | string;
  /** What the secret is for, after "Copy it now. For your security it cannot be shown again." */
  use: string;
  value: string;
  copyLabel: string;
  copiedMessage: string;
}

/** A secret shown this one time, with a copy button (assets/copy-button.js). */
export function secretPanel(options: SecretPanelOptions): Html {
  const { id } = options;
  return html`<section class="notice success new-key" aria-labelledby="${id}-title">
    <h2 id="${id}-title" class="long-text">${options.title}</h2>
    <p><strong>Copy it now. For your security it cannot be shown again.</strong> ${options.use}</p>
    <code class="secret" id="${id}">${options.value}</code>
    <p class="copy-row">
      <button
        type="button"
        class="secondary"
        data-copy-target="${id}"
        data-copied-message="${options.copiedMessage}"
        hidden
      >
        ${options.copyLabel}
      </button>
      <span class="copy-status" role="status" aria-live="polite"></span>
    </p>
  </section>`;
}

export interface Column {
  label: Html | string;
  /** Right-aligned figures. */
  numeric?: boolean;
  /** A column a sighted reader needs no heading for (a row's actions). */
  hiddenLabel?: boolean;
  /** `aria-sort` of a sortable column. */
  sort?: 'ascending' | 'descending' | 'none';
}

export interface Row {
  /** The first cell as the row's header (th scope=row). */
  header?: Html | string;
  cells: ReadonlyArray<Html | string>;
}

export interface DataTableOptions {
  columns: readonly Column[];
  rows: readonly Row[];
  className?: string;
  caption?: Html | string;
}

/**
 * A table that stays a table on a wide screen and stacks into one card per row on a phone: each
 * cell carries its column's name (`data-label`), which the stylesheet shows before it, so nothing
 * scrolls sideways. The first column is the row's header when `header` is given.
 */
export function dataTable({ columns, rows, className, caption }: DataTableOptions): Html {
  const labelOf = (column: Column | undefined) =>
    column && typeof column.label === 'string' && !column.hiddenLabel ? column.label : '';
  return html`<table class="data-table${className ? ` ${className}` : ''}">
    ${
      caption
        ? html`<caption>
            ${caption}
          </caption>`
        : ''
    }
    <thead>
      <tr>
        ${columns.map(
          (column) =>
            html`<th
              scope="col"
              ${column.numeric ? html` class="num"` : ''}${
                column.sort ? html` aria-sort="${column.sort}"` : ''
              }
            >
              ${column.hiddenLabel ? html`<span class="sr-only">${column.label}</span>` : column.label}
            </th>`,
        )}
      </tr>
    </thead>
    <tbody>
      ${rows.map((row) => {
        const offset = row.header === undefined ? 0 : 1;
        return html`<tr>
          ${row.header === undefined ? '' : html`<th scope="row" data-label="${labelOf(columns[0])}">${row.header}</th>`}
          ${row.cells.map((cell, index) => {
            const column = columns[index + offset];
            return html`<td data-label="${labelOf(column)}" ${column?.numeric ? html` class="num"` : ''}>
              ${cell}
            </td>`;
          })}
        </tr>`;
      })}
    </tbody>
  </table>`;
}

export interface SectionLink {
  href: string;
  label: string;
  current: boolean;
}

/** Links between the sections of one thing (a quiz's results), the current one marked. */
export function sectionNav(label: string, links: readonly SectionLink[]): Html {
  return html`<nav class="section-nav" aria-label="${label}">
    <ul>
      ${links.map(
        (link) =>
          html`<li>
            ${
              link.current
                ? html`<a href="${link.href}" aria-current="page">${link.label}</a>`
                : html`<a href="${link.href}">${link.label}</a>`
            }
          </li>`,
      )}
    </ul>
  </nav>`;
}
