import { baseUrlFor } from '../http/loopback-origin';
import { randomBytes } from 'node:crypto';
import type { Request, RequestHandler, Response } from 'express';
import type { Repositories } from '../db/repositories';
import {
  createSession,
  deleteSession,
  findSession,
  SESSION_IDLE_MS,
  touchSession,
  type SessionRecord,
} from '../domain/sessions';
import {
  cookieOptions,
  cookieSettings,
  readCookie,
  sessionKeys,
  type CookieSettings,
  type SessionKeys,
} from './session-cookies';

/**
 * Dashboard sessions for HTML pages (the dashboard, and the OAuth consent page).
 *
 *   router.get('/page', loadSession({ repos, config }), requireLogin(), handler)
 *   currentSession(res)  -> { userId, email, csrfToken, ... } | null
 *
 * The cookie holds a random token; the database holds its SHA-256 (src/domain/sessions.ts).
 * Cookie: HttpOnly (no script can read it), SameSite=Lax (not sent on cross-site POSTs),
 * Path=/, Secure and `__Host-` over https.
 */
export interface LoadSessionOptions {
  repos: Repositories;
  config: { baseUrl: string; sessionSecret: string | undefined };
}

export interface WebSessionState {
  repos: Repositories;
  session: SessionRecord | null;
  /** The raw cookie token of `session` (needed to refresh the cookie and to log out). */
  token: string | null;
  /** Nonce of the pre-session CSRF cookie, when the browser has one. */
  csrfNonce: string | null;
  keys: SessionKeys;
  cookies: CookieSettings;
  /** The service's own origin: the only Origin accepted on form posts. */
  origin: string;
}

const STATE = 'webSession';

/** The request's session state; throws when loadSession() did not run first (a wiring bug). */
export function sessionState(res: Response): WebSessionState {
  const state = res.locals[STATE] as WebSessionState | undefined;
  if (!state) throw new Error('loadSession() must run before this handler');
  return state;
}

export function currentSession(res: Response): SessionRecord | null {
  return (res.locals[STATE] as WebSessionState | undefined)?.session ?? null;
}

/** Reads the session cookie and sets currentSession(res); never redirects by itself. */
export function loadSession({ repos, config }: LoadSessionOptions): RequestHandler {
  const cookies = cookieSettings(config.baseUrl);
  const keys = sessionKeys(config.sessionSecret);
  const baseOrigin = new URL(config.baseUrl).origin;
  return (req, res, next) => {
    // The origin forms are posted from: BASE_URL's, or the loopback name the browser used.
    const base = baseUrlFor(req, config.baseUrl);
    const origin = base === config.baseUrl ? baseOrigin : new URL(base).origin;
    if (res.locals[STATE]) {
      next(); // already loaded by an outer router
      return;
    }
    const token = readCookie(req, cookies.names.session) ?? null;
    const csrfNonce = readCookie(req, cookies.names.csrf) ?? null;
    const state: WebSessionState = { repos, session: null, token: null, csrfNonce, keys, cookies, origin };
    res.locals[STATE] = state;
    if (!token) {
      next();
      return;
    }
    (async () => {
      const session = await findSession(repos, token);
      if (!session) {
        res.clearCookie(cookies.names.session, cookieOptions(cookies));
        return;
      }
      state.session = session;
      state.token = token;
      const expiresAt = await touchSession(repos, session);
      if (expiresAt) {
        res.cookie(cookies.names.session, token, cookieOptions(cookies, expiresAt.getTime() - Date.now()));
      }
    })().then(() => next(), next);
  };
}

/**
 * Only a path on this origin may be a login's destination. The rule judges the path, in the form
 * a browser will resolve it: no scheme or host (`https://x`, `//x`), no backslash (browsers read
 * `\` as `/`), no encoded slash, backslash or dot (`/%2f%2fx`, `/%2e%2e/`), no control
 * character or white space (URL parsers drop tabs and newlines: `/\t/x` is `//x`), and once its
 * dot segments are resolved it must still start with exactly one `/` (`/.//x` resolves to `//x`).
 * The query and fragment are kept byte for byte: the OAuth consent flow returns through them.
 * Returns null for anything else.
 */
const PATH_CHARACTERS = /^\/[A-Za-z0-9\-._~!$&'()*+,;=:@/%]*$/;
const ENCODED_SEPARATOR_OR_CONTROL = /%(?:2f|5c|2e|[01][0-9a-f]|7f)/i;

export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0020\u007f\\]/.test(value)) return null;
  const cut = value.search(/[?#]/);
  const path = cut === -1 ? value : value.slice(0, cut);
  const rest = cut === -1 ? '' : value.slice(cut);
  if (!PATH_CHARACTERS.test(path) || path.startsWith('//') || ENCODED_SEPARATOR_OR_CONTROL.test(path))
    return null;
  const resolved = new URL(path, 'http://local.invalid').pathname;
  if (!resolved.startsWith('/') || resolved.startsWith('//')) return null;
  // A login that "returns" to the login or logout form is a loop, not a destination.
  if (/^\/(login|logout|signup)(\/|$)/.test(resolved)) return null;
  return resolved + rest;
}

export function loginUrl(returnTo: string | null): string {
  return returnTo ? `/login?returnTo=${encodeURIComponent(returnTo)}` : '/login';
}

export interface RequireLoginOptions {
  /** Where to come back to after logging in; default: this request's path and query (GET only). */
  returnTo?: (req: Request) => string | null;
}

/**
 * Lets logged-in requests through (marked Cache-Control: no-store, since the page is
 * personal); sends anyone else to /login with a returnTo, 303 so a POST becomes a GET.
 */
export function requireLogin(options: RequireLoginOptions = {}): RequestHandler {
  return (req, res, next) => {
    if (sessionState(res).session) {
      res.set('Cache-Control', 'no-store');
      next();
      return;
    }
    const wanted = options.returnTo
      ? options.returnTo(req)
      : req.method === 'GET' || req.method === 'HEAD'
        ? req.originalUrl
        : null;
    res.set('Cache-Control', 'no-store').redirect(303, loginUrl(safeReturnTo(wanted)));
  };
}

/**
 * Logs a user in: a fresh session id and CSRF token every time (no session fixation:
 * whatever id the browser had before is dropped), and the pre-session CSRF cookie goes.
 */
export async function startSession(res: Response, userId: string): Promise<SessionRecord> {
  const state = sessionState(res);
  if (state.token) await deleteSession(state.repos, state.token);
  const { token, session } = await createSession(state.repos, userId);
  state.session = session;
  state.token = token;
  res.cookie(state.cookies.names.session, token, cookieOptions(state.cookies, SESSION_IDLE_MS));
  res.clearCookie(state.cookies.names.csrf, cookieOptions(state.cookies));
  state.csrfNonce = null;
  return session;
}

/** Logs out: the row is deleted, so the cookie is worthless even if a copy survives. */
export async function endSession(res: Response): Promise<void> {
  const state = sessionState(res);
  if (state.token) await deleteSession(state.repos, state.token);
  state.session = null;
  state.token = null;
  res.clearCookie(state.cookies.names.session, cookieOptions(state.cookies));
}

/** A new pre-session CSRF nonce (login and sign-up forms have no session yet). */
export function ensureCsrfNonce(res: Response): string {
  const state = sessionState(res);
  if (!state.csrfNonce) {
    state.csrfNonce = randomBytes(32).toString('base64url');
    res.cookie(state.cookies.names.csrf, state.csrfNonce, cookieOptions(state.cookies, 24 * 60 * 60 * 1000));
  }
  return state.csrfNonce;
}
