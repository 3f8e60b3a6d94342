import express, { Router, type RequestHandler, type Response } from 'express';
import type { DomainDeps } from '../domain/deps';
import { LIMITS } from '../domain/quiz-input';
import { sendProblem } from '../http/problem';
import type { Logger } from '../logger';
import { pageSecurity } from '../web/security';
import { refuseBadTextInBody, verifyUtf8 } from '../http/text-guard';
import {
  pageErrors,
  readerLanguage,
  sendRespondentPage,
  showPreviewPage,
  showQuizPage,
  forgetKeptLinkRoute,
  showKeptResultPage,
  showResultPage,
  submitQuizForm,
} from './quiz-page-routes';
import { renderMessagePageIn } from './render-result-page';
import { jsonBodyErrors, submitJsonResponse } from './submit-json-response';
import { startJsonAttempt } from './attempt-routes';
import { startAttemptFromPage } from './attempt-flow';
import type { AttemptTokens } from './attempt-token';
import { translator } from './i18n';
import { IMAGE_ROUTE, serveImage } from './image-routes';
import { saveFromPage } from './save-routes';

export interface RespondentRouterOptions {
  deps: DomainDeps;
  logger: Logger;
  /** Largest request body read, for the form and the JSON route alike. */
  maxBodyBytes: number;
  /** Run before Start and either submission route (form or JSON) read the body: the address's ceiling. */
  guards?: RequestHandler[];
  /** Run on either submission route once the body is read (the attempt token is in it). */
  bodyGuards?: RequestHandler[];
  /** Signs and checks attempt tokens (attempt-token.ts). */
  tokens: AttemptTokens;
  /** The saves' own budget (save-routes.ts), before and after the body is read; never the submissions'. */
  saveGuards?: { beforeBody: RequestHandler[]; afterBody: RequestHandler[] };
}

// A page that holds someone's answers or score must not be kept by the browser or a shared cache:
// going back shows a fresh form, and a result page is not served to the next user of a kiosk.
const noStore: RequestHandler = (_req, res, next) => {
  res.set('Cache-Control', 'no-store');
  next();
};

/**
 * The answer of the quiz form to a client over its submission limit: a page in the quiz's
 * language (the browser's when the quiz is not known), with Retry-After set.
 */
export function sendTooManySubmissions(res: Response, retryAfterSeconds: number, language?: string): void {
  sendRespondentPage(
    res,
    429,
    renderMessagePageIn(language ? translator(language) : readerLanguage(res), 'tooMany', {
      seconds: retryAfterSeconds,
    }),
  );
}

/**
 * The respondent side: the public quiz page and its form, the result
 * page, and the JSON submission API. No credentials anywhere: the slug names a published quiz.
 */
export function respondentRouter(options: RespondentRouterOptions): Router {
  const { deps, logger, maxBodyBytes, guards = [], bodyGuards = [], tokens } = options;
  const saveGuards = options.saveGuards ?? { beforeBody: [], afterBody: [] };
  const router = Router();
  const page = [pageSecurity({ https: deps.baseUrl.startsWith('https:') }), noStore];
  // One field per question (a checkbox group: its marker and every box) plus name, email and
  // version: more is not a form this service rendered.
  const form = express.urlencoded({
    extended: false,
    limit: maxBodyBytes,
    parameterLimit: LIMITS.questionsMax * (LIMITS.optionsMax + 1) + 20,
    verify: verifyUtf8,
  });
  const json = express.json({ limit: maxBodyBytes, verify: verifyUtf8 });

  router.get(IMAGE_ROUTE, serveImage(deps));
  router.get('/q/:slug', ...page, showQuizPage(deps, tokens));
  router.get('/q/:slug/preview', ...page, showPreviewPage(deps));
  const formWithGoodText = refuseBadTextInBody((res, field, message) =>
    sendRespondentPage(
      res,
      400,
      renderMessagePageIn(readerLanguage(res), 'notAccepted', { field, problem: message }),
    ),
  );
  router.post(
    '/q/:slug',
    ...page,
    ...guards,
    form,
    ...bodyGuards,
    formWithGoodText,
    submitQuizForm(deps, tokens, logger),
  );
  router.post(
    '/q/:slug/start',
    ...page,
    ...guards,
    form,
    formWithGoodText,
    startAttemptFromPage(deps, tokens, logger),
  );
  router.post(
    '/q/:slug/save',
    ...page,
    ...saveGuards.beforeBody,
    form,
    ...saveGuards.afterBody,
    formWithGoodText,
    saveFromPage(deps, tokens),
  );
  router.post('/q/:slug/forget', ...page, form, forgetKeptLinkRoute(deps));
  router.get('/q/:slug/r/:responseId', ...page, showResultPage(deps));
  router.get('/q/:slug/result', ...page, showKeptResultPage(deps));
  // Errors on the pages above (body too large, a failed query) answer as HTML pages too.
  router.use('/q', pageErrors(logger));

  const api = '/api/quizzes/:slug/responses';
  const jsonWithGoodText = refuseBadTextInBody((res, field, message) =>
    sendProblem(res, deps.baseUrl, 'validation_failed', {
      detail: 'Some fields are not valid; see errors.',
      hint: 'Correct the text of the field named in errors.',
      errors: [{ field, message }],
    }),
  );
  router.post(
    api,
    ...guards,
    json,
    ...bodyGuards,
    jsonWithGoodText,
    submitJsonResponse(deps, tokens, logger),
    jsonBodyErrors(deps, maxBodyBytes),
  );
  // Starting an attempt counts under the address's ceiling (each start writes a row), not against
  // the submissions stored: a class behind one address starts together.
  const attempts = '/api/quizzes/:slug/attempts';
  router.post(
    attempts,
    ...guards,
    json,
    jsonWithGoodText,
    startJsonAttempt(deps, tokens, logger),
    jsonBodyErrors(deps, maxBodyBytes),
  );
  router.all(attempts, (_req, res) => {
    res.set('Allow', 'POST');
    sendProblem(res, deps.baseUrl, 'method_not_allowed', {
      detail: 'This endpoint takes POST only: it starts an attempt.',
      hint: 'POST {} (or { "respondent": { "email" } } when the quiz limits attempts per email).',
    });
  });
  router.all(api, (_req, res) => {
    res.set('Allow', 'POST');
    sendProblem(res, deps.baseUrl, 'method_not_allowed', {
      detail: 'This endpoint takes POST only: it records a submission.',
      hint: 'POST a JSON body { "respondent": {...}, "answers": [...] }; quiz owners read results with get_results.',
    });
  });
  return router;
}
