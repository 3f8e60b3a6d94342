import { html, type Html } from '../web/html';

/**
 * Accessible form parts (GOV.UK pattern): an error summary at the top linking to each
 * field, and fields whose label, hint and error message are tied together with
 * aria-describedby and flagged with aria-invalid.
 */
export interface FieldError {
  /** The field's name and id; '' for a form-level error with no field to link to. */
  field: string;
  message: string;
}

export function errorSummary(errors: FieldError[]): Html {
  if (errors.length === 0) return html``;
  return html`<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1">
    <h2 id="error-summary-title">There is a problem</h2>
    <ul>
      ${errors.map((error) =>
        error.field
          ? html`<li><a href="#${error.field}">${error.message}</a></li>`
          : html`<li>${error.message}</li>`,
      )}
    </ul>
  </div>`;
}

export interface InputFieldOptions {
  name: string;
  label: string;
  type?: 'text' | 'email' | 'password';
  value?: string;
  hint?: string;
  autocomplete?: string;
  required?: boolean;
  maxlength?: number;
  errors?: FieldError[];
}

export function inputField(options: InputFieldOptions): Html {
  const { name, label, type = 'text', value, hint, autocomplete, required = true, maxlength } = options;
  const error = options.errors?.find((candidate) => candidate.field === name);
  const describedBy = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
    <label for="${name}">${label}</label>
    ${hint ? html`<p class="hint" id="${name}-hint">${hint}</p>` : ''}
    ${error ? html`<p class="field-error" id="${name}-error"><span class="sr-only">Error: </span>${error.message}</p>` : ''}
    <input
      id="${name}"
      name="${name}"
      type="${type}"
      ${value === undefined ? '' : html` value="${value}"`}${
        autocomplete ? html` autocomplete="${autocomplete}"` : ''
      }${required ? html` required` : ''}${maxlength ? html` maxlength="${maxlength}"` : ''}${
        describedBy ? html` aria-describedby="${describedBy}"` : ''
      }${error ? html` aria-invalid="true"` : ''}
    />
  </div>`;
}

/** A form value as a string ('' when absent or sent as a list: `a=1&a=2`). */
export function formString(body: unknown, name: string): string {
  const value = (body as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : '';
}
