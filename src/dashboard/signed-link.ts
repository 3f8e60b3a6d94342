import type { RequestHandler, Response } from 'express';
import type { DomainDeps } from '../domain/deps';
import { openOwnerLink, refusedLinkText, type RefusedLink } from '../domain/links/quiz-links';
import { LINK_PARAM } from '../domain/links/signed-links';
import { html } from '../web/html';
import { sendPage } from '../web/page-shell';

/** What `signedLink` leaves in res.locals.signedLink for the route behind it. */
export interface OpenedOwnerLink {
  ownerId: string;
  quizId: string;
}

/** Every answer to a signed link: not kept by any cache, and its address never sent on as a Referer. */
export function signedLinkHeaders(res: Response): void {
  res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
}

const STATUS: Record<RefusedLink['reason'], number> = {
  malformed: 403,
  revoked: 403,
  expired: 410,
  not_found: 404,
};

export function sendRefusedLink(res: Response, reason: RefusedLink['reason']): void {
  sendPage(res, {
    title: 'Link not valid',
    status: STATUS[reason],
    body: html`<h1>This link does not work</h1>
      <p>${refusedLinkText(reason)}</p>`,
  });
}

/**
 * A route that a signed link (get_quiz_links) may open without a session: with `sig` in the
 * query the link decides, and the route behind runs as the quiz's owner; without it the request
 * goes on to the logged-in route of the same path.
 */
export function signedLink(
  deps: DomainDeps,
  purpose: 'csv' | 'qr' | 'moodle_xml' | 'gift' | 'qti',
): RequestHandler {
  return async (req, res, next) => {
    const sig = req.query[LINK_PARAM];
    if (sig === undefined) return next('route');
    signedLinkHeaders(res);
    const quizId = String(req.params.quizId);
    const opened = await openOwnerLink(deps, quizId, purpose, sig);
    if (!opened.ok) return sendRefusedLink(res, opened.reason);
    res.locals.signedLink = { ownerId: opened.ownerId, quizId } satisfies OpenedOwnerLink;
    next();
  };
}
