import type { Response } from 'express';
import { IMPORT_FORMATS } from '../domain/import/bank';
import { IMPORT_TEXT_MAX, type ImportPreview, type PreviewItem } from '../domain/import/import-questions';
import { LIMITS } from '../domain/limits';
import { UPLOAD_BYTES_MAX } from '../domain/uploads/uploads';
import { csrfField } from '../web/csrf';
import { html, type Html } from '../web/html';
import { plural, sendPage } from '../web/page-shell';
import {
  checkbox,
  dataTable,
  errorsFor,
  errorSummary,
  field,
  fieldErrorText,
  selectField,
} from '../web/parts';
import type { FieldError } from '../web/parts';

/**
 * The dashboard's import: a form that takes a file or pasted text, then the preview of what it
 * becomes (the same preview as import_questions' dry run, as a table) with the button that
 * imports it. A new draft quiz, or questions added to one of the owner's drafts.
 */

/** Where the questions go: a new draft quiz, or the end of a draft. */
export type ImportTarget =
  | { kind: 'new' }
  | { kind: 'append'; quizId: string; title: string; questionCount: number; published: boolean };

/** The address of the import of `target`: its form; `/preview` and `/confirm` under it. */
export const importPath = (target: ImportTarget) =>
  target.kind === 'new' ? '/dashboard/quizzes/import' : `/dashboard/quizzes/${target.quizId}/import`;

export const FORMAT_NAMES: Readonly<Record<(typeof IMPORT_FORMATS)[number], string>> = {
  moodle_xml: 'Moodle XML',
  gift: 'GIFT',
  aiken: 'Aiken',
  csv: 'CSV (our layout)',
};

const MEGABYTES = UPLOAD_BYTES_MAX / (1024 * 1024);

export interface ImportFormState {
  target: ImportTarget;
  title: string;
  format: string;
  text: string;
  errors?: readonly FieldError[];
  status?: number;
}

function heading(target: ImportTarget): Html {
  return target.kind === 'new'
    ? html`Import questions into a new quiz`
    : html`Import questions into “${target.title}”`;
}

function breadcrumb(target: ImportTarget): Html {
  return target.kind === 'new'
    ? html`<p class="breadcrumb"><a href="/dashboard/quizzes">Quizzes</a> ›</p>`
    : html`<p class="breadcrumb">
        <a href="/dashboard/quizzes">Quizzes</a> ›
        <a href="/dashboard/quizzes/${target.quizId}">${target.title}</a> ›
      </p>`;
}

function titleField(target: ImportTarget, value: string, errors: readonly FieldError[] | undefined): Html {
  if (target.kind !== 'new') return html``;
  return field({
    id: 'title',
    name: 'title',
    label: 'Title of the new quiz',
    value,
    maxlength: LIMITS.titleMax,
    errors: errorsFor(errors, 'title'),
    hint: 'It is made as a draft: nothing is published until you publish it.',
  });
}

export function sendImportForm(res: Response, state: ImportFormState): void {
  const { target, errors } = state;
  const fileErrors = errorsFor(errors, 'file');
  const fileDescribed = ['file-hint', fileErrors.length > 0 ? 'file-error' : ''].filter(Boolean).join(' ');
  sendPage(res, {
    title: 'Import questions',
    section: 'quizzes',
    status: state.status ?? 200,
    body: html`${breadcrumb(target)}
      <h1>${heading(target)}</h1>
      ${errorSummary({ errors: errors ?? [], autofocus: true })}
      <p>
        Questions from Moodle, Canvas and other tools: Moodle XML, GIFT, Aiken, our CSV layout (<a
          href="/docs/import-template.csv"
          >template</a
        >), or a QTI 3.0 or 2.x package (zip). You see what each question becomes before anything is stored.
      </p>
      <form method="post" action="${importPath(target)}" enctype="multipart/form-data" novalidate>
        ${csrfField(res)} ${titleField(target, state.title, errors)}
        <div class="field">
          <label for="file">A file</label>
          <p class="hint" id="file-hint">At most ${MEGABYTES} MB.</p>
          ${fieldErrorText('file', fileErrors)}
          <input
            id="file"
            name="file"
            type="file"
            accept=".xml,.txt,.gift,.csv,.zip,text/xml,application/xml,text/plain,text/csv,application/zip"
            aria-describedby="${fileDescribed}"
            ${fileErrors.length > 0 ? html` aria-invalid="true"` : ''}
          />
        </div>
        ${field({
          id: 'text',
          name: 'text',
          label: 'Or paste the questions',
          multiline: true,
          rows: 8,
          value: state.text,
          maxlength: IMPORT_TEXT_MAX,
          spellcheck: false,
          dir: 'auto',
          errors: errorsFor(errors, 'text'),
          hint: 'GIFT, Aiken, CSV or Moodle XML as text; used when no file is chosen.',
        })}
        ${selectField({
          id: 'format',
          name: 'format',
          label: 'Format',
          value: state.format,
          errors: errorsFor(errors, 'format'),
          hint: 'Found from the file when you leave it; a zip is read as a QTI package.',
          choices: [
            { value: '', label: 'Find it from the file' },
            ...IMPORT_FORMATS.map((format) => ({ value: format, label: FORMAT_NAMES[format] })),
          ],
        })}
        <div class="actions">
          <button type="submit">Check the questions</button>
          <a
            class="button secondary"
            href="${target.kind === 'new' ? '/dashboard/quizzes' : `/dashboard/quizzes/${target.quizId}`}"
            >Cancel</a
          >
        </div>
      </form>`,
  });
}

export interface ImportPreviewState {
  target: ImportTarget;
  uploadId: string;
  format: string;
  title: string;
  preview: ImportPreview;
  errors?: readonly FieldError[];
  status?: number;
  split?: boolean;
  skipUnusable?: boolean;
}

const list = (entries: readonly string[] | undefined): Html =>
  entries && entries.length > 0
    ? html`<ul>
        ${entries.map((entry) => html`<li>${entry}</li>`)}
      </ul>`
    : html`<span class="muted">None</span>`;

function noteRow(item: PreviewItem): { header: Html; cells: Html[] } {
  return {
    header: html`${item.n}. ${item.text}`,
    cells: [
      html`${item.at}`,
      item.type
        ? html`${item.type} <span class="muted">(from ${item.from})</span>`
        : html`<strong>Cannot be imported</strong> <span class="muted">(${item.from})</span>`,
      list(item.lost),
      list(item.changed),
      list(item.problems),
      list(item.regraded),
    ],
  };
}

/** The preview's address for another page of its notes. */
export function previewHref(
  state: Pick<ImportPreviewState, 'target' | 'uploadId' | 'format' | 'title'>,
  page: number,
) {
  const query = new URLSearchParams({ upload: state.uploadId });
  if (state.format) query.set('format', state.format);
  if (state.target.kind === 'new') query.set('title', state.title);
  if (page > 1) query.set('page', String(page));
  return `${importPath(state.target)}/preview?${query.toString()}`;
}

/** Why the questions cannot be imported as they stand, or null when the button may be offered. */
function blocked({ target, preview }: ImportPreviewState): Html | null {
  if (preview.importable === 0) {
    return html`None of the ${preview.question_count} questions can be imported: the table says why. Fix them
    in the source and import the file again.`;
  }
  if (target.kind === 'append') {
    const total = target.questionCount + preview.importable;
    if (total > LIMITS.questionsMax) {
      return html`“${target.title}” has ${plural(target.questionCount, 'question', 'questions')}, and
        ${preview.importable} more would make ${total}: a quiz takes at most ${LIMITS.questionsMax}.
        <a href="/dashboard/quizzes/import">Import them into a new quiz</a> instead.`;
    }
  }
  return null;
}

function summary(preview: ImportPreview): Html {
  const types = Object.entries(preview.types).map(([type, count]) => `${count} ${type}`);
  const lost = Object.entries(preview.lost).map(
    ([what, count]) => `${what}: ${plural(count, 'question', 'questions')}`,
  );
  const changed = Object.entries(preview.changed ?? {}).map(
    ([how, count]) => `${how}: ${plural(count, 'question', 'questions')}`,
  );
  return html`<dl class="settings">
    <div>
      <dt>Format</dt>
      <dd>${preview.format === 'qti' ? 'QTI package' : FORMAT_NAMES[preview.format]}</dd>
    </div>
    <div>
      <dt>Questions found</dt>
      <dd>${preview.question_count}</dd>
    </div>
    <div>
      <dt>Can be imported</dt>
      <dd>${preview.importable}${types.length > 0 ? ` (${types.join(', ')})` : ''}</dd>
    </div>
    <div>
      <dt>Cannot be imported</dt>
      <dd>${preview.not_importable}</dd>
    </div>
    <div>
      <dt>Points per grade</dt>
      <dd>
        ${preview.points_per_grade} (grades become whole points by the
        <a href="/en/docs/api-reference#import-scoring">scoring rule</a>)
      </dd>
    </div>
    <div>
      <dt>Scores the rule changed</dt>
      <dd>${plural(preview.regraded, 'question', 'questions')}</dd>
    </div>
    <div>
      <dt>What is lost</dt>
      <dd>${lost.length > 0 ? lost.join('; ') : 'Nothing'}</dd>
    </div>
    <div>
      <dt>Texts rewritten</dt>
      <dd>${changed.length > 0 ? changed.join('; ') : 'None'}</dd>
    </div>
  </dl>`;
}

function pager(state: ImportPreviewState): Html {
  const { page, pages } = state.preview;
  if (pages <= 1) return html``;
  return html`<nav class="pager" aria-label="Pages of the notes">
    ${page > 1 ? html`<a href="${previewHref(state, page - 1)}">← Previous notes</a>` : ''}
    <span>Page ${page} of ${pages}</span>
    ${page < pages ? html`<a href="${previewHref(state, page + 1)}">Next notes →</a>` : ''}
  </nav>`;
}

function confirmForm(res: Response, state: ImportPreviewState): Html {
  const { target, preview, errors } = state;
  const refusal = blocked(state);
  if (refusal) {
    return html`<section class="notice warning" aria-labelledby="blocked-heading">
      <h2 id="blocked-heading">Nothing can be imported yet</h2>
      <p>${refusal}</p>
      <p><a href="${importPath(target)}">Import another file</a></p>
    </section>`;
  }
  const needsSplit = target.kind === 'new' && preview.quizzes_needed > 1;
  return html`<form method="post" action="${importPath(target)}/confirm" novalidate>
    ${csrfField(res)}
    <input type="hidden" name="upload" value="${state.uploadId}" />
    <input type="hidden" name="format" value="${state.format}" />
    ${titleField(target, state.title, errors)}
    ${
      needsSplit
        ? html`<p>
              A quiz takes at most ${LIMITS.questionsMax} questions: these ${preview.importable} make
              ${preview.quizzes_needed} quizzes, numbered “(1 of ${preview.quizzes_needed})” and on.
            </p>
            ${checkbox({
              id: 'split',
              name: 'split',
              label: `Split them into ${preview.quizzes_needed} quizzes`,
              checked: state.split ?? true,
              invalid: errorsFor(errors, 'split').length > 0,
            })}`
        : ''
    }
    ${
      preview.not_importable > 0
        ? checkbox({
            id: 'skip_unusable',
            name: 'skip_unusable',
            label: `Leave out the ${plural(preview.not_importable, 'question', 'questions')} that cannot be imported`,
            checked: state.skipUnusable ?? true,
            invalid: errorsFor(errors, 'skip_unusable').length > 0,
          })
        : ''
    }
    <div class="actions">
      <button type="submit">Import ${plural(preview.importable, 'question', 'questions')}</button>
      <a class="button secondary" href="${importPath(target)}">Choose another file</a>
    </div>
  </form>`;
}

export function sendImportPreview(res: Response, state: ImportPreviewState): void {
  const { target, preview } = state;
  const quiet = preview.pages === 1 ? preview.question_count - preview.notes.length : 0;
  sendPage(res, {
    title: 'Check the import',
    section: 'quizzes',
    wide: true,
    status: state.status ?? 200,
    body: html`${breadcrumb(target)}
      <h1>Check the import</h1>
      ${errorSummary({ errors: state.errors ?? [], autofocus: true })}
      <p>Nothing is stored until you import. ${heading(target)}:</p>
      ${summary(preview)}
      ${
        preview.file_problems
          ? html`<h2>What the file could not give</h2>
              ${list(preview.file_problems)}`
          : ''
      }
      <h2>Questions with something to say</h2>
      ${
        preview.notes.length === 0
          ? html`<p>Every question imports as it is.</p>`
          : html`${dataTable({
              caption: `Questions that lose something, whose texts were rewritten, that cannot be read, or whose scores the rule changed${
                preview.pages > 1 ? ` (page ${preview.page} of ${preview.pages})` : ''
              }`,
              columns: [
                { label: 'Question' },
                { label: 'Where' },
                { label: 'Becomes' },
                { label: 'What is lost' },
                { label: 'Texts rewritten' },
                { label: 'Cannot be read' },
                { label: 'Scores changed' },
              ],
              rows: preview.notes.map(noteRow),
            })}
            ${pager(state)}
            ${quiet > 0 ? html`<p class="muted">${plural(quiet, 'other question imports as it is', 'other questions import as they are')}.</p>` : ''}`
      }
      ${confirmForm(res, state)}`,
  });
}
