import { html, type Html } from '../../../web/html';
import { richText } from '../../../web/rich-text';
import {
  errorId,
  fieldError,
  fieldName,
  pictureOf,
  questionLegend,
  type AskedQuestion,
  type FormFace,
  type PostedForm,
} from '../../../respondent/question-form-face';
import type { GridQuestion } from './index';

/**
 * The public form's grid: a table of rows against columns, a radio (one per row) or checkbox per
 * cell, each named after its row (`<field>_r<row>`, so a row's radios are one group reached by
 * the arrow keys) and labelled by its row's and column's headers. On a narrow screen the
 * stylesheet lays each row out as a card with its column's label beside each control; no script.
 */

/** A row's control name: one radio group, or one checkbox list, per row. */
const gridRowName = (name: string, row: number) => `${name}_r${row}`;

function keptCells(raw: string | undefined, rows: number): number[][] {
  try {
    const parsed = raw === undefined ? [] : (JSON.parse(raw) as unknown);
    if (Array.isArray(parsed)) {
      return Array.from({ length: rows }, (_, row) => {
        const chosen: unknown = parsed[row];
        return Array.isArray(chosen) ? chosen.filter((column) => typeof column === 'number') : [];
      });
    }
  } catch {
    // Never written by anything but readGridForm: read as nothing kept.
  }
  return Array.from({ length: rows }, () => []);
}

function gridFieldset(
  { tr, question, index, total, values, error, rich }: AskedQuestion,
  grid: GridQuestion,
): Html {
  const name = fieldName(question.id);
  const hintId = `hint-${question.id}`;
  const errorKey = error ? errorId(question.id) : undefined;
  const type = grid.checkboxes ? 'checkbox' : 'radio';
  const kept = keptCells(values.answers.get(question.id), grid.rows.length);
  const rowId = (row: number) => `grid-${question.id}-r${row}`;
  const columnId = (column: number) => `grid-${question.id}-c${column}`;
  const describedBy = [errorKey, hintId].filter(Boolean).join(' ');
  return html`<fieldset
    class="question grid-question${errorKey ? ' has-error' : ''}"
    id="question-${question.id}"
    aria-describedby="${describedBy}"
  >
    <legend id="legend-${question.id}">${questionLegend(tr, question, index, total, rich)}</legend>
    ${pictureOf(question)} ${fieldError(tr, question.id, error)}
    <p class="hint" id="${hintId}">${tr.t(grid.checkboxes ? 'quiz.gridHintAny' : 'quiz.gridHintOne')}</p>
    <div class="grid-scroll">
      <table class="grid-table">
        <thead>
          <tr>
            <td></td>
            ${grid.columns.map(
              (label, column) =>
                html`<th scope="col" id="${columnId(column)}" dir="auto">
                  ${richText(label, rich, { control: true })}
                </th>`,
            )}
          </tr>
        </thead>
        <tbody>
          ${grid.rows.map(
            (label, row) =>
              html`<tr>
                <th scope="row" id="${rowId(row)}" dir="auto">${richText(label, rich, { control: true })}</th>
                ${grid.columns.map((columnLabel, column) => {
                  const id = `${name}_${row * grid.columns.length + column}`;
                  return html`<td>
                    <label class="grid-cell" for="${id}">
                      <input
                        type="${type}"
                        id="${id}"
                        name="${gridRowName(name, row)}"
                        value="${String(column)}"
                        aria-labelledby="${rowId(row)} ${columnId(column)}"
                        ${kept[row]!.includes(column) ? html`checked` : ''}
                        ${errorKey ? html`aria-invalid="true"` : ''}
                      />
                      <span class="grid-cell-label" aria-hidden="true" dir="auto"
                        >${richText(columnLabel, rich, { control: true })}</span
                      >
                    </label>
                  </td>`;
                })}
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </fieldset>`;
}

/**
 * The grid's answer from the form's body: per row the columns ticked, as JSON (the definition's
 * formAnswer reads it back); nothing ticked in any row is no answer. A value the page never
 * offers is kept as it came, so the domain refuses it by name.
 */
function readGridForm(form: PostedForm, questionId: string, key: GridQuestion): string | undefined {
  const rows = key.rows.map((_, row) => {
    const raw = form[gridRowName(fieldName(questionId), row)];
    const values = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
    if (values.length > key.columns.length || !values.every((value) => typeof value === 'string'))
      return [-1];
    return (values as string[]).map((value) => (/^\d{1,2}$/.test(value) ? Number(value) : -1));
  });
  return rows.some((chosen) => chosen.length > 0) ? JSON.stringify(rows) : undefined;
}

/** A grid on the public form: one radio group or checkbox list per row. */
export const face: FormFace<GridQuestion> = {
  type: 'grid',
  fieldset: gridFieldset,
  read: readGridForm,
  // One radio group or checkbox list per row: any other value is one the page never offers.
  message: (_issue, tr) => tr.t('error.chooseListed'),
};
