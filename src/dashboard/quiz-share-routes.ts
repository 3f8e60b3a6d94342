import express, { type Router } from 'express';
import { getQuizQuestions } from '../domain/quizzes/get-quiz';
import { requireOwnedQuizId } from '../domain/owned/require-owned-quiz';
import { sendNotFound } from '../web/error-pages';
import { currentSession, requireLogin } from '../web/session';
import type { DashboardContext } from './context';
import { qrPng, qrSvg } from '../web/qr-code';
import { signedLink, type OpenedOwnerLink } from './signed-link';
import { rotateLinkSecret } from '../domain/links/quiz-links';
import { parseForm, verifyCsrf } from '../web/csrf';
import { setFlash } from '../web/session-flash';

/** The QR code of a published quiz's public link, as SVG and PNG (a draft has no link, so none). */
export function quizShareRoutes({ deps }: DashboardContext): Router {
  const router = express.Router();

  // The PNG through a signed link (get_quiz_links), for whoever holds the link: no session.
  router.get('/dashboard/quizzes/:quizId/qr.png', signedLink(deps, 'qr'), async (_req, res) => {
    const { ownerId, quizId } = res.locals.signedLink as OpenedOwnerLink;
    const quiz = await getQuizQuestions(deps, ownerId, quizId);
    if (!quiz.public_url) return sendNotFound(res, 'quiz');
    res.type('image/png').send(await qrPng(quiz.public_url));
  });
  router.get('/dashboard/quizzes/:quizId/qr.:format', requireLogin(), async (req, res) => {
    const session = currentSession(res)!;
    const format = String(req.params.format);
    if (format !== 'svg' && format !== 'png') return sendNotFound(res);
    const id = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
    const quiz = await getQuizQuestions(deps, session.userId, id);
    if (!quiz.public_url) return sendNotFound(res, 'quiz');
    res.set('Cache-Control', 'private, no-cache');
    if (format === 'svg') res.type('image/svg+xml').send(await qrSvg(quiz.public_url));
    else res.type('image/png').send(await qrPng(quiz.public_url));
  });

  // Every preview, CSV and QR link made so far stops working (a link was shared too widely).
  router.post(
    '/dashboard/quizzes/:quizId/links/renew',
    requireLogin(),
    parseForm(),
    verifyCsrf(),
    async (req, res) => {
      const session = currentSession(res)!;
      const id = await requireOwnedQuizId(deps.repos, session.userId, String(req.params.quizId));
      await rotateLinkSecret(deps, session.userId, id);
      setFlash(res, {
        notice: {
          kind: 'success',
          text: 'Shared preview, CSV and QR links made before now no longer work. The public link is unchanged.',
        },
      });
      res.redirect(303, `/dashboard/quizzes/${id}`);
    },
  );

  return router;
}
