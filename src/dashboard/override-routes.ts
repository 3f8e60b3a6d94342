import express, { type Response, type Router } from 'express';
import type { DomainDeps } from '../domain/deps';
import { getQuizSettings } from '../domain/quizzes/get-quiz';
import { requireOwnedQuizId } from '../domain/owned/require-owned-quiz';
import { clientApprovalOf } from '../domain/grading/approve-in-client';
import { historyOf, overrideAnswer, type HistoryRecord } from '../domain/grading/grade-answers';
import { getOwnedResponse } from '../domain/reporting/owned-responses';
import { csrfField, parseForm, verifyCsrf } from '../web/csrf';
import { sendNotFound } from '../web/error-pages';
import { html } from '../web/html';
import { formatTime, sendPage } from '../web/page-shell';
import { errorSummary, errorsFor, field, type FieldError } from '../web/parts';
import { richText } from '../web/rich-text';
import { currentSession, requireLogin } from '../web/session';
import { setFlash } from '../web/session-flash';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import { respondentName } from './results-pages';

const PATH = '/dashboard/quizzes/:quizId/responses/:responseId/answers/:answerId/override';

type Owned = Awaited<ReturnType<typeof getOwnedResponse>>;

/** The answer of the response named by the path, with its review item; null when it has no such answer. */
async function locate(
  deps: DomainDeps,
  userId: string,
  quizId: string,
  responseId: string,
  answerId: string,
) {
  const [owned, settings] = await Promise.all([
    getOwnedResponse(deps, userId, quizId, responseId),
    getQuizSettings(deps, userId, quizId),
  ]);
  const index = owned.answer_actions.findIndex((action) => action.answer_id === answerId);
  if (index < 0) return null;
  return { owned, index, item: owned.answers[index]!, dollars: settings.math_dollars };
}

function historyList(history: readonly HistoryRecord[], timeZone: string) {
  if (history.length === 0)
    return html`<p class="muted">No grade or override yet: marked by its type's rule.</p>`;
  return html`<ol class="answer-history">
    ${history.map(
      (entry) =>
        html`<li>
          ${entry.kind === 'overridden' ? 'Overridden' : 'Graded'} from ${entry.points_before} to
          ${entry.points_after} points by <bdi>${entry.by}</bdi>,
          ${formatTime(new Date(entry.at), undefined, timeZone)}${
            entry.comment ? html`: “<bdi>${entry.comment}</bdi>”` : ''
          }
        </li>`,
    )}
  </ol>`;
}

function sendOverridePage(
  res: Response,
  data: {
    owned: Owned;
    index: number;
    answerId: string;
    history: readonly HistoryRecord[];
    /** When the teacher approved its grade in an MCP client's form. */
    approval?: Awaited<ReturnType<typeof clientApprovalOf>>;
    points: string;
    comment: string;
    errors: readonly FieldError[];
    timeZone: string;
    dollars: boolean;
  },
): void {
  const { owned, index } = data;
  const item = owned.answers[index]!;
  const back = `/dashboard/quizzes/${owned.quiz.quiz_id}/responses/${owned.response.response_id}`;
  const max = item.max_points ?? 0;
  sendPage(res, {
    status: data.errors.length > 0 ? 422 : 200,
    title: `Override the points of answer ${index + 1} · ${owned.quiz.title}`,
    section: 'quizzes',
    body: html`<div class="narrow">
      <p class="breadcrumb">
        <a href="${back}"><bdi>${respondentName(owned.response.respondent)}</bdi></a> ›
      </p>
      ${errorSummary({ errors: data.errors, autofocus: true })}
      <h1>Override the points of answer ${index + 1}</h1>
      <h2 class="question-text" dir="auto">${richText(item.text, { dollars: data.dollars })}</h2>
      <p>
        <span class="review-label">Answer:</span>
        ${
          item.your_answer === null
            ? html`<em>Not answered</em>`
            : html`<bdi class="review-answer long-text">${item.your_answer}</bdi>`
        }
      </p>
      <p><span class="review-label">Points now:</span> ${item.points ?? 0} of ${max}</p>
      <form method="post" action="${back}/answers/${data.answerId}/override">
        ${csrfField(res)}
        ${field({
          id: 'points',
          name: 'points',
          label: `New points (0 to ${max})`,
          value: data.points,
          inputmode: 'numeric',
          errors: errorsFor(data.errors, 'points'),
          className: 'short',
        })}
        ${field({
          id: 'comment',
          name: 'comment',
          label: 'Comment to the respondent (optional)',
          hint: 'Why the points changed; kept in the history beside the points before.',
          value: data.comment,
          multiline: true,
          rows: 3,
          maxlength: 2000,
          dir: 'auto',
          errors: errorsFor(data.errors, 'comment'),
        })}
        <p class="actions">
          <button type="submit">Override the points</button>
          <a class="button secondary" href="${back}">Cancel</a>
        </p>
      </form>
      <h2>History</h2>
      ${historyList(data.history, data.timeZone)}
      ${
        data.approval
          ? html`<p class="client-approval">
              Approved by the teacher in <bdi>${data.approval.client}</bdi> (approved_via:
              ${data.approval.via}), ${formatTime(data.approval.at, undefined, data.timeZone)}.
            </p>`
          : ''
      }
    </div>`,
  });
}

/**
 * The teacher overrides the points of any one answer (0 to its question's maximum) with a
 * comment, from the response page; the original points stay in the answer's history, and a
 * later re-marking leaves the override alone.
 */
export function overrideRoutes({ deps }: DashboardContext): Router {
  const router = express.Router();

  router.get(PATH, requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    const quizId = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
    const answerId = String(req.params.answerId);
    const found = await locate(deps, session.userId, quizId, String(req.params.responseId), answerId);
    if (!found) return sendNotFound(res, 'answer');
    const history = (await historyOf(deps, [answerId])).get(answerId) ?? [];
    sendOverridePage(res, {
      ...found,
      answerId,
      history,
      approval: await clientApprovalOf(deps, answerId),
      points: String(found.item.points ?? 0),
      comment: '',
      errors: [],
      timeZone: session.timeZone,
    });
  });

  router.post(PATH, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    const quizId = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
    const answerId = String(req.params.answerId);
    const responseId = String(req.params.responseId);
    const found = await locate(deps, session.userId, quizId, responseId, answerId);
    if (!found) return sendNotFound(res, 'answer');
    const body = req.body as Record<string, unknown>;
    const points = typeof body.points === 'string' ? body.points.trim() : '';
    const comment = typeof body.comment === 'string' ? body.comment : '';
    const max = found.item.max_points ?? 0;
    const refuse = async (errors: FieldError[]) =>
      sendOverridePage(res, {
        ...found,
        answerId,
        history: (await historyOf(deps, [answerId])).get(answerId) ?? [],
        points,
        comment,
        errors,
        timeZone: session.timeZone,
      });
    const value = /^\d{1,4}$/.test(points) ? Number(points) : NaN;
    const errors: FieldError[] = [];
    if (!(value >= 0 && value <= max))
      errors.push({ field: 'points', message: `Enter whole points from 0 to ${max}` });
    if (comment.length > 2000)
      errors.push({ field: 'comment', message: 'The comment takes at most 2,000 characters' });
    if (errors.length > 0) return refuse(errors);
    let done;
    try {
      done = await overrideAnswer(deps, session.userId, {
        ref: quizId,
        answerId,
        points: value,
        ...(comment.trim() ? { comment } : {}),
      });
    } catch (error) {
      const refusal = domainRefusal(error, ['invalid_input']);
      if (!refusal) throw error;
      return refuse([
        { field: 'points', message: refusal.error.issues[0]?.message ?? refusal.error.message },
      ]);
    }
    setFlash(res, {
      notice: {
        kind: 'success',
        text: `Answer ${found.index + 1} now scores ${done.points} of ${done.max_points} (was ${done.points_before}).`,
      },
    });
    res.redirect(303, `/dashboard/quizzes/${quizId}/responses/${responseId}`);
  });

  return router;
}
