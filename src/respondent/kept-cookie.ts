import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import type { DomainDeps } from '../domain/deps';
import { isKeptResultSecret, keptResultHash } from '../domain/taking/kept-result';
import { html, type Html } from '../web/html';
import { readCookie } from '../web/session-cookies';
import type { Translator } from './i18n';
import { keptResultPath, QUIZ_PAGE_PREFIX } from './public-paths';

/**
 * The browser remembers the kept link alone: a cookie scoped to the quiz's pages holding the
 * kept link's secret, no answers and no name, so reopening the quiz offers the way back to the
 * result. HttpOnly and SameSite=Lax; over https Secure, with the `__Secure-` prefix (`__Host-`
 * would need Path=/).
 */
const KEPT_COOKIE_DAYS = 90;

const cookieName = (baseUrl: string) =>
  baseUrl.startsWith('https:') ? '__Secure-quiz_result' : 'quiz_result';

const cookieOptions = (baseUrl: string, slug: string) => ({
  httpOnly: true,
  sameSite: 'lax' as const,
  secure: baseUrl.startsWith('https:'),
  path: `${QUIZ_PAGE_PREFIX}${slug}`,
});

export function rememberKeptLink(res: Response, baseUrl: string, slug: string, secret: string): void {
  res.cookie(cookieName(baseUrl), secret, {
    ...cookieOptions(baseUrl, slug),
    maxAge: KEPT_COOKIE_DAYS * 24 * 60 * 60 * 1000,
  });
}

export function forgetKeptLink(res: Response, baseUrl: string, slug: string): void {
  res.clearCookie(cookieName(baseUrl), cookieOptions(baseUrl, slug));
}

/** A kept link a browser holds, and the response it opens. */
export interface KeptLink {
  secret: string;
  responseId: string;
}

/** The kept link this browser holds for the quiz at `slug`, when it still opens a response there. */
export async function keptLinkOf(deps: DomainDeps, req: Request, slug: string): Promise<KeptLink | null> {
  const secret = readCookie(req, cookieName(deps.baseUrl));
  if (!isKeptResultSecret(secret)) return null;
  const responseId = await deps.repos.responses.idByResultKey(slug, keptResultHash(secret));
  return responseId ? { secret, responseId } : null;
}

/**
 * The "Not you? Start fresh" form's token: derived from the cookie's secret, which another site
 * cannot read, so a cross-site post cannot make a browser forget its link (double submit).
 */
export const forgetToken = (secret: string): string =>
  createHash('sha256').update(`forget:${secret}`, 'utf8').digest('base64url');

export const FORGET_FIELD = 'forget_token';

/**
 * Atop the quiz page, in a browser that has submitted it: the way to the result, the quiz below
 * to take again, and a button that forgets the link (a shared computer's next student).
 */
export function returningNotice(
  tr: Translator,
  slug: string,
  secret: string,
  takeAgain: string | null,
): Html {
  return html`<section class="notice returning" aria-labelledby="returning-title">
    <p id="returning-title">${tr.t('quiz.returningText')}</p>
    <p class="returning-actions">
      <a class="button" href="${keptResultPath(slug, secret)}">${tr.t('quiz.seeYourResult')}</a>
      ${takeAgain ? html`<a href="${takeAgain}">${tr.t('quiz.takeAgain')}</a>` : ''}
    </p>
    <form method="post" action="${QUIZ_PAGE_PREFIX}${slug}/forget" class="forget-form">
      <input type="hidden" name="${FORGET_FIELD}" value="${forgetToken(secret)}" />
      <button type="submit" class="secondary">${tr.t('quiz.startFresh')}</button>
    </form>
  </section>`;
}
