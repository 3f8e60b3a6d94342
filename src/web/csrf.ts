import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import express, { type Request, type RequestHandler, type Response } from 'express';
import { runChain } from '../http/chain';
import { refuseBadTextInBody, verifyUtf8 } from '../http/text-guard';
import { readMultipartForm, type FormFile, type MultipartLimits } from '../http/file-body';
import { html, type Html } from './html';
import { layout } from './layout';
import { ensureCsrfNonce, sessionState, type WebSessionState } from './session';

/**
 * CSRF protection for every HTML form, in two layers:
 * 1. Origin: a browser sends `Origin` on every POST; one naming another site (or
 *    `Sec-Fetch-Site: cross-site`) is refused before anything else. `Origin: null` carries
 *    no information: pageSecurity's `Referrer-Policy: no-referrer` makes browsers send
 *    exactly that on our own forms (Fetch spec, "serializing a request origin").
 *    The token below still decides those.
 * 2. Synchronizer token: the form carries `_csrf`, compared in constant time with the
 *    session's own token (database), or, only while there is no session, with an HMAC of a random nonce in
 *    an HttpOnly cookie (signed double-submit; the HMAC key never leaves the server).
 *
 *   router.post('/x', parseForm(), loadSession(...), verifyCsrf(), handler)
 *   html`<form method="post">${csrfField(res)}...</form>`
 */
export const CSRF_FIELD = '_csrf';

function preSessionToken(state: WebSessionState, nonce: string): string {
  return createHmac('sha256', state.keys.csrf).update(nonce).digest('base64url');
}

/** The token a form on this page must send back. */
export function csrfToken(res: Response): string {
  const state = sessionState(res);
  if (state.session) return state.session.csrfToken;
  return preSessionToken(state, ensureCsrfNonce(res));
}

export function csrfField(res: Response): Html {
  return html`<input type="hidden" name="${CSRF_FIELD}" value="${csrfToken(res)}" />`;
}

/** Hashing first makes the comparison constant-time whatever the lengths are. */
function sameSecret(a: string, b: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(a), digest(b)) && a.length === b.length;
}

export type CsrfFailure = 'cross_origin' | 'bad_token';

/** Why a form post must be refused, or null when it may proceed. */
export function checkCsrf(req: Request, res: Response): CsrfFailure | null {
  const state = sessionState(res);
  const origin = req.headers.origin;
  if (origin !== undefined && origin !== 'null' && origin !== state.origin) return 'cross_origin';
  if (req.headers['sec-fetch-site'] === 'cross-site') return 'cross_origin';
  const body = req.body as Record<string, unknown> | undefined;
  const submitted = body?.[CSRF_FIELD];
  if (typeof submitted !== 'string' || submitted.length === 0 || submitted.length > 200) return 'bad_token';
  if (state.session && sameSecret(submitted, state.session.csrfToken)) return null;
  // The pre-session token serves the forms shown before log-in only: once a session exists, a
  // nonce cookie planted by another host (cookie tossing over plain http) must not stand in for it.
  if (state.session) return 'bad_token';
  if (state.csrfNonce && sameSecret(submitted, preSessionToken(state, state.csrfNonce))) return null;
  return 'bad_token';
}

/** How large a form may be: small by default; the quiz editor's holds up to 100 questions. */
export interface FormSize {
  limit: string;
  parameterLimit: number;
}

/** URL-encoded form bodies, small and flat (no nested objects from `a[b]=c`). */
function formRefused(res: Response, status: number, text: Html | string): void {
  res
    .status(status)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(
      layout({
        title: 'Form not accepted',
        robots: 'noindex',
        body: html`<h1>That form could not be accepted</h1>
          <p>${text} Go back, correct it and try again.</p>`,
      }),
    );
}

/** The files a form with file fields sent (`parseFormWithFiles`); none for a URL-encoded form. */
export const formFiles = (res: Response): FormFile[] =>
  (res.locals.formFiles as FormFile[] | undefined) ?? [];

/**
 * A form that may carry files (multipart/form-data, read by busboy within `files`' bounds), or
 * the same form URL-encoded as `parseForm` reads it: either way `req.body` holds its flat fields
 * and `formFiles(res)` its chosen files, each checked later by what takes it.
 */
export function parseFormWithFiles(size: FormSize, files: Omit<MultipartLimits, 'fields'>): RequestHandler {
  const urlEncoded = parseForm(size);
  const refuseBadText = refuseBadTextInBody((res, field, message) =>
    formRefused(res, 400, `The field ${field} ${message}. Nothing was changed.`),
  );
  return (req, res, next) => {
    if (!/^multipart\/form-data\b/i.test(req.headers['content-type'] ?? ''))
      return urlEncoded(req, res, next);
    readMultipartForm(req, { ...files, fields: size.parameterLimit }).then((read) => {
      if (!read.ok) return formRefused(res, read.reason === 'too_large' ? 413 : 400, read.detail);
      req.body = read.fields;
      res.locals.formFiles = read.files;
      refuseBadText(req, res, next);
    }, next);
  };
}

export function parseForm(size: FormSize = { limit: '32kb', parameterLimit: 50 }): RequestHandler {
  const parse = express.urlencoded({
    extended: false,
    limit: size.limit,
    parameterLimit: size.parameterLimit,
    verify: verifyUtf8,
  });
  const refuseBadText = refuseBadTextInBody((res, field, message) => {
    res
      .status(400)
      .set('Cache-Control', 'no-store')
      .type('html')
      .send(
        layout({
          title: 'Form not accepted',
          robots: 'noindex',
          body: html`<h1>That form could not be accepted</h1>
            <p>The field ${field} ${message}. Nothing was changed. Go back, correct it and try again.</p>`,
        }),
      );
  });
  return (req, res, next) => runChain([parse, refuseBadText], req, res, next);
}

export interface VerifyCsrfOptions {
  /** Renders the refusal; the default is a 403 page that says what to do. */
  onFailure?: (req: Request, res: Response, reason: CsrfFailure) => void;
}

export function verifyCsrf(options: VerifyCsrfOptions = {}): RequestHandler {
  const onFailure = options.onFailure ?? sendCsrfFailure;
  return (req, res, next) => {
    const failure = checkCsrf(req, res);
    if (failure) {
      onFailure(req, res, failure);
      return;
    }
    next();
  };
}

export function sendCsrfFailure(_req: Request, res: Response, reason: CsrfFailure): void {
  const state = sessionState(res);
  const explanation =
    reason === 'cross_origin'
      ? html`<p>
          The form was sent from another site, so nothing was changed. Open this service at
          <a href="${state.origin}/dashboard">${state.origin}</a> and try again there.
        </p>`
      : html`<p>
          The page the form came from is too old, or you logged in or out in another tab. Nothing was changed:
          go back, reload the page, and send the form again.
        </p>`;
  res
    .status(403)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(
      layout({
        title: 'Form expired',
        robots: 'noindex',
        body: html`<h1>This form could not be accepted</h1>
          ${explanation}
          <p><a class="button secondary" href="/dashboard">Go to your dashboard</a></p>`,
      }),
    );
}
