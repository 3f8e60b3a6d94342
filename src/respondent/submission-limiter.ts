import type { Request, RequestHandler, Response } from 'express';
import type { Store } from 'express-rate-limit';
import { sendProblem } from '../http/problem';
import { createRateLimiter, rateLimitKey } from '../http/rate-limit';
import { QUIZ_PAGE_PREFIX } from './public-paths';
import { sendTooManySubmissions } from './respondent-router';

/** A submission's bucket: the quiz it goes to and the client's address. */
function submissionKey(req: Request, res: Response): string {
  return `quiz:${String(req.params.slug)}|${rateLimitKey(req, res)}`;
}

/**
 * Submissions need no credential: the quiz form and the JSON API count together, per quiz and
 * client address, so one client cannot fill a quiz's results with junk. Over the limit, the form
 * gets a page and the API a problem body. Pass it to respondentRouter as a guard.
 */
export function submissionLimiter(options: {
  perMinute: number;
  baseUrl: string;
  store?: Store;
}): RequestHandler {
  const { perMinute, baseUrl, store } = options;
  return createRateLimiter({
    max: perMinute,
    windowSeconds: 60,
    baseUrl,
    store,
    key: submissionKey,
    onLimited: (req, res, state) => {
      if (req.path.startsWith(QUIZ_PAGE_PREFIX)) sendTooManySubmissions(res, state.resetSeconds);
      else
        sendProblem(res, baseUrl, 'rate_limited', {
          detail: `More than ${perMinute} submissions to this quiz in a minute from this address.`,
          hint: `Wait ${state.resetSeconds} seconds (Retry-After) before submitting again.`,
        });
    },
  });
}
