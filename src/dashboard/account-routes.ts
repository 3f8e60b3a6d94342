import express, { type Request, type Response, type Router } from 'express';
import type { DomainError } from '../domain/errors';
import { authenticateUser, createUser } from '../domain/users';
import { parseForm, verifyCsrf } from '../web/csrf';
import { currentSession, endSession, safeReturnTo, startSession } from '../web/session';
import { setFlash, takeFlash } from '../web/session-flash';
import { sendLoginPage, sendLogoutPage, sendSignupPage } from './account-pages';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import { sendTooManyAttempts } from '../web/error-pages';
import { formString } from './form-fields';
import type { FieldError } from '../web/parts';
import { addressKey } from '../http/rate-limit';

/** One message for an unknown email and a wrong password: the form must not reveal which accounts exist. */
export const BAD_CREDENTIALS = 'The email or password is not right.';

const FIELD_MESSAGES: Record<string, string> = {
  'email:is already registered': 'An account with this email already exists. Log in instead.',
};

function fieldErrors(error: DomainError): FieldError[] {
  // A taken email is nothing to fix in the field: said once, at the top, with the way forward.
  if (error.code === 'user_exists') {
    return [{ field: '', message: FIELD_MESSAGES['email:is already registered']! }];
  }
  return error.issues.map((issue) => ({
    field: issue.field,
    message: FIELD_MESSAGES[`${issue.field}:${issue.message}`] ?? issue.message,
  }));
}

function destination(req: Request): string {
  const body = req.body as Record<string, unknown> | undefined;
  return safeReturnTo(body?.returnTo) ?? '/dashboard';
}

export function accountRoutes({ deps, limiters }: DashboardContext): Router {
  const router = express.Router();
  const { repos } = deps;

  router.get('/signup', (req, res) => {
    const returnTo = safeReturnTo(req.query.returnTo);
    if (currentSession(res)) return res.redirect(303, returnTo ?? '/dashboard');
    sendSignupPage(res, { returnTo });
  });

  router.post('/signup', parseForm(), verifyCsrf(), async (req, res) => {
    const email = formString(req.body, 'email').trim();
    const password = formString(req.body, 'password');
    const returnTo = safeReturnTo(formString(req.body, 'returnTo'));
    const clientLimitKey = `signup:${addressKey(req.ip)}`;
    const wait = await limiters.signupClient.consume(clientLimitKey);
    if (wait > 0) return sendTooManyAttempts(res, wait, 'create accounts from your network');
    let user;
    try {
      user = await createUser(repos, { email, password });
    } catch (thrown) {
      const refusal = domainRefusal(thrown, ['invalid_input', 'user_exists']);
      if (!refusal) throw thrown;
      const { error, status } = refusal;
      // Forms that fail validation cost nothing; a taken email counts like an account made, so
      // that probing which emails have accounts is bounded by the same budget (SECURITY.md).
      if (error.code !== 'user_exists') await limiters.signupClient.refund(clientLimitKey);
      return sendSignupPage(res, { email, errors: fieldErrors(error), returnTo, status });
    }
    await startSession(res, user.id);
    setFlash(res, { notice: { kind: 'success', text: 'Welcome! Your account is ready.' } });
    res.redirect(303, destination(req));
  });

  router.get('/login', (req, res) => {
    const returnTo = safeReturnTo(req.query.returnTo);
    if (currentSession(res)) return res.redirect(303, returnTo ?? '/dashboard');
    sendLoginPage(res, { returnTo, flash: takeFlash(req, res) });
  });

  router.post('/login', parseForm(), verifyCsrf(), async (req, res) => {
    const email = formString(req.body, 'email').trim();
    const password = formString(req.body, 'password');
    const returnTo = safeReturnTo(formString(req.body, 'returnTo'));
    const missing: FieldError[] = [];
    if (!email) missing.push({ field: 'email', message: 'Enter your email address' });
    if (!password) missing.push({ field: 'password', message: 'Enter your password' });
    if (missing.length > 0) return sendLoginPage(res, { email, errors: missing, returnTo, status: 422 });

    // Counted before the (slow) password check, so parallel guesses cannot overtake the count.
    const clientLimitKey = `login:${addressKey(req.ip)}`;
    const accountLimitKey = `login:${email.toLowerCase()}`;
    const clientWait = await limiters.loginClient.consume(clientLimitKey);
    if (clientWait > 0) return sendTooManyAttempts(res, clientWait, 'log in from your network');
    const accountWait = await limiters.loginAccount.attempt(accountLimitKey);
    if (accountWait > 0) {
      await limiters.loginClient.refund(clientLimitKey); // an attempt that was not made
      return sendTooManyAttempts(res, accountWait, 'log in to this account');
    }

    let user;
    try {
      user = await authenticateUser(repos, email, password);
    } catch (error) {
      const refusal = domainRefusal(error, ['invalid_credentials']);
      if (!refusal) throw error;
      const errors = [{ field: 'email', message: BAD_CREDENTIALS }];
      return sendLoginPage(res, { email, errors, returnTo, status: refusal.status });
    }
    await limiters.loginAccount.succeeded(accountLimitKey);
    await limiters.loginClient.refund(clientLimitKey);
    await startSession(res, user.id);
    res.redirect(303, destination(req));
  });

  router.get('/logout', (_req, res) => {
    if (!currentSession(res)) return res.redirect(303, '/login');
    sendLogoutPage(res);
  });

  router.post('/logout', parseForm(), (req, res, next) => {
    // Nobody to log out: nothing to protect either, so no token is needed to get to the login page.
    if (!currentSession(res)) return res.redirect(303, '/login');
    next();
  });
  router.post('/logout', verifyCsrf(), async (_req: Request, res: Response) => {
    await endSession(res);
    setFlash(res, { notice: { kind: 'success', text: 'You are logged out.' } });
    res.redirect(303, '/login');
  });

  return router;
}
