import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import type { QuizWithQuestions } from '../db/repositories';
import type { DomainDeps } from '../domain/deps';
import { isDomainError } from '../domain/errors';
import { domainErrorStatus } from '../http/domain-errors';
import { getResponseResult } from '../domain/taking/get-response-result';
import { createHash } from 'node:crypto';
import {
  loadPublishedQuiz,
  notAcceptingResponses,
  RepeatedSubmission,
  submitToQuiz,
  SubmittedToAnotherVersion,
} from '../domain/taking/submit-response';
import { clientErrorOf } from '../http/client-errors';
import { allowFraming } from '../web/security';
import type { Logger } from '../logger';
import { isAttemptRefusal } from '../domain/attempts/attempt-refusal';
import { withSampleDraws } from '../domain/attempts/attempts';
import { nowOf } from '../domain/deps';
import { answerAttemptRefusal, renderAttemptForm, takingPage } from './attempt-flow';
import { attemptIdOf } from './attempt-routes';
import type { AttemptTokens } from './attempt-token';
import { isPublicSlug, isResponseId, keptResultPath, resultPath } from './public-paths';
import { getKeptResult } from '../domain/taking/kept-result';
import { qrSvg } from '../web/qr-code';
import {
  FORGET_FIELD,
  forgetKeptLink,
  forgetToken,
  keptLinkOf,
  rememberKeptLink,
  returningNotice,
} from './kept-cookie';
import { readFormValues, toFormErrors, toSubmission, type FormValues } from './read-form-answers';
import {
  renderClosedPage,
  renderLinkRefusedPage,
  renderQuizPage,
  SUBMISSION_TOKEN_FIELD,
  TAKE_ID,
} from './render-quiz-page';
import { openPreview, refusedLinkText } from '../domain/links/quiz-links';
import { LINK_PARAM } from '../domain/links/signed-links';
import { translator, readerLanguageOf, type Translator } from './i18n';
import { NOT_FOUND_PAGE, renderMessagePageIn, renderResultPage } from './render-result-page';

/** The language of a page without a quiz (a 404, a request not read): the browser's Accept-Language. */
export function readerLanguage(res: Response): Translator {
  return translator(readerLanguageOf(res.req));
}

export function sendRespondentPage(res: Response, status: number, page: string): void {
  res.status(status).type('html').send(page);
}

/** Runs `load`; a domain "not found" becomes the 404 page. */
async function orNotFound<T>(res: Response, load: () => Promise<T>): Promise<T | undefined> {
  try {
    return await load();
  } catch (error) {
    if (isDomainError(error) && error.code === 'quiz_not_found') {
      sendRespondentPage(res, 404, NOT_FOUND_PAGE(readerLanguage(res)));
      return undefined;
    }
    throw error;
  }
}

/** GET /q/:slug: the form, the closed notice, or the 404 page (drafts, deleted and unknown look alike). */
export function showQuizPage(deps: DomainDeps, tokens: AttemptTokens): RequestHandler {
  return async (req, res) => {
    const { slug } = req.params;
    if (!isPublicSlug(slug)) return sendRespondentPage(res, 404, NOT_FOUND_PAGE(readerLanguage(res)));
    const quiz = await orNotFound(res, () => loadPublishedQuiz(deps, slug));
    if (!quiz) return;
    if (quiz.allowEmbedding) allowFraming(res);
    if (!quiz.acceptingResponses) return sendRespondentPage(res, 200, renderClosedPage(quiz));
    // Submitted from this browser before: the way back to that result, beside the quiz again.
    const kept = await keptLinkOf(deps, req, slug);
    // The intro, an attempt's form or the window's pages (attempt-flow.ts); else the plain form.
    const taking = await takingPage(deps, tokens, quiz, req.query.attempt, req.query.saved === '1', kept);
    if (taking) return sendRespondentPage(res, taking.status, taking.page);
    const tr = translator(quiz.language);
    sendRespondentPage(
      res,
      200,
      renderQuizPage(quiz, kept ? { returning: returningNotice(tr, slug, kept.secret, `#${TAKE_ID}`) } : {}),
    );
  };
}

/**
 * GET /q/:slug/preview?sig=: the page as respondents will see it, for the holder of a preview
 * link (get_quiz_links, the dashboard's Preview button); drafts too. Marked as a preview, its form
 * sends nothing, and no attempt is started: nothing is stored.
 */
export function showPreviewPage(deps: DomainDeps): RequestHandler {
  return async (req, res) => {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    const { slug } = req.params;
    if (!isPublicSlug(slug)) return sendRespondentPage(res, 404, NOT_FOUND_PAGE(readerLanguage(res)));
    const opened = await openPreview(deps, slug, req.query[LINK_PARAM]);
    if (!opened.ok) {
      const status = { malformed: 403, revoked: 403, expired: 410, not_found: 404 }[opened.reason];
      return sendRespondentPage(res, status, renderLinkRefusedPage(refusedLinkText(opened.reason)));
    }
    sendRespondentPage(res, 200, renderQuizPage(withSampleDraws(opened.quiz), { preview: true }));
  };
}

/** The form's one-time token as a repeat key (any body repeats it); none from a page without one. */
function formKeyOf(body: Record<string, unknown>) {
  const token = body[SUBMISSION_TOKEN_FIELD];
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{16,64}$/.test(token)) return undefined;
  // Apart from the JSON door's Idempotency-Key values, which share the quiz's keys.
  return { keyHash: createHash('sha256').update(`form:${token}`).digest('hex'), bodyHash: null };
}

/** POST /q/:slug: validate, score and store, then 303 to the result page (POST/redirect/GET). */
export function submitQuizForm(deps: DomainDeps, tokens: AttemptTokens, logger: Logger): RequestHandler {
  return async (req, res) => {
    const { slug } = req.params;
    if (!isPublicSlug(slug)) return sendRespondentPage(res, 404, NOT_FOUND_PAGE(readerLanguage(res)));
    if (req.body === undefined) {
      return sendRespondentPage(res, 415, renderMessagePageIn(readerLanguage(res), 'unreadable'));
    }
    const body = req.body as Record<string, unknown>;
    // What the catch below renders its pages from, once the domain hands the quiz over.
    const read: { quiz?: QuizWithQuestions; values?: FormValues; attemptId: string | null } = {
      attemptId: null,
    };
    try {
      const result = await submitToQuiz(deps, slug, (quiz) => {
        read.quiz = quiz;
        if (quiz.allowEmbedding) allowFraming(res);
        // A closed quiz answers with its closed page, whatever was sent.
        if (!quiz.acceptingResponses) throw notAcceptingResponses(quiz);
        const values = (read.values = readFormValues(quiz, body));
        read.attemptId = attemptIdOf(tokens, body.attempt_token, nowOf(deps));
        const input = toSubmission(quiz, values);
        return { input, attemptId: read.attemptId, key: formKeyOf(body), version: values.version };
      });
      logger.info(
        { requestId: res.locals.requestId, quizId: result.quiz.quiz_id, responseId: result.response_id },
        'response recorded',
      );
      // The browser keeps the way back to this result (kept-cookie.ts); the result page shows it.
      if (result.kept_result_key)
        rememberKeptLink(res, deps.baseUrl, result.quiz.slug, result.kept_result_key);
      res.redirect(303, resultPath(result.quiz.slug, result.response_id));
    } catch (error) {
      const { quiz, values, attemptId } = read;
      // The same page posted again: to the result of its first post.
      if (error instanceof RepeatedSubmission) return res.redirect(303, resultPath(slug, error.responseId));
      if (isDomainError(error) && error.code === 'quiz_not_found')
        return sendRespondentPage(res, domainErrorStatus(error), NOT_FOUND_PAGE(readerLanguage(res)));
      if (!quiz) throw error;
      if (isDomainError(error) && error.code === 'not_accepting_responses') {
        return sendRespondentPage(res, domainErrorStatus(error), renderClosedPage(quiz));
      }
      if (!values) throw error;
      // Answers were given to questions that no longer exist: storing them would score the wrong quiz.
      if (error instanceof SubmittedToAnotherVersion)
        return sendRespondentPage(res, 422, renderQuizPage(quiz, { values, changed: true }));
      if (!isDomainError(error)) throw error;
      if (isAttemptRefusal(error)) {
        const refused = await answerAttemptRefusal(deps, tokens, quiz, attemptId, values, error);
        return sendRespondentPage(res, refused.status, refused.page);
      }
      const attempt = attemptId ? await deps.repos.attempts.byId(attemptId) : null;
      if (attempt && error.code === 'invalid_input') {
        return sendRespondentPage(
          res,
          domainErrorStatus(error),
          renderAttemptForm(deps, tokens, quiz, attempt, { values, issues: error.issues }),
        );
      }
      if (error.code === 'invalid_input') {
        return sendRespondentPage(
          res,
          domainErrorStatus(error),
          renderQuizPage(quiz, { values, errors: toFormErrors(quiz, error.issues) }),
        );
      }
      throw error;
    }
  };
}

/** GET /q/:slug/r/:responseId: shows only what the quiz's settings allow (see getResponseResult). */
export function showResultPage(deps: DomainDeps): RequestHandler {
  return async (req, res) => {
    const { slug, responseId } = req.params;
    if (!isPublicSlug(slug) || !isResponseId(responseId))
      return sendRespondentPage(res, 404, NOT_FOUND_PAGE(readerLanguage(res)));
    const result = await orNotFound(res, () => getResponseResult(deps, slug, responseId));
    if (!result) return;
    if (result.quiz.allowEmbedding) allowFraming(res);
    // In the browser that submitted it, the kept link too: the way back once this tab is gone.
    const kept = await keptLinkOf(deps, req, slug);
    sendRespondentPage(
      res,
      200,
      renderResultPage(
        result,
        kept?.responseId === responseId ? { kept: await keptShown(deps, slug, kept.secret) } : {},
      ),
    );
  };
}

/** The kept link as a result page shows it: the absolute address and its QR code. */
async function keptShown(deps: DomainDeps, slug: string, secret: string) {
  const url = `${deps.baseUrl}${keptResultPath(slug, secret)}`;
  return { url, qrSvg: await qrSvg(url) };
}

/**
 * POST /q/:slug/forget: "Not you? Start fresh". Forgets this browser's kept link of the quiz and
 * goes back to it. Refused from another site, and without the token derived from the cookie's
 * secret (kept-cookie.ts), so no other page can make a browser forget its link.
 */
export function forgetKeptLinkRoute(deps: DomainDeps): RequestHandler {
  return async (req, res) => {
    const { slug } = req.params;
    if (!isPublicSlug(slug)) return sendRespondentPage(res, 404, NOT_FOUND_PAGE(readerLanguage(res)));
    const kept = await keptLinkOf(deps, req, slug);
    const sent = (req.body as Record<string, unknown> | undefined)?.[FORGET_FIELD];
    const origin = req.headers.origin;
    const crossSite =
      (origin !== undefined && origin !== 'null' && origin !== new URL(deps.baseUrl).origin) ||
      req.headers['sec-fetch-site'] === 'cross-site';
    if (crossSite || (kept && sent !== forgetToken(kept.secret))) {
      const tr = readerLanguage(res);
      return sendRespondentPage(
        res,
        403,
        renderMessagePageIn(tr, 'badRequest', { reason: tr.t('quiz.forgetRefused') }),
      );
    }
    forgetKeptLink(res, deps.baseUrl, slug);
    res.redirect(303, `/q/${slug}`);
  };
}

/**
 * GET /q/:slug/result?key=: the kept link, the same result page opened by its secret instead of the
 * response id, the final grade too once it is given. The secret is in the address, so the page is
 * never stored and never sent on as a Referer; an unknown key is the 404 page.
 */
export function showKeptResultPage(deps: DomainDeps): RequestHandler {
  return async (req, res) => {
    res.set({ 'Cache-Control': 'no-store', 'Referrer-Policy': 'no-referrer' });
    const { slug } = req.params;
    if (!isPublicSlug(slug)) return sendRespondentPage(res, 404, NOT_FOUND_PAGE(readerLanguage(res)));
    const kept = await orNotFound(res, () => getKeptResult(deps, slug, req.query.key));
    if (!kept) return;
    if (kept.result.quiz.allowEmbedding) allowFraming(res);
    sendRespondentPage(
      res,
      200,
      renderResultPage(kept.result, { kept: await keptShown(deps, slug, String(req.query.key)) }),
    );
  };
}

/** Body-parser failures and anything unexpected on these pages: an HTML page, never a stack trace. */
export function pageErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const client = clientErrorOf(error);
    if (client?.kind === 'too_large') {
      return sendRespondentPage(res, 413, renderMessagePageIn(readerLanguage(res), 'tooLarge'));
    }
    if (client) {
      return sendRespondentPage(
        res,
        client.status,
        renderMessagePageIn(readerLanguage(res), 'badRequest', { reason: client.reason }),
      );
    }
    const requestId = String(res.locals.requestId ?? '');
    logger.error({ err: error, requestId, method: req.method, path: req.path }, 'respondent page failed');
    sendRespondentPage(
      res,
      500,
      renderMessagePageIn(
        readerLanguage(res),
        'error',
        {},
        readerLanguage(res).t('page.reference', { id: requestId }),
      ),
    );
  };
}
