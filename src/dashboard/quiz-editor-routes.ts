import express, { type Request, type Response, type Router } from 'express';
import type { DomainDeps } from '../domain/deps';
import { isDomainError, type DomainError } from '../domain/errors';
import {
  decodeImage,
  ImageRefused,
  IMAGE_LIMITS,
  sniffFormat,
  type DecodedImage,
} from '../domain/images/decode-image';
import { MEDIA_TYPES } from '../domain/images/image-ref';
import { readUpload, storeUpload } from '../domain/uploads/uploads';
import type { FormFile } from '../http/file-body';
import { createQuiz } from '../domain/quizzes/create-quiz';
import { deleteQuiz } from '../domain/quizzes/delete-quiz';
import { duplicateQuiz } from '../domain/quizzes/duplicate-quiz';
import { previewLink } from '../domain/links/quiz-links';
import { getQuizQuestions, getQuizSettings } from '../domain/quizzes/get-quiz';
import { publishQuiz } from '../domain/quizzes/publish-quiz';
import { requireOwnedQuizId } from '../domain/owned/require-owned-quiz';
import { updateQuiz } from '../domain/quizzes/update-quiz';
import { getResults } from '../domain/reporting/get-results';
import { overriddenKeptNote, remarkAllResponses } from '../domain/grading/remark-responses';
import { formFiles, parseForm, parseFormWithFiles, verifyCsrf } from '../web/csrf';
import { plural } from '../web/page-shell';
import type { SessionRecord } from '../domain/sessions';
import { currentSession, requireLogin } from '../web/session';
import { setFlash } from '../web/session-flash';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import { formString } from './form-fields';
import { canonicalTimeZone } from '../domain/time-zone';
import { quizNotFound } from '../domain/owned/resolve-quiz';
import type { FieldError } from '../web/parts';
import { sendDeleteQuizPage } from './quiz-delete-page';
import { sendRemarkQuizPage } from './quiz-remark-page';
import { draftFromQuiz, draftToInput, emptyDraft, readDraft, type QuizDraft } from './quiz-draft';
import { applyAction, parseAction, placeAfter } from './quiz-draft-actions';
import { fieldId, renderedField, sendEditorPage, type EditorState } from './quiz-editor-page';
import { editorMessage } from './editor-issues';

/** Up to 100 questions of 20 options each, with their texts: far more than the account forms. */
const EDITOR_FORM = { limit: '4mb', parameterLimit: 5000 };
/**
 * The editor's pictures travel with the form (multipart): each file at most a picture's limit,
 * a few at once, and the whole body read to its end (file bytes past a limit are dropped as they
 * come) so that a file too large is named beside its field.
 */
const EDITOR_FILES = {
  bodyBytes: 64 * 1024 * 1024,
  fileBytes: IMAGE_LIMITS.maxBytes,
  filesBytes: 4 * IMAGE_LIMITS.maxBytes,
  fieldBytes: 1024 * 1024,
};
const PICTURE_FILE = /^questions\[(\d{1,3})\](?:\[options\]\[(\d{1,2})\])?\[image_file\]$/;

/**
 * The pictures chosen in the form's file fields, each through the decoder every picture passes
 * (recognised by content, bounded, metadata stripped, scaled) and kept as an upload of the owner's
 * until Save stores it in the quiz through the tools' pipeline (quotas, uses). A picture refused
 * is named beside its field and nothing of it is kept.
 */
async function takePictures(
  deps: DashboardContext['deps'],
  ownerId: string,
  draft: QuizDraft,
  files: readonly FormFile[],
): Promise<FieldError[]> {
  const errors: FieldError[] = [];
  const mb = IMAGE_LIMITS.maxBytes / (1024 * 1024);
  for (const file of files) {
    const match = PICTURE_FILE.exec(file.field);
    const question = match ? draft.questions[Number(match[1])] : undefined;
    if (!match || !question) continue;
    const holder = match[2] === undefined ? question : question.options[Number(match[2])];
    if (!holder) continue;
    const place =
      match[2] === undefined
        ? `question ${Number(match[1]) + 1}`
        : `option ${Number(match[2]) + 1} of question ${Number(match[1]) + 1}`;
    const field = fieldId(file.field);
    if (file.over) {
      errors.push({
        field,
        message: `Picture for ${place}: the file is larger than ${mb} MB, the most a picture may be (or the form held more pictures than one save takes); choose a smaller one. Nothing was stored.`,
      });
      continue;
    }
    let decoded: DecodedImage;
    try {
      decoded = await decodeImage(file.bytes);
    } catch (error) {
      if (!(error instanceof ImageRefused)) throw error;
      errors.push({ field, message: `Picture for ${place}: the file ${error.message}. Nothing was stored.` });
      continue;
    }
    const stored = await storeUpload(deps, ownerId, {
      contentType: decoded.mediaType,
      filename: file.filename,
      bytes: decoded.bytes,
    });
    holder.image = {
      ref: stored.upload_id,
      alt: holder.image.alt,
      width: String(decoded.width),
      height: String(decoded.height),
    };
  }
  return errors;
}

const quizPath = (id: string) => `/dashboard/quizzes/${id}`;

/** The domain's refusal as errors beside the editor's fields, each saying where it is. */
function editorErrors(error: DomainError, draft: QuizDraft): FieldError[] {
  if (error.code === 'confirmation_required') {
    return [
      {
        field: 'confirm_edit_published',
        message:
          'This quiz is published, so nothing was changed: tick “Change the published quiz” and save again. ' +
          'Past responses keep their scores.',
      },
    ];
  }
  if (error.issues.length === 0) return [{ field: '', message: error.message }];
  return error.issues.map((issue) => ({
    field: renderedField(issue.field),
    message: pictureMessage(issue) ?? editorMessage(issue, (index) => draft.questions[index]?.type),
  }));
}

/** A picture's refusal on Save that the editor's wording has no code for: a quota, a picture gone. */
function pictureMessage(issue: DomainError['issues'][number]): string | null {
  if (issue.code !== 'invalid') return null;
  if (/quota/.test(issue.message)) return `Pictures: ${issue.message}.`;
  const at = /^questions\[(\d+)\](?:\.options\[(\d+)\])?\.image\b/.exec(issue.field);
  if (!at) return null;
  const place =
    at[2] === undefined
      ? `question ${Number(at[1]) + 1}`
      : `option ${Number(at[2]) + 1} of question ${Number(at[1]) + 1}`;
  return `Picture for ${place}: it is no longer stored or cannot be used: upload it again.`;
}

/** The codes a save explains beside the fields; anything else is an error page. */
const SAVE_REFUSALS = ['invalid_input', 'confirmation_required', 'invalid_state'] as const;

/**
 * Add, remove, move: the form comes back with the change made and nothing stored, at the place
 * of the change. Save: the draft goes through the tools' schemas and the same domain function; a
 * refusal shows the form again as typed, each error beside its field.
 */
async function handleEditorPost(
  req: Request,
  res: Response,
  page: Omit<EditorState, 'draft'> & { timeZone: string },
  owner: { deps: DashboardContext['deps']; ownerId: string },
  save: (draft: QuizDraft) => Promise<void>,
): Promise<void> {
  const body = req.body as Record<string, unknown>;
  const draft = readDraft(body);
  const action = parseAction(body._action);
  const refused = await takePictures(owner.deps, owner.ownerId, draft, formFiles(res));
  if (refused.length > 0) {
    return sendEditorPage(res, { ...page, draft, errors: refused, status: 422 });
  }
  if (action.kind !== 'save') {
    return sendEditorPage(res, {
      ...page,
      draft: applyAction(draft, action),
      focus: placeAfter(draft, action),
    });
  }
  try {
    await save(draft);
  } catch (error) {
    const refusal = domainRefusal(error, SAVE_REFUSALS);
    if (!refusal) throw error;
    sendEditorPage(res, {
      ...page,
      draft,
      errors: editorErrors(refusal.error, draft),
      status: refusal.status,
    });
  }
}

/** The zone the form's times were shown in (the page says it), else the account's. */
function formTimeZone(body: unknown, fallback: string): string {
  return canonicalTimeZone(formString(body, 'time_zone')) ?? fallback;
}

/** The quiz editor (create, edit), publishing, closing and reopening responses, and deletion. */
export function quizEditorRoutes({ deps }: DashboardContext): Router {
  const router = express.Router();
  editorRoutes(router, deps);
  quizActionRoutes(router, deps);
  return router;
}

/** The editor's pages: a new quiz, an owned one, and the pictures uploaded in it before a save. */
function editorRoutes(router: Router, deps: DomainDeps): void {
  // A picture uploaded in the editor and not saved yet, shown to its owner alone; only a picture
  // is served (by its content), whatever else the owner's uploads hold.
  router.get('/dashboard/pictures/:uploadId', requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    const upload = await readUpload(deps, session.userId, String(req.params.uploadId)).catch(
      (error: unknown) => {
        if (isDomainError(error)) return null;
        throw error;
      },
    );
    const format = upload ? sniffFormat(upload.bytes) : null;
    if (!upload || !format) {
      res.status(404).set('Cache-Control', 'no-store').type('text/plain').send('No such picture.');
      return;
    }
    res
      .status(200)
      .set({
        'Content-Type': MEDIA_TYPES[format],
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': 'private, max-age=3600',
        'Content-Disposition': 'inline',
      })
      .send(Buffer.from(upload.bytes));
  });

  router.get('/dashboard/quizzes/new', requireLogin(), (_req, res) => {
    const session = currentSession(res)!;
    sendEditorPage(res, { draft: emptyDraft(), timeZone: session.timeZone });
  });

  router.post(
    '/dashboard/quizzes/new',
    requireLogin(),
    parseFormWithFiles(EDITOR_FORM, EDITOR_FILES),
    verifyCsrf(),
    async (req, res) => {
      const session = currentSession(res)!;
      const timeZone = formTimeZone(req.body, session.timeZone);
      const owner = { deps, ownerId: session.userId };
      await handleEditorPost(req, res, { timeZone }, owner, async (draft) => {
        const input = draftToInput(draft, timeZone, deps.baseUrl);
        const quiz = await createQuiz(deps, session.userId, input);
        setFlash(res, {
          notice: {
            kind: 'success',
            text: `“${quiz.title}” is saved as a draft.`,
          },
        });
        res.redirect(303, quizPath(quiz.quiz_id));
      });
    },
  );

  router.get('/dashboard/quizzes/:quizId/edit', requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    const id = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
    const timeZone = session.timeZone;
    const [questions, settings] = await Promise.all([
      getQuizQuestions(deps, session.userId, id),
      getQuizSettings(deps, session.userId, id),
    ]);
    sendEditorPage(res, {
      quiz: { id, title: questions.title, published: questions.status === 'published' },
      draft: draftFromQuiz(questions, settings, timeZone),
      timeZone,
    });
  });

  router.post(
    '/dashboard/quizzes/:quizId/edit',
    requireLogin(),
    parseFormWithFiles(EDITOR_FORM, EDITOR_FILES),
    verifyCsrf(),
    async (req, res) => {
      const session = currentSession(res)!;
      // One read of the quiz: the owner's, for the editor's header and for the save itself.
      const stored = await deps.repos.quizzes.quizWithQuestions(session.userId, String(req.params.quizId));
      if (!stored) throw quizNotFound(String(req.params.quizId));
      const id = stored.id;
      const quiz = { id, title: stored.title, published: stored.status === 'published' };
      const timeZone = formTimeZone(req.body, session.timeZone);
      const owner = { deps, ownerId: session.userId };
      await handleEditorPost(req, res, { quiz, timeZone }, owner, async (draft) => {
        const input = draftToInput(draft, timeZone, deps.baseUrl);
        const updated = await updateQuiz(deps, session.userId, {
          ref: id,
          title: input.title,
          description: input.description,
          questions: input.questions,
          settings: input.settings,
          confirmEditPublished: draft.confirm_edit_published,
          remarkPastResponses: draft.remark_past_responses,
          loaded: stored,
        });
        const remarked =
          'remarked_responses' in updated
            ? ` ${plural(updated.remarked_responses, 'past response', 'past responses')} got new marks.`
            : '';
        setFlash(res, {
          notice: { kind: 'success', text: `Your changes to “${updated.title}” are saved.${remarked}` },
        });
        res.redirect(303, quizPath(id));
      });
    },
  );
}

/**
 * What the owner does to a quiz from its page: publish, preview, duplicate, close or reopen,
 * re-mark and delete (these two behind a page that says what changes).
 */
function quizActionRoutes(router: Router, deps: DomainDeps): void {
  /** A POST on one of the owner's quizzes: logged in, CSRF-checked, and the quiz theirs. */
  const ownedQuizPost = (
    path: string,
    handle: (req: Request, res: Response, owner: { session: SessionRecord; id: string }) => Promise<void>,
  ) =>
    router.post(path, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
      const session = currentSession(res)!;
      const id = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
      await handle(req, res, { session, id });
    });

  ownedQuizPost('/dashboard/quizzes/:quizId/publish', async (_req, res, { session, id }) => {
    try {
      const published = await publishQuiz(deps, session.userId, id);
      setFlash(res, { notice: { kind: 'success', text: published.message } });
    } catch (error) {
      if (!domainRefusal(error, ['invalid_state'])) throw error;
      setFlash(res, {
        notice: {
          kind: 'error',
          text: 'A quiz without questions cannot be published: add a question first.',
        },
      });
    }
    res.redirect(303, quizPath(id));
  });

  ownedQuizPost('/dashboard/quizzes/:quizId/preview', async (_req, res, { session, id }) => {
    // The one preview mechanism: a signed link made for this session, which dies with it.
    const link = await previewLink(deps, session.userId, { kind: 'session', id: session.id }, id);
    res.set('Referrer-Policy', 'no-referrer').redirect(303, link.url);
  });

  ownedQuizPost('/dashboard/quizzes/:quizId/duplicate', async (_req, res, { session, id }) => {
    const copy = await duplicateQuiz(deps, session.userId, { ref: id });
    const cleared = copy.warnings.map((warning) =>
      `${warning.field ?? ''}: ${warning.message}`.replace(/^: /, ''),
    );
    setFlash(res, {
      notice: {
        kind: 'success',
        text:
          `“${copy.title}” is a new draft with the ${plural(copy.question_count, 'question', 'questions')} and settings; ` +
          `no responses were copied.${cleared.length > 0 ? ` Note: ${cleared.join('; ')}.` : ''}`,
      },
    });
    res.redirect(303, quizPath(copy.quiz_id));
  });

  ownedQuizPost('/dashboard/quizzes/:quizId/accepting', async (req, res, { session, id }) => {
    const open = (req.body as Record<string, unknown>).accepting === 'true';
    // The button is the owner's confirmation: closing or reopening changes no question or score.
    const quiz = await updateQuiz(deps, session.userId, {
      ref: id,
      settings: { accepting_responses: open },
      confirmEditPublished: true,
    });
    const text = open
      ? `“${quiz.title}” takes responses again.`
      : `“${quiz.title}” is closed: its page says so and refuses new responses. You can reopen it at any time.`;
    setFlash(res, { notice: { kind: 'success', text } });
    res.redirect(303, quizPath(id));
  });

  router.get('/dashboard/quizzes/:quizId/delete', requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    const id = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
    const [questions, results] = await Promise.all([
      getQuizQuestions(deps, session.userId, id),
      // The summary alone: no page of responses is read just to count them.
      getResults(deps, session.userId, { ref: id, limit: 0 }),
    ]);
    sendDeleteQuizPage(res, {
      id,
      title: questions.title,
      questionCount: questions.question_count,
      responseCount: results.summary.response_count,
    });
  });

  router.get('/dashboard/quizzes/:quizId/remark', requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    const id = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
    const results = await getResults(deps, session.userId, { ref: id, limit: 0 });
    sendRemarkQuizPage(res, { id, title: results.quiz.title, responseCount: results.summary.response_count });
  });

  ownedQuizPost('/dashboard/quizzes/:quizId/remark', async (_req, res, { session, id }) => {
    // The confirmation is the page this form is on, which said what changes.
    const { remarked: changed, overriddenKept } = await remarkAllResponses(deps, session.userId, id);
    const text =
      (changed === 0
        ? 'Every response already has the marks the current answer keys give: nothing changed.'
        : `${plural(changed, 'response', 'responses')} got new marks; each keeps its original score.`) +
      (overriddenKept > 0 ? ` ${overriddenKeptNote(overriddenKept)}` : '');
    setFlash(res, { notice: { kind: 'success', text } });
    res.redirect(303, quizPath(id));
  });

  ownedQuizPost('/dashboard/quizzes/:quizId/delete', async (_req, res, { session, id }) => {
    // The confirmation is the page this form is on, which named what goes.
    const deleted = await deleteQuiz(deps, session.userId, id, true);
    setFlash(res, { notice: { kind: 'success', text: deleted.message } });
    res.redirect(303, '/dashboard/quizzes');
  });
}
