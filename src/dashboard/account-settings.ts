import express, { type Response, type Router } from 'express';
import type { DomainError } from '../domain/errors';
import { setAccountTimeZone } from '../domain/account-time-zone';
import { timeZoneNames } from '../domain/time-zone';
import { accountContents, changePassword, deleteAccount, PASSWORD_RULE } from '../domain/users';
import { csrfField, parseForm, verifyCsrf } from '../web/csrf';
import { html } from '../web/html';
import { formatTime, noticeBox, plural, sendPage } from '../web/page-shell';
import { currentSession, endSession, requireLogin } from '../web/session';
import { setFlash, takeFlash, type Flash } from '../web/session-flash';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import { formString } from './form-fields';
import { errorSummary, errorsFor, field, selectField, type FieldError } from '../web/parts';

const PATH = '/account';

interface AccountPageState {
  flash?: Flash | null;
  timeZoneErrors?: FieldError[];
  passwordErrors?: FieldError[];
  deleteErrors?: FieldError[];
  status?: number;
}

/**
 * /account: change the password (the current one first; the account's other sessions end) and
 * delete the account (what goes is counted first; the password confirms it).
 */
async function sendAccountPage(
  res: Response,
  context: DashboardContext,
  state: AccountPageState,
): Promise<void> {
  const session = currentSession(res)!;
  const contents = await accountContents(context.deps.repos, session.userId);
  const passwordErrors = state.passwordErrors ?? [];
  const deleteErrors = state.deleteErrors ?? [];
  sendPage(res, {
    title: 'Account',
    section: 'account',
    status: state.status ?? 200,
    body: html`<h1>Account</h1>
      ${noticeBox(state.flash ?? null)}
      <p>
        You are logged in as <strong>${session.email}</strong> since
        ${formatTime(session.createdAt, undefined, session.timeZone)}.
      </p>

      <section aria-labelledby="time-zone-heading" class="narrow">
        <h2 id="time-zone-heading">Time zone</h2>
        <p class="muted">
          The dashboard shows times in it, and assistants' times without an offset (such as “close it Friday
          at 18:00”) are read in it.
        </p>
        ${errorSummary(state.timeZoneErrors ?? [])}
        <form method="post" action="${PATH}/time-zone" novalidate>
          ${csrfField(res)}
          ${selectField({
            id: 'time_zone',
            name: 'time_zone',
            label: 'Time zone',
            autocomplete: 'off',
            value: session.timeZone,
            choices: timeZoneNames().map((zone) => ({ value: zone, label: zone })),
            errors: errorsFor(state.timeZoneErrors, 'time_zone'),
          })}
          <p><button type="submit">Save time zone</button></p>
        </form>
      </section>

      <section aria-labelledby="password-heading" class="narrow">
        <h2 id="password-heading">Change your password</h2>
        <p class="muted">
          Every other browser logged in to this account is logged out. API keys and connected apps keep
          working; revoke them on their own pages if you need to.
        </p>
        ${errorSummary(passwordErrors)}
        <form method="post" action="${PATH}/password" novalidate>
          ${csrfField(res)}
          ${field({ id: 'current_password', name: 'current_password', required: true, label: 'Current password', type: 'password', autocomplete: 'current-password', errors: errorsFor(passwordErrors, 'current_password') })}
          ${field({ id: 'new_password', name: 'new_password', required: true, label: 'New password', type: 'password', autocomplete: 'new-password', hint: `${PASSWORD_RULE}.`, maxlength: 200, errors: errorsFor(passwordErrors, 'new_password') })}
          <p><button type="submit">Change password</button></p>
        </form>
      </section>

      <section aria-labelledby="delete-heading" class="narrow danger-zone">
        <h2 id="delete-heading">Delete your account</h2>
        <p>This removes, for good and at once:</p>
        <ul>
          <li>
            ${plural(contents.quizzes, 'quiz', 'quizzes')}, with their public pages and
            ${plural(contents.responses, 'response', 'responses')};
          </li>
          <li>${plural(contents.apiKeys, 'API key', 'API keys')}: scripts using them are refused;</li>
          <li>
            ${plural(contents.connectedApps, 'connected app', 'connected apps')}: assistants lose access;
          </li>
          <li>your log-in on every browser.</li>
        </ul>
        <p>Download any results you want to keep first (each quiz's page has a CSV export).</p>
        ${errorSummary(deleteErrors)}
        <form method="post" action="${PATH}/delete" novalidate>
          ${csrfField(res)}
          ${field({ id: 'password', name: 'password', required: true, label: 'Your password, to confirm', type: 'password', autocomplete: 'current-password', errors: errorsFor(deleteErrors, 'password') })}
          <p><button type="submit" class="danger">Delete my account and everything in it</button></p>
        </form>
      </section>`,
  });
}

/** The domain errors a settings form shows beside its fields. */
const FORM_ERRORS = ['invalid_input', 'invalid_credentials'] as const;

function fieldErrorsOf(error: DomainError): FieldError[] {
  return error.issues.map((issue) => ({ field: issue.field, message: issue.message }));
}

export function accountSettingsRoutes(context: DashboardContext): Router {
  const router = express.Router();
  const { repos } = context.deps;

  router.get(PATH, requireLogin(), async (req, res) => {
    await sendAccountPage(res, context, { flash: takeFlash(req, res) });
  });

  router.post(`${PATH}/time-zone`, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    let zone;
    try {
      zone = await setAccountTimeZone(repos, session.userId, formString(req.body, 'time_zone'));
    } catch (error) {
      const refusal = domainRefusal(error, FORM_ERRORS);
      if (!refusal) throw error;
      return sendAccountPage(res, context, {
        timeZoneErrors: fieldErrorsOf(refusal.error),
        status: refusal.status,
      });
    }
    setFlash(res, { notice: { kind: 'success', text: `Times are now shown in ${zone}.` } });
    res.redirect(303, PATH);
  });

  router.post(`${PATH}/password`, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    let otherSessionsEnded;
    try {
      ({ otherSessionsEnded } = await changePassword(repos, {
        userId: session.userId,
        currentPassword: formString(req.body, 'current_password'),
        newPassword: formString(req.body, 'new_password'),
        keepSessionId: session.id,
      }));
    } catch (error) {
      const refusal = domainRefusal(error, FORM_ERRORS);
      if (!refusal) throw error;
      return sendAccountPage(res, context, {
        passwordErrors: fieldErrorsOf(refusal.error),
        status: refusal.status,
      });
    }
    const others =
      otherSessionsEnded > 0
        ? ` ${plural(otherSessionsEnded, 'other browser was', 'other browsers were')} logged out.`
        : '';
    setFlash(res, { notice: { kind: 'success', text: `Your password is changed.${others}` } });
    res.redirect(303, PATH);
  });

  router.post(`${PATH}/delete`, requireLogin(), parseForm(), verifyCsrf(), async (req, res) => {
    const session = currentSession(res)!;
    try {
      await deleteAccount(repos, session.userId, formString(req.body, 'password'));
    } catch (error) {
      const refusal = domainRefusal(error, FORM_ERRORS);
      if (!refusal) throw error;
      return sendAccountPage(res, context, {
        deleteErrors: fieldErrorsOf(refusal.error),
        status: refusal.status,
      });
    }
    context.logger.info({ requestId: res.locals.requestId, userId: session.userId }, 'account deleted');
    await endSession(res);
    setFlash(res, { notice: { kind: 'success', text: 'Your account and everything in it are deleted.' } });
    res.redirect(303, '/');
  });

  return router;
}
