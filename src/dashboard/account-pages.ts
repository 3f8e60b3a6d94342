import type { Response } from 'express';
import { csrfField } from '../web/csrf';
import { html } from '../web/html';
import type { Flash } from '../web/session-flash';
import { errorSummary, errorsFor, field, type FieldError } from '../web/parts';
import { noticeBox, sendPage, withReturnTo } from '../web/page-shell';

export interface AccountFormState {
  email?: string;
  errors?: FieldError[];
  returnTo?: string | null;
  flash?: Flash | null;
  status?: number;
}

function returnToField(returnTo: string | null | undefined) {
  return returnTo ? html`<input type="hidden" name="returnTo" value="${returnTo}" />` : '';
}

export function sendLoginPage(res: Response, state: AccountFormState = {}): void {
  const errors = state.errors ?? [];
  sendPage(res, {
    title: 'Log in',
    section: 'login',
    returnTo: state.returnTo,
    status: state.status ?? 200,
    body: html`<div class="narrow">
      <h1>Log in</h1>
      ${noticeBox(state.flash ?? null)} ${errorSummary(errors)}
      ${
        state.returnTo?.startsWith('/oauth/')
          ? html`<p class="notice info">Log in to continue connecting your AI assistant.</p>`
          : ''
      }
      <form method="post" action="/login" novalidate>
        ${csrfField(res)} ${returnToField(state.returnTo)}
        ${field({ id: 'email', name: 'email', required: true, label: 'Email', type: 'email', value: state.email ?? '', autocomplete: 'username', errors: errorsFor(errors, 'email') })}
        ${field({ id: 'password', name: 'password', required: true, label: 'Password', type: 'password', autocomplete: 'current-password', errors: errorsFor(errors, 'password') })}
        <p><button type="submit">Log in</button></p>
      </form>
      <p>No account yet? <a href="${withReturnTo('/signup', state.returnTo)}">Sign up</a></p>
      <p class="muted">
        Forgot your password? This service sends no email: ask whoever runs it to set a new one for you (they
        run
        <code>users set-password</code>).
      </p>
    </div>`,
  });
}

export function sendSignupPage(res: Response, state: AccountFormState = {}): void {
  const errors = state.errors ?? [];
  sendPage(res, {
    title: 'Sign up',
    section: 'signup',
    returnTo: state.returnTo,
    status: state.status ?? 200,
    body: html`<div class="narrow">
      <h1>Create your account</h1>
      <p class="muted">Make quizzes with your AI assistant and see the results here.</p>
      ${
        state.returnTo?.startsWith('/oauth/')
          ? html`<p class="notice info">Create your account to continue connecting your AI assistant.</p>`
          : ''
      }
      ${errorSummary(errors)}
      <form method="post" action="/signup" novalidate>
        ${csrfField(res)} ${returnToField(state.returnTo)}
        ${field({ id: 'email', name: 'email', required: true, label: 'Email', type: 'email', value: state.email ?? '', autocomplete: 'email', maxlength: 254, errors: errorsFor(errors, 'email') })}
        ${field({
          id: 'password',
          name: 'password',
          required: true,
          label: 'Password',
          type: 'password',
          hint: 'At least 10 characters. A few unrelated words make a strong one.',
          autocomplete: 'new-password',
          maxlength: 200,
          errors: errorsFor(errors, 'password'),
        })}
        <p><button type="submit">Create account</button></p>
      </form>
      <p>Already have an account? <a href="${withReturnTo('/login', state.returnTo)}">Log in</a></p>
    </div>`,
  });
}

export function sendLogoutPage(res: Response): void {
  sendPage(res, {
    title: 'Log out',
    body: html`<div class="narrow">
      <h1>Log out</h1>
      <form method="post" action="/logout">
        ${csrfField(res)}
        <p><button type="submit">Log out of this browser</button></p>
      </form>
    </div>`,
  });
}
