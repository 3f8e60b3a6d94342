import express, { type Router } from 'express';
import { isDomainError } from '../domain/errors';
import { openOwnerLink, refusedLinkText } from '../domain/links/quiz-links';
import { LINK_PARAM } from '../domain/links/signed-links';
import { storeUpload, UPLOAD_BYTES_MAX } from '../domain/uploads/uploads';
import { readFileBody } from '../http/file-body';
import { sendProblem } from '../http/problem';
import type { DashboardContext } from './context';
import { signedLinkHeaders } from './signed-link';

/**
 * The upload link of get_quiz_links: one POST of a file, without a session or a bearer token,
 * stored for the quiz's owner; it answers `{upload_id}` for import_questions. Answers are
 * problem documents (JSON), since a script or an assistant's tool sends the file, not a page.
 */
export function uploadRoutes({ config, deps }: DashboardContext): Router {
  const router = express.Router();
  const base = config.baseUrl;

  router.post('/dashboard/quizzes/:quizId/upload', async (req, res) => {
    signedLinkHeaders(res);
    const opened = await openOwnerLink(deps, String(req.params.quizId), 'upload', req.query[LINK_PARAM]);
    if (!opened.ok) {
      req.resume();
      return sendProblem(res, base, opened.reason === 'not_found' ? 'not_found' : 'link_refused', {
        detail: refusedLinkText(opened.reason),
      });
    }
    const body = await readFileBody(req, UPLOAD_BYTES_MAX);
    if (!body.ok) {
      return sendProblem(res, base, body.reason === 'too_large' ? 'payload_too_large' : 'bad_request', {
        detail: body.detail,
      });
    }
    try {
      const stored = await storeUpload(deps, opened.ownerId, body.file);
      res.status(201).json(stored);
    } catch (error) {
      if (!isDomainError(error) || error.code !== 'invalid_input') throw error;
      const issues = error.issues.map((issue) => `${issue.field} ${issue.message}`).join('; ');
      sendProblem(res, base, 'bad_request', { detail: `${error.message}: ${issues}.` });
    }
  });

  return router;
}
