import express, { type Request, type Response, type Router } from 'express';
import type { DomainDeps } from '../domain/deps';
import type { DomainError } from '../domain/errors';
import { ImportsBusy } from '../domain/import/read-pool';
import { IMPORT_FORMATS, type ImportFormat } from '../domain/import/bank';
import {
  checkSource,
  IMPORT_TEXT_MAX,
  importQuestions,
  previewSource,
} from '../domain/import/import-questions';
import { getQuizQuestions } from '../domain/quizzes/get-quiz';
import { requireOwnedQuizId } from '../domain/owned/require-owned-quiz';
import { readUpload, storeUpload, UPLOAD_BYTES_MAX, UPLOAD_LIFETIME_MS } from '../domain/uploads/uploads';
import { readFileBody } from '../http/file-body';
import { checkCsrf, parseForm, sendCsrfFailure, verifyCsrf } from '../web/csrf';
import { plural } from '../web/page-shell';
import type { FieldError } from '../web/parts';
import { currentSession, requireLogin } from '../web/session';
import { setFlash } from '../web/session-flash';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import { formString } from './form-fields';
import {
  importPath,
  sendImportForm,
  sendImportPreview,
  type ImportPreviewState,
  type ImportTarget,
} from './import-page';

/** A pasted bank's most bytes in the multipart form: its characters, each up to four bytes in UTF-8. */
const TEXT_FIELD_BYTES_MAX = IMPORT_TEXT_MAX * 4;

const formatOf = (value: unknown): ImportFormat | undefined =>
  IMPORT_FORMATS.find((format) => format === value);

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** The tool's advice (its arguments by name) as the page says it: its own fields and buttons. */
function inPageWords(message: string): string {
  return message
    .replace(/send skip_unusable: true to import the other (\d+)/, 'tick “Leave out…” to import the other $1')
    .replace(/send split: true to make (\d+) quizzes/, 'tick “Split them into $1 quizzes”')
    .replace(/: run with dry_run: true to see why/, ': the table says why')
    .replace(/import into a new quiz with title( \(and split: true\))?/, 'import into a new quiz instead')
    .replace(
      /send the file again through a new upload link \(get_quiz_links\)/,
      'choose the file again on the import page',
    )
    .replace(/, or send upload_id for a file sent through an upload link/, ', or choose a file');
}

/**
 * A refusal as the page's errors, each beside the field it is about: the bank's own fields
 * (upload_id, text) are the file or the pasted text, whichever was sent.
 */
/** Every import worker busy and the queue full: 429 with Retry-After, the form kept. */
function busyStatus(res: Response, error: unknown): number | undefined {
  if (!(error instanceof ImportsBusy)) return undefined;
  res.set('Retry-After', String(error.retryAfterSeconds));
  return 429;
}

function importErrors(error: DomainError, source: 'file' | 'text'): FieldError[] {
  if (error.issues.length === 0) return [{ field: '', message: inPageWords(error.message) }];
  return error.issues.map((issue) => {
    const message = inPageWords(issue.message);
    switch (issue.field) {
      case 'upload_id':
      case 'text': {
        const what = source === 'file' ? 'The file' : 'The pasted text';
        if (message.startsWith('no upload ')) {
          return {
            field: source,
            message: `The file is not one of yours, or it has expired (uploads are kept ${UPLOAD_LIFETIME_MS / 3_600_000} hours): choose it again.`,
          };
        }
        // The domain's messages follow the field's name ("is too long"), or say where ("gift: line 3").
        return {
          field: source,
          message: /^(is|has|holds) /.test(message)
            ? `${what} ${message}`
            : `${what} cannot be imported: ${message}`,
        };
      }
      case 'title':
        return { field: 'title', message: `The title ${message}` };
      case 'split':
      case 'skip_unusable':
        return { field: issue.field, message: capitalised(message) };
      default:
        return { field: '', message: capitalised(message) };
    }
  });
}

/** The 413 a file over the upload limit gets, in the page's words. */
const TOO_LARGE: FieldError = {
  field: 'file',
  message: `The file is too large: an import takes at most ${UPLOAD_BYTES_MAX / (1024 * 1024)} MB. Split the questions into smaller files.`,
};

/** Where an import goes; a quiz that is not the owner's is "not found". */
async function targetOf(deps: DomainDeps, req: Request, res: Response): Promise<ImportTarget> {
  const session = currentSession(res)!;
  if (req.params.quizId === undefined) return { kind: 'new' };
  const id = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
  const quiz = await getQuizQuestions(deps, session.userId, id);
  return {
    kind: 'append',
    quizId: id,
    title: quiz.title,
    questionCount: quiz.questions.length,
    published: quiz.status !== 'draft',
  };
}

/** The import form, empty. */
async function showForm(deps: DomainDeps, req: Request, res: Response) {
  sendImportForm(res, { target: await targetOf(deps, req, res), title: '', format: '', text: '' });
}

/**
 * The form's post: a file or pasted text, read whole and checked before it is stored as an upload;
 * the owner goes on to its preview, or back to the form with what to fix.
 */
async function takeFile(deps: DomainDeps, req: Request, res: Response) {
  const session = currentSession(res)!;
  let target: ImportTarget;
  try {
    target = await targetOf(deps, req, res);
  } catch (error) {
    req.resume();
    throw error;
  }
  const body = await readFileBody(req, UPLOAD_BYTES_MAX, { fieldBytesMax: TEXT_FIELD_BYTES_MAX });
  const fields = body.ok ? body.file.fields : (body.fields ?? {});
  const state = {
    target,
    title: (fields.title ?? '').trim(),
    format: formatOf(fields.format) ?? '',
    text: fields.text ?? '',
  };
  if (!body.ok && body.reason !== 'no_file') {
    const errors =
      body.reason === 'too_large'
        ? [
            /"text"/.test(body.detail)
              ? { field: 'text', message: 'The pasted text is too long: upload it as a file.' }
              : TOO_LARGE,
          ]
        : [
            {
              field: 'file',
              message: 'The form could not be read to its end: choose the file and send it again.',
            },
          ];
    return sendImportForm(res, {
      ...state,
      text: '',
      errors,
      status: body.reason === 'too_large' ? 413 : 400,
    });
  }
  // The token travels in the multipart form: checked before anything is read as questions.
  req.body = fields;
  const failure = checkCsrf(req, res);
  if (failure) return sendCsrfFailure(req, res, failure);

  const errors: FieldError[] = [];
  if (target.kind === 'new' && state.title === '') {
    errors.push({ field: 'title', message: 'Enter a title for the new quiz.' });
  }
  if (target.kind === 'append' && target.published) {
    errors.push({
      field: '',
      message: `“${target.title}” is published: questions are added to drafts only. Import them into a new quiz instead.`,
    });
  }
  const source = body.ok ? 'file' : 'text';
  if (!body.ok && state.text.trim() === '') {
    errors.push({ field: 'file', message: 'Choose a file, or paste the questions.' });
  } else if (!body.ok && state.text.length > IMPORT_TEXT_MAX) {
    errors.push({
      field: 'text',
      message: `The pasted text is longer than ${IMPORT_TEXT_MAX} characters: upload it as a file.`,
    });
  }
  if (errors.length > 0) return sendImportForm(res, { ...state, errors, status: 400 });

  const file = body.ok
    ? body.file
    : { contentType: 'text/plain', filename: null, bytes: new TextEncoder().encode(state.text) };
  // Read whole before it is kept: a file that cannot be read leaves nothing behind.
  try {
    await checkSource(deps, { file }, formatOf(state.format));
  } catch (error) {
    const refusal = domainRefusal(error, ['invalid_input']);
    if (!refusal) throw error;
    return sendImportForm(res, {
      ...state,
      errors: importErrors(refusal.error, source),
      status: busyStatus(res, error) ?? refusal.status,
    });
  }
  const stored = await storeUpload(deps, session.userId, file);
  const query = new URLSearchParams({ upload: stored.upload_id });
  if (state.format) query.set('format', state.format);
  if (target.kind === 'new') query.set('title', state.title);
  res.redirect(303, `${importPath(target)}/preview?${query.toString()}`);
}

/** The stored upload's preview; a refusal sends the owner back to the form with it. */
async function preview(
  deps: DomainDeps,
  req: Request,
  res: Response,
  state: Omit<ImportPreviewState, 'preview'>,
  page: number,
): Promise<ImportPreviewState | null> {
  const session = currentSession(res)!;
  try {
    const file = await readUpload(deps, session.userId, state.uploadId);
    const { preview } = await previewSource(deps, { file }, formatOf(state.format), page);
    return { ...state, preview };
  } catch (error) {
    const refusal = domainRefusal(error, ['invalid_input']);
    if (!refusal) throw error;
    sendImportForm(res, {
      target: state.target,
      title: state.title,
      format: state.format,
      text: '',
      errors: importErrors(refusal.error, 'file'),
      status: busyStatus(res, error) ?? refusal.status,
    });
    return null;
  }
}

/** The stored upload's preview, a page of its questions at a time. */
async function showPreview(deps: DomainDeps, req: Request, res: Response) {
  const target = await targetOf(deps, req, res);
  const state = {
    target,
    uploadId: String(req.query.upload ?? ''),
    format: formatOf(req.query.format) ?? '',
    title: typeof req.query.title === 'string' ? req.query.title : '',
  };
  const page = Math.max(1, Math.min(1000, Number.parseInt(String(req.query.page ?? '1'), 10) || 1));
  const shown = await preview(deps, req, res, state, page);
  if (shown) sendImportPreview(res, shown);
}

/** The import itself, all or nothing; a refusal shows the preview again with what to fix. */
async function confirm(deps: DomainDeps, req: Request, res: Response) {
  const session = currentSession(res)!;
  const target = await targetOf(deps, req, res);
  const body = req.body as Record<string, unknown>;
  const state = {
    target,
    uploadId: formString(body, 'upload'),
    format: formatOf(formString(body, 'format')) ?? '',
    title: formString(body, 'title').trim(),
    split: formString(body, 'split') !== '',
    skipUnusable: formString(body, 'skip_unusable') !== '',
  };
  const format = formatOf(state.format);
  try {
    const done = await importQuestions(deps, session.userId, {
      uploadId: state.uploadId,
      ...(format ? { format } : {}),
      ...(target.kind === 'new' ? { title: state.title } : { quizRef: target.quizId }),
      split: state.split,
      skipUnusable: state.skipUnusable,
    });
    const first = done.quizzes[0]!;
    const into = done.quizzes.length === 1 ? `“${first.title}”` : `${done.quizzes.length} draft quizzes`;
    setFlash(res, {
      notice: {
        kind: 'success',
        text: `Imported ${plural(done.importable, 'question', 'questions')} into ${into}.`,
      },
    });
    res.redirect(
      303,
      done.quizzes.length === 1 ? `/dashboard/quizzes/${first.quiz_id}` : '/dashboard/quizzes',
    );
  } catch (error) {
    const refusal = domainRefusal(error, ['invalid_input', 'invalid_state']);
    if (!refusal) throw error;
    const shown = await preview(deps, req, res, state, 1);
    if (shown) {
      sendImportPreview(res, {
        ...shown,
        errors: importErrors(refusal.error, 'file'),
        status: refusal.status,
      });
    }
  }
}

/**
 * Importing question banks on the dashboard: the form (a file through busboy, with the CSRF
 * check and the upload link's size limit, or pasted text), the preview of the stored upload, and
 * the import by the same domain function as import_questions, all or nothing.
 */
export function importRoutes({ deps }: DashboardContext): Router {
  const router = express.Router();
  const showFormOf = (req: Request, res: Response) => showForm(deps, req, res);
  router.get('/dashboard/quizzes/import', requireLogin(), showFormOf);
  router.get('/dashboard/quizzes/:quizId/import', requireLogin(), showFormOf);
  const takeFileOf = (req: Request, res: Response) => takeFile(deps, req, res);
  router.post('/dashboard/quizzes/import', requireLogin(), takeFileOf);
  router.post('/dashboard/quizzes/:quizId/import', requireLogin(), takeFileOf);
  const showPreviewOf = (req: Request, res: Response) => showPreview(deps, req, res);
  router.get('/dashboard/quizzes/import/preview', requireLogin(), showPreviewOf);
  router.get('/dashboard/quizzes/:quizId/import/preview', requireLogin(), showPreviewOf);
  const confirmOf = (req: Request, res: Response) => confirm(deps, req, res);
  router.post('/dashboard/quizzes/import/confirm', requireLogin(), parseForm(), verifyCsrf(), confirmOf);
  router.post(
    '/dashboard/quizzes/:quizId/import/confirm',
    requireLogin(),
    parseForm(),
    verifyCsrf(),
    confirmOf,
  );

  return router;
}
