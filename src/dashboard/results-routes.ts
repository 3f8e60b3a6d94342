import express, { type Response, type Router } from 'express';
import { getQuizQuestions, getQuizSettings } from '../domain/quizzes/get-quiz';
import { requireOwnedQuizId } from '../domain/owned/require-owned-quiz';
import { getResults } from '../domain/reporting/get-results';
import { getOwnedResponse, listResponses } from '../domain/reporting/owned-responses';
import { getResultsSummary } from '../domain/reporting/results-summary';
import { currentSession, requireLogin } from '../web/session';
import { takeFlash } from '../web/session-flash';
import type { DashboardContext } from './context';
import { domainRefusal } from './domain-error-pages';
import { itemOrderOf } from './quiz-item-analysis';
import { sendBadLink } from './quiz-routes';
import { sendResponsePage } from './response-page';
import {
  resultsPath,
  sendItemsSection,
  sendQuestionsSection,
  sendResponsesSection,
  sendSummarySection,
} from './results-pages';

/** Responses in one page of the list. */
export const RESPONSES_PAGE_SIZE = 20;

const queryString = (value: unknown): string | undefined =>
  typeof value === 'string' && value.length > 0 ? value : undefined;

/**
 * A quiz's results, one section per address (summary, questions, item analysis, responses), and
 * a page per respondent. Each section reads only what it shows; ownership is checked by exact id
 * first, so another user's quiz or response is "not found".
 */
export function resultsRoutes({ deps }: DashboardContext): Router {
  const router = express.Router();
  const owned = async (res: Response, quizId: unknown) =>
    requireOwnedQuizId(deps.repos, currentSession(res)!.userId, String(quizId));
  const zone = (res: Response) => currentSession(res)!.timeZone;

  router.get('/dashboard/quizzes/:quizId/results', requireLogin(), async (req, res) => {
    res.redirect(302, resultsPath(await owned(res, req.params.quizId), 'summary'));
  });

  /** How the quiz's texts are typeset: its math_dollars setting (web/rich-text.ts). */
  const richOf = async (userId: string, id: string) => ({
    dollars: (await getQuizSettings(deps, userId, id)).math_dollars,
  });

  router.get('/dashboard/quizzes/:quizId/results/summary', requireLogin(), async (req, res) => {
    const id = await owned(res, req.params.quizId);
    sendSummarySection(res, await getResultsSummary(deps, currentSession(res)!.userId, id), zone(res));
  });

  router.get('/dashboard/quizzes/:quizId/results/questions', requireLogin(), async (req, res) => {
    const userId = currentSession(res)!.userId;
    const id = await owned(res, req.params.quizId);
    const [questions, results, rich] = await Promise.all([
      getQuizQuestions(deps, userId, id),
      getResults(deps, userId, { ref: id, limit: 0 }),
      richOf(userId, id),
    ]);
    sendQuestionsSection(res, questions, results, rich);
  });

  router.get('/dashboard/quizzes/:quizId/results/items', requireLogin(), async (req, res) => {
    const id = await owned(res, req.params.quizId);
    const userId = currentSession(res)!.userId;
    const [questions, results, rich] = await Promise.all([
      getQuizQuestions(deps, userId, id),
      getResults(deps, userId, { ref: id, limit: 0, commonAnswers: false }),
      richOf(userId, id),
    ]);
    sendItemsSection(res, questions, results, itemOrderOf(queryString(req.query.order)), rich);
  });

  router.get('/dashboard/quizzes/:quizId/results/responses', requireLogin(), async (req, res) => {
    const cursor = queryString(req.query.after);
    const id = await owned(res, req.params.quizId);
    let listed;
    try {
      listed = await listResponses(deps, currentSession(res)!.userId, id, {
        limit: RESPONSES_PAGE_SIZE,
        cursor,
      });
    } catch (error) {
      // A cursor that is not one of ours.
      if (!domainRefusal(error, ['invalid_input'])) throw error;
      return sendBadLink(res, resultsPath(id, 'responses'));
    }
    sendResponsesSection(res, listed, { cursor, timeZone: zone(res), flash: takeFlash(req, res) });
  });

  router.get('/dashboard/quizzes/:quizId/responses/:responseId', requireLogin(), async (req, res) => {
    const id = await owned(res, req.params.quizId);
    const userId = currentSession(res)!.userId;
    const [data, rich] = await Promise.all([
      getOwnedResponse(deps, userId, id, String(req.params.responseId)),
      richOf(userId, id),
    ]);
    sendResponsePage(res, data, zone(res), rich, takeFlash(req, res));
  });

  return router;
}
