import { displayTime } from '../domain/time-zone';
import type { Response } from 'express';
import { csrfField } from './csrf';
import { html, type Html } from './html';
import { layout } from './layout';
import { currentSession } from './session';
import type { Flash } from './session-flash';

/** The sections of the main navigation; a page names the one it belongs to. */
export type Section =
  | 'home'
  | 'dashboard'
  | 'quizzes'
  | 'api-keys'
  | 'connected-apps'
  | 'webhooks'
  | 'lti'
  | 'account'
  | 'login'
  | 'signup'
  | undefined;

export interface PageOptions {
  title: string;
  body: Html;
  section?: Section;
  status?: number;
  /** Script files under /assets/ this page needs (CSP allows no inline script). */
  scripts?: string[];
  /** A wider column, for charts and tables. */
  wide?: boolean;
  /** Where a log-in or sign-up should lead back to (the OAuth consent flow): kept by the header's links too. */
  returnTo?: string | null;
}

/** `path` with `?returnTo=...` when there is somewhere to return to. */
export function withReturnTo(path: string, returnTo: string | null | undefined): string {
  return returnTo ? `${path}?returnTo=${encodeURIComponent(returnTo)}` : path;
}

function navLink(href: string, label: string, active: boolean): Html {
  return html`<a href="${href}" ${active ? html` aria-current="page"` : ''}>${label}</a>`;
}

/** The owners' navigation, the same on every page; respondent pages (/q/...) have none. */
function navigation(res: Response, section: Section, returnTo: string | null | undefined): Html {
  const session = currentSession(res);
  if (!session) {
    return html`<nav aria-label="Main">
      <a class="brand" href="/">Quiz service</a>
      ${navLink('/', 'Home', section === 'home')} ${navLink('/en/docs/api-reference', 'API docs', false)}
      <span class="nav-account">
        ${navLink(withReturnTo('/login', returnTo), 'Log in', section === 'login')}
        ${navLink(withReturnTo('/signup', returnTo), 'Sign up', section === 'signup')}
      </span>
    </nav>`;
  }
  // On a narrow screen the links fold behind a Menu button: a <details> disclosure, so it opens
  // with the keyboard and without JavaScript. On a wide one the stylesheet shows them in one line.
  return html`<nav aria-label="Main">
    <a class="brand" href="/">Quiz service</a>
    <details class="menu">
      <summary>Menu</summary>
      <div class="menu-items">
        ${navLink('/', 'Home', section === 'home')}
        ${navLink('/dashboard', 'Dashboard', section === 'dashboard')}
        ${navLink('/dashboard/quizzes', 'Quizzes', section === 'quizzes')}
        ${navLink('/settings/security/api-keys', 'API keys', section === 'api-keys')}
        ${navLink('/settings/connected-apps', 'Connected apps', section === 'connected-apps')}
        ${navLink('/settings/webhooks', 'Webhooks', section === 'webhooks')}
        ${navLink('/settings/lti', 'LTI', section === 'lti')}
        ${navLink('/en/docs/api-reference', 'API docs', false)}
        ${navLink('/account', 'Account', section === 'account')}
        <span class="nav-account">
          <span class="nav-user" title="Logged in as ${session.email}">${session.email}</span>
          <form class="inline" method="post" action="/logout">
            ${csrfField(res)}<button type="submit" class="link">Log out</button>
          </form>
        </span>
      </div>
    </details>
  </nav>`;
}

/**
 * The header of a page that is the same for everyone and may be cached (the API reference): no
 * session, so the Dashboard link leads to the log-in page when nobody is logged in.
 */
export function publicNavigation(current: 'api-docs'): Html {
  return html`<nav aria-label="Main">
    <a class="brand" href="/">Quiz service</a>
    ${navLink('/', 'Home', false)} ${navLink('/dashboard', 'Dashboard', false)}
    ${navLink('/en/docs/api-reference', 'API docs', current === 'api-docs')}
  </nav>`;
}

/** Sends a full HTML page. Every dashboard page is personal or carries a CSRF token: never cached. */
export function sendPage(res: Response, options: PageOptions): void {
  const scripts = (options.scripts ?? []).map((name) => html`<script src="/assets/${name}" defer></script>`);
  const body = html`${options.body}${scripts}`;
  res
    .status(options.status ?? 200)
    .set('Cache-Control', 'no-store')
    .type('html')
    .send(
      layout({
        title: `${options.title} · Quiz service`,
        body,
        nav: navigation(res, options.section, options.returnTo),
        robots: 'noindex, nofollow',
        wide: options.wide ?? false,
      }),
    );
}

/** A one-time notice from the previous POST (see session-flash.ts). */
export function noticeBox(flash: Flash | null): Html {
  if (!flash?.notice) return html``;
  const role = flash.notice.kind === 'error' ? 'alert' : 'status';
  return html`<div class="notice ${flash.notice.kind}" role="${role}">${flash.notice.text}</div>`;
}

/**
 * Every time a dashboard page shows: `<time>` read on the clocks of `zone` (the account's) and
 * naming it, "26 Nov 2026, 14:05 (Europe/Paris)"; the UTC instant stays in `datetime`. The zone
 * has no default, so no page can forget it.
 */
export function formatTime(
  iso: string | Date | null | undefined,
  fallback: string | undefined,
  zone: string,
): Html {
  if (!iso) return html`<span class="muted">${fallback ?? 'Never'}</span>`;
  const at = typeof iso === 'string' ? new Date(iso) : iso;
  return html`<time datetime="${at.toISOString()}">${displayTime(at, zone)}</time>`;
}

/** The zone the logged-in owner reads times in. */
export function readerZone(res: Response): string {
  return currentSession(res)?.timeZone ?? 'UTC';
}

/** `1 quiz`, `2 quizzes`. */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

export function formatNumber(value: number | null | undefined, suffix = ''): string {
  if (value === null || value === undefined) return '–';
  return `${Math.round(value * 100) / 100}${suffix}`;
}
