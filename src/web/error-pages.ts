import type { ErrorRequestHandler, Response } from 'express';
import { clientErrorOf } from '../http/client-errors';
import type { Logger } from '../logger';
import { html } from './html';
import { sendPage } from './page-shell';

/** Error pages in the dashboard's own look (HTML, not the API's problem+json). */
export function sendNotFound(res: Response, what = 'page'): void {
  sendPage(res, {
    title: 'Not found',
    status: 404,
    body: html`<h1>Not found</h1>
      <p>There is no ${what} here, or it is not yours to see.</p>
      <p><a href="/dashboard">Back to your quizzes</a></p>`,
  });
}

export function minutesText(seconds: number): string {
  if (seconds < 60) return seconds <= 1 ? 'a second' : `${seconds} seconds`;
  const minutes = Math.ceil(seconds / 60);
  return minutes <= 1 ? 'a minute' : `${minutes} minutes`;
}

export function sendTooManyAttempts(res: Response, retryAfterSeconds: number, action: string): void {
  res.set('Retry-After', String(retryAfterSeconds));
  sendPage(res, {
    title: 'Too many attempts',
    status: 429,
    body: html`<h1>Too many attempts</h1>
      <div class="notice error" role="alert">
        There have been too many attempts to ${action}. For your security, wait
        ${minutesText(retryAfterSeconds)} and try again.
      </div>`,
  });
}

/** Last resort for the dashboard's routes: a page with the request id; details go to the log. */
export function pageErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, _next) => {
    const requestId = String(res.locals.requestId ?? '');
    const client = clientErrorOf(error);
    if (client?.kind === 'too_large' && !res.headersSent) {
      sendPage(res, {
        title: 'Too large',
        status: 413,
        body: html`<h1>That form was too large</h1>
          <p>Nothing was changed. Go back and send less text.</p>`,
      });
      return;
    }
    if (client && !res.headersSent) {
      sendPage(res, {
        title: 'Request not readable',
        status: client.status,
        body: html`<h1>That request could not be read</h1>
          <p>${client.reason} Nothing was changed. Check the link, or go back and try again.</p>`,
      });
      return;
    }
    logger.error({ err: error, requestId, method: req.method, path: req.path }, 'dashboard page failed');
    if (res.headersSent) {
      res.destroy();
      return;
    }
    sendPage(res, {
      title: 'Something went wrong',
      status: 500,
      body: html`<h1>Something went wrong on our side</h1>
        <p>Try again in a moment. If it keeps happening, report request id <code>${requestId}</code>.</p>`,
    });
  };
}
