import { createHash } from 'node:crypto';
import express, { type Router } from 'express';
import { nowOf } from '../domain/deps';
import { isDomainError } from '../domain/errors';
import { openOwnerLink, refusedLinkText } from '../domain/links/quiz-links';
import { LINK_PARAM } from '../domain/links/signed-links';
import { storeUpload, UPLOAD_BYTES_MAX, UPLOAD_LIFETIME_MS } from '../domain/uploads/uploads';
import { readFileBody } from '../http/file-body';
import { sendProblem } from '../http/problem';
import { addressKey } from '../http/rate-limit';
import type { DashboardContext } from './context';
import { signedLinkHeaders } from './signed-link';

const MB = 1024 * 1024;
const megabytes = (bytes: number) => `${Math.round((bytes / MB) * 10) / 10} MB`;

/**
 * The upload link of get_quiz_links: one POST of a file, without a session or a bearer token,
 * stored for the quiz's owner; it answers `{upload_id}` for import_questions. Answers are
 * problem documents (JSON), since a script or an assistant's tool sends the file, not a page.
 *
 * Since a link needs no credential, what it stores is bounded: files per address and minute
 * (429 with Retry-After), files and bytes per link (429, 413), and the bytes of the owner's
 * kept uploads (413). A refused file is not stored.
 */
export function uploadRoutes({ config, deps, limiters }: DashboardContext): Router {
  const router = express.Router();
  const base = config.baseUrl;
  const bounds = config.limits.uploads;

  router.post('/dashboard/quizzes/:quizId/upload', async (req, res) => {
    signedLinkHeaders(res);
    const wait = await limiters.uploadAddress.consume(`upload:${addressKey(req.ip)}`);
    if (wait > 0) {
      req.resume();
      res.set('Retry-After', String(wait));
      return sendProblem(res, base, 'rate_limited', {
        detail: `More than ${bounds.perAddressPerMinute} files were sent to upload links from this address in a minute; nothing was stored.`,
        hint: `Wait ${wait} seconds (Retry-After), then send the file again.`,
      });
    }
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
    const size = body.file.bytes.byteLength;
    const kept = await deps.repos.uploads.keptBytes(opened.ownerId, new Date(nowOf(deps)));
    if (kept + size > bounds.accountBytes) {
      return sendProblem(res, base, 'payload_too_large', {
        detail: `This account already keeps ${megabytes(kept)} of uploads, and keeps at most ${megabytes(bounds.accountBytes)}; this file (${megabytes(size)}) was not stored.`,
        hint: `Import the files already sent (import_questions with their upload_id); each upload is removed ${UPLOAD_LIFETIME_MS / 3_600_000} hours after it was sent, which makes room again.`,
      });
    }
    // The signature names the link: every link made is a budget of its own.
    const link = createHash('sha256').update(String(req.query[LINK_PARAM])).digest('base64url');
    const taken = await limiters.uploadLink.take(link, size);
    if (!taken.ok) {
      const newLink = 'Ask for a new upload link (get_quiz_links) and send the rest through it.';
      return taken.bound === 'files'
        ? sendProblem(res, base, 'rate_limited', {
            detail: `This upload link has already taken ${taken.files} files, the most one link takes; this file was not stored.`,
            hint: newLink,
          })
        : sendProblem(res, base, 'payload_too_large', {
            detail: `This upload link has already taken ${megabytes(taken.bytes)}, and takes at most ${megabytes(bounds.linkBytes)}; this file (${megabytes(size)}) was not stored.`,
            hint: newLink,
          });
    }
    try {
      const stored = await storeUpload(deps, opened.ownerId, body.file);
      res.status(201).json(stored);
    } catch (error) {
      await limiters.uploadLink.giveBack(link, size);
      if (!isDomainError(error) || error.code !== 'invalid_input') throw error;
      const issues = error.issues.map((issue) => `${issue.field} ${issue.message}`).join('; ');
      sendProblem(res, base, 'bad_request', { detail: `${error.message}: ${issues}.` });
    }
  });

  return router;
}
