import { html, type Html } from '../../../web/html';
import { checkbox } from '../../../web/parts';
import {
  fieldId,
  textField,
  type DraftQuestion,
  type EditorFace,
  type EditorView,
} from '../../../dashboard/question-editor-face';
import { GRID_LIMITS } from './fields';

/** A grid: its rows and columns one per line, checkboxes or not, and its key per row (optional). */
function gridFields(base: string, question: DraftQuestion, view: EditorView): Html {
  const checkboxes = `${base}[checkboxes]`;
  return html`${textField({
    name: `${base}[items]`,
    label: `Rows, one per line (${GRID_LIMITS.rowsMin} to ${GRID_LIMITS.rowsMax})`,
    value: question.items,
    view,
    multiline: true,
    text: true,
  })}
  ${textField({
    name: `${base}[columns]`,
    label: `Columns, one per line (${GRID_LIMITS.columnsMin} to ${GRID_LIMITS.columnsMax})`,
    value: question.columns,
    view,
    multiline: true,
    text: true,
  })}
  ${checkbox({
    id: fieldId(checkboxes),
    name: checkboxes,
    label: 'Any number of columns per row (checkboxes)',
    checked: question.checkboxes === 'on',
  })}
  ${textField({
    name: `${base}[right_columns]`,
    label: 'Right columns, one line per row (optional)',
    value: question.right_columns,
    view,
    multiline: true,
    hint: 'Each row\'s right column numbers, 1 first, between commas ("2" or "1, 3"). Leave empty for a survey: no points, out of the score.',
  })}
  ${textField({
    name: `${base}[points_per_item]`,
    label: 'Points per row right',
    value: question.points_per_item || '1',
    view,
    inputmode: 'numeric',
    className: 'short',
  })}`;
}

/** Its part of the quiz editor (dashboard/question-editor-faces.ts). */
export const face: EditorFace<'grid'> = {
  type: 'grid',
  name: 'Grid',
  add: 'Add a grid',
  labels: {
    items: 'Rows',
    columns: 'Columns',
    checkboxes: 'Checkboxes',
    right_columns: 'Right columns',
    points_per_item: 'Points per row right',
  },
  keyFields: (base, _index, question, view) => gridFields(base, question, view),
};
