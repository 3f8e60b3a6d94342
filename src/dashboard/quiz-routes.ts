import { once } from 'node:events';
import express, { type Response, type Router } from 'express';
import { CSV_BOM, csvLine } from '../domain/csv';
import { exportResponses } from '../domain/quizzes/export-responses';
import { EXPORT_FORMATS, exportLosses, exportQuiz, type QuizExport } from '../domain/export/export-quiz';
import { signedLinkPath } from '../domain/links/quiz-links';
import { getQuizQuestions, getQuizSettings } from '../domain/quizzes/get-quiz';
import { browseQuizzes, QUIZ_LIST_STATUSES } from '../domain/quizzes/list-quizzes';
import { ownerSummary, recentResponses } from '../domain/quizzes/owner-summary';
import { requireOwnedQuizId } from '../domain/owned/require-owned-quiz';
import { getResultsSummary } from '../domain/reporting/results-summary';
import { itemOrderOf } from './quiz-item-analysis';
import { html } from '../web/html';
import { currentSession, requireLogin } from '../web/session';
import { takeFlash } from '../web/session-flash';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import { sendPage } from '../web/page-shell';
import { sendOverviewPage, sendQuizListPage } from './quiz-list-page';
import { sendQuizPage } from './quiz-page';
import { resultsPath } from './results-pages';
import { signedLink, type OpenedOwnerLink } from './signed-link';
import type { DomainDeps } from '../domain/deps';

const PAGE_SIZE = 20;
/** The newest quizzes shown on the overview. */
const OVERVIEW_SIZE = 5;

function queryString(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

export function sendBadLink(res: Response, back: string): void {
  sendPage(res, {
    title: 'Link not valid',
    status: 400,
    body: html`<h1>That page link is not valid</h1>
      <p>It may have been cut short when it was copied. <a href="${back}">Start from the newest</a>.</p>`,
  });
}

/** Resolves when the socket can take more, or when the client has gone (then false). */
async function drained(res: Response): Promise<boolean> {
  if (res.destroyed) return false;
  const ac = new AbortController();
  try {
    const event = await Promise.race([
      once(res, 'drain', { signal: ac.signal }).then(() => 'drain'),
      once(res, 'close', { signal: ac.signal }).then(() => 'close'),
    ]);
    return event === 'drain';
  } finally {
    ac.abort();
  }
}

/** The owner's quizzes, a quiz with its results, and its responses as CSV. */
export function quizRoutes({ deps }: DashboardContext): Router {
  const router = express.Router();

  router.get('/dashboard', requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    // The list's older pages moved to /dashboard/quizzes; links kept from before still work.
    if (queryString(req.query.after)) {
      return res.redirect(301, `/dashboard/quizzes?after=${encodeURIComponent(String(req.query.after))}`);
    }
    const [summary, latest, open, recent] = await Promise.all([
      ownerSummary(deps, session.userId),
      browseQuizzes(deps, session.userId, { limit: OVERVIEW_SIZE }),
      browseQuizzes(deps, session.userId, { limit: OVERVIEW_SIZE, status: 'open' }),
      recentResponses(deps, session.userId, OVERVIEW_SIZE),
    ]);
    sendOverviewPage(res, {
      email: session.email,
      summary,
      latest,
      open,
      recent,
      flash: takeFlash(req, res),
    });
  });

  router.get('/dashboard/quizzes', requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    const after = queryString(req.query.after);
    const search = (queryString(req.query.q) ?? '').slice(0, 200);
    const status = QUIZ_LIST_STATUSES.find((value) => value === req.query.status) ?? '';
    let list;
    try {
      list = await browseQuizzes(deps, session.userId, {
        limit: PAGE_SIZE,
        cursor: after,
        search,
        ...(status ? { status } : {}),
      });
    } catch (error) {
      // A cursor that is not one of ours: the link is bad, not the list.
      if (!domainRefusal(error, ['invalid_input'])) throw error;
      return sendBadLink(res, '/dashboard/quizzes');
    }
    sendQuizListPage(res, list, {
      paged: after !== undefined,
      flash: takeFlash(req, res),
      query: { search, status },
    });
  });

  router.get('/dashboard/quizzes/:quizId', requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    // Exact id and owner first: another user's quiz is "not found", whatever the URL says.
    const id = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
    // The responses list and the item analysis moved to the results' sections; links kept from
    // before land where they pointed.
    const cursor = queryString(req.query.responses);
    if (cursor) {
      return res.redirect(301, `${resultsPath(id, 'responses')}?after=${encodeURIComponent(cursor)}`);
    }
    const items = queryString(req.query.items);
    if (items) return res.redirect(301, `${resultsPath(id, 'items')}?order=${itemOrderOf(items)}`);
    const [questions, settings, results, row] = await Promise.all([
      getQuizQuestions(deps, session.userId, id),
      getQuizSettings(deps, session.userId, id),
      getResultsSummary(deps, session.userId, id),
      deps.repos.quizzes.byId(id),
    ]);
    const notes = await Promise.all(EXPORT_FORMATS.map((format) => exportLosses(questions, format)));
    sendQuizPage(res, {
      questions,
      settings,
      summary: results.summary,
      flash: takeFlash(req, res),
      timeZone: session.timeZone,
      assistantGradesFinal: row?.assistantGradesFinal ?? false,
      exportNotes: Object.fromEntries(
        EXPORT_FORMATS.map((format, index) => [format, notes[index]!]),
      ) as Record<(typeof EXPORT_FORMATS)[number], (typeof notes)[number]>,
    });
  });

  // The same file through a signed link (get_quiz_links), for whoever holds the link: no session.
  router.get('/dashboard/quizzes/:quizId/responses.csv', signedLink(deps, 'csv'), async (_req, res) => {
    const { ownerId, quizId } = res.locals.signedLink as OpenedOwnerLink;
    await sendResponsesCsv(res, deps, ownerId, quizId);
  });
  router.get('/dashboard/quizzes/:quizId/responses.csv', requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    const id = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
    await sendResponsesCsv(res, deps, session.userId, id);
  });

  // The questions as Moodle XML, GIFT or a QTI package: through a signed link (get_quiz_links), or logged in.
  for (const format of EXPORT_FORMATS) {
    const path = signedLinkPath({ id: ':quizId', slug: '' }, format);
    router.get(path, signedLink(deps, format), async (_req, res) => {
      const { ownerId, quizId } = res.locals.signedLink as OpenedOwnerLink;
      sendExport(res, await exportQuiz(deps, ownerId, quizId, format));
    });
    router.get(path, requireLogin(), async (req, res) => {
      const session = currentSession(res)!;
      const id = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
      sendExport(res, await exportQuiz(deps, session.userId, id, format));
    });
  }

  return router;
}

function sendExport(res: Response, exported: QuizExport): void {
  // Slugs are [a-z0-9-] only, so the file name needs no quoting beyond the quotes.
  res.status(200).set({
    'Content-Type': exported.contentType,
    'Content-Disposition': `attachment; filename="${exported.filename}"`,
    'Cache-Control': 'no-store',
    'Referrer-Policy': 'no-referrer',
  });
  res.send(exported.body);
}

/** The responses as CSV, streamed a batch at a time, honouring back-pressure: memory stays flat for any size. */
async function sendResponsesCsv(
  res: Response,
  deps: DomainDeps,
  ownerId: string,
  quizId: string,
): Promise<void> {
  const exported = await exportResponses(deps, ownerId, quizId);
  // Slugs are [a-z0-9-] only, so the file name needs no quoting beyond the quotes.
  res.status(200).set({
    'Content-Type': 'text/csv; charset=utf-8',
    'Content-Disposition': `attachment; filename="${exported.quiz.slug}-responses.csv"`,
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  res.write(CSV_BOM + csvLine(exported.header));
  for await (const row of exported.rows()) {
    if (!res.write(csvLine(row)) && !(await drained(res))) return;
  }
  res.end();
}
