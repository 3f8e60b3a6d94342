import express, { type Request, type Response, type Router } from 'express';
import { requireOwnedQuizId } from '../domain/owned/require-owned-quiz';
import {
  acceptAnswer,
  planAcceptAnswer,
  type AcceptPlan,
  type AcceptTarget,
} from '../domain/grading/accept-answer';
import { csrfField, parseForm, verifyCsrf } from '../web/csrf';
import { html } from '../web/html';
import { plural, sendPage } from '../web/page-shell';
import { errorSummary } from '../web/parts';
import { richText } from '../web/rich-text';
import { currentSession, requireLogin } from '../web/session';
import { setFlash } from '../web/session-flash';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';

const PATH = '/dashboard/quizzes/:quizId/responses/:responseId/answers/:answerId/accept';

const responsePath = (quizId: string, responseId: string) =>
  `/dashboard/quizzes/${quizId}/responses/${responseId}`;

/** `blank`, 1-based as the page names blanks, as a part (0-based); null when absent; undefined when not a blank number. */
function partOf(value: unknown): number | null | undefined {
  if (value === undefined || value === '') return null;
  if (typeof value !== 'string' || !/^[1-9]\d{0,2}$/.test(value)) return undefined;
  return Number(value) - 1;
}

function sendRefusal(res: Response, status: number, message: string, back: string): void {
  sendPage(res, {
    status,
    title: 'This answer cannot be accepted',
    section: 'quizzes',
    body: html`<div class="narrow">
      <h1>This answer cannot be accepted</h1>
      ${errorSummary([{ field: '', message }])}
      <p><a href="${back}">Back to the response</a></p>
    </div>`,
  });
}

function sendConfirmation(res: Response, plan: AcceptPlan, target: AcceptTarget): void {
  const back = responsePath(plan.quiz_id, target.responseId);
  const where = plan.part === null ? '' : ` for blank ${plan.part + 1}`;
  sendPage(res, {
    title: `Accept “${plan.text}”?`,
    section: 'quizzes',
    body: html`<div class="narrow">
      <h1>Accept “<bdi>${plan.text}</bdi>”${where}?</h1>
      <p>
        It is added to the accepted answers${where} of the question “<span dir="auto"
          >${richText(plan.question_text, { dollars: plan.math_dollars })}</span
        >”.
      </p>
      <p>
        <strong>${plural(plan.responses_changed, 'response gets', 'responses get')} new marks</strong>: those
        that typed it, with case and spacing aside as the question compares answers. The question keeps its id
        and statistics, and attempts in progress go on.
      </p>
      <form method="post" action="${back}/answers/${target.answerId}/accept">
        ${csrfField(res)}
        ${plan.part === null ? '' : html`<input type="hidden" name="blank" value="${String(plan.part + 1)}" />`}
        <p class="actions">
          <button type="submit">
            Accept it and re-mark ${plural(plan.responses_changed, 'response', 'responses')}
          </button>
          <a class="button secondary" href="${back}">Cancel</a>
        </p>
      </form>
    </div>`,
  });
}

/**
 * "Accept this answer": a typed answer marked wrong joins its question's accepted answers, and
 * the responses that typed it are re-marked. A confirmation page says how many first, then a
 * CSRF-checked POST does it.
 */
export function acceptAnswerRoutes({ deps }: DashboardContext): Router {
  const router = express.Router();

  /** The answer named by the path and its blank, or null once a refusal page is sent. */
  async function targetOf(req: Request, res: Response, blank: unknown) {
    const userId = currentSession(res)!.userId;
    const quizId = await requireOwnedQuizId(deps.repos, userId, String(req.params.quizId));
    const responseId = String(req.params.responseId);
    const part = partOf(blank);
    if (part === undefined) {
      sendRefusal(res, 400, 'The blank must be a blank number, such as 2.', responsePath(quizId, responseId));
      return null;
    }
    return { userId, quizId, target: { responseId, answerId: String(req.params.answerId), part } };
  }

  async function run<T>(res: Response, back: string, action: () => Promise<T>): Promise<T | null> {
    try {
      return await action();
    } catch (error) {
      const refusal = domainRefusal(error, ['invalid_input']);
      if (!refusal) throw error;
      const message = refusal.error.issues?.[0]?.message ?? refusal.error.message;
      sendRefusal(res, refusal.status, message, back);
      return null;
    }
  }

  router.get(PATH, requireLogin(), async (req, res) => {
    const found = await targetOf(req, res, req.query.blank);
    if (!found) return;
    const { userId, quizId, target } = found;
    const plan = await run(res, responsePath(quizId, target.responseId), () =>
      planAcceptAnswer(deps, userId, quizId, target),
    );
    if (plan) sendConfirmation(res, plan, target);
  });

  router.post(PATH, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const found = await targetOf(req, res, (req.body as Record<string, unknown>).blank);
    if (!found) return;
    const { userId, quizId, target } = found;
    const back = responsePath(quizId, target.responseId);
    const done = await run(res, back, () => acceptAnswer(deps, userId, quizId, target));
    if (!done) return;
    setFlash(res, {
      notice: {
        kind: 'success',
        text: `“${done.text}” is accepted: ${plural(done.responses_changed, 'response', 'responses')} re-marked.`,
      },
    });
    res.redirect(303, back);
  });

  return router;
}
