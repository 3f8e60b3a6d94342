import express, { type Response, type Router } from 'express';
import { requireOwnedQuizId } from '../domain/owned/require-owned-quiz';
import { deleteResponse } from '../domain/reporting/delete-response';
import { findOwnedResponse, type OwnedResponse } from '../domain/owned/owned-response';
import { csrfField, parseForm, verifyCsrf } from '../web/csrf';
import { html } from '../web/html';
import { formatTime, readerZone, sendPage } from '../web/page-shell';
import { currentSession, requireLogin } from '../web/session';
import { setFlash } from '../web/session-flash';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import { resultsPath } from './results-pages';

const PATH = '/dashboard/quizzes/:quizId/responses/:responseId/delete';

function who(response: OwnedResponse): string {
  const parts = [response.respondentName, response.respondentEmail].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'an anonymous respondent';
}

function sendConfirmation(res: Response, response: OwnedResponse): void {
  const back = `/dashboard/quizzes/${response.quizId}/responses/${response.id}`;
  sendPage(res, {
    title: 'Delete this response?',
    section: 'quizzes',
    body: html`<div class="narrow">
      <h1>Delete this response?</h1>
      <p>
        The response of ${who(response)}, submitted
        ${formatTime(response.submittedAt, undefined, readerZone(res))}, scored ${response.score} of
        ${response.maxScore} points.
      </p>
      <p>
        It is removed for good with its answers, and the results (responses, mean score, pass rate, the
        answers to each question) are counted again without it. This cannot be undone.
      </p>
      <form method="post" action="/dashboard/quizzes/${response.quizId}/responses/${response.id}/delete">
        ${csrfField(res)}
        <p class="actions">
          <button type="submit" class="danger">Delete the response</button>
          <a class="button secondary" href="${back}">Keep it</a>
        </p>
      </form>
    </div>`,
  });
}

/** An owner removes a junk response from a quiz's results: a confirmation page, then a CSRF-checked POST. */
export function responseRoutes({ deps }: DashboardContext): Router {
  const router = express.Router();
  const { repos } = deps;

  router.get(PATH, requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    const quizId = await requireOwnedQuizId(repos, session.userId, String(req.params.quizId));
    sendConfirmation(
      res,
      await findOwnedResponse(repos, session.userId, quizId, String(req.params.responseId)),
    );
  });

  router.post(PATH, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const quizId = await requireOwnedQuizId(repos, session.userId, String(req.params.quizId));
    const back = resultsPath(quizId, 'responses');
    try {
      await deleteResponse(repos, session.userId, quizId, String(req.params.responseId));
    } catch (error) {
      if (!domainRefusal(error, ['response_not_found'])) throw error;
      setFlash(res, { notice: { kind: 'error', text: 'That response was already deleted.' } });
      return res.redirect(303, back);
    }
    setFlash(res, {
      notice: { kind: 'success', text: 'The response is deleted, and the results no longer count it.' },
    });
    res.redirect(303, back);
  });

  return router;
}
