import type { Request, RequestHandler, Response } from 'express';
import type { Store } from 'express-rate-limit';
import { sendProblem } from '../http/problem';
import { addressKey, createRateLimiter, type RateLimitState } from '../http/rate-limit';
import type { AttemptTokens } from './attempt-token';
import { QUIZ_PAGE_PREFIX } from './public-paths';

/** The quiz a request goes to and the client's address. */
const addressBucket = (req: Request) => `quiz:${String(req.params.slug)}|${addressKey(req.ip)}`;

/**
 * The attempt a submission's token names (a genuine signature, expired or not), or else the
 * quiz and address. Read after the body, since the token travels in it.
 */
function attemptBucket(tokens: AttemptTokens) {
  return (req: Request): string => {
    const token = (req.body as Record<string, unknown> | undefined)?.attempt_token;
    const verified = token === undefined ? null : tokens.verify(token, Date.now());
    return verified ? `attempt:${verified.attemptId}` : addressBucket(req);
  };
}

export interface SubmissionLimitOptions {
  /** Submissions stored per minute: per attempt where one exists, else per quiz and address. */
  perMinute: number;
  /** Everything sent to one quiz from one address per minute: Start, submissions, refusals. */
  perAddressPerMinute: number;
  /** Refused submissions per minute: per attempt where one exists, else per quiz and address. */
  refusalsPerMinute: number;
  baseUrl: string;
  tokens: AttemptTokens;
  /** Shared counters by name (Redis), or per-process memory when it gives none. */
  store?: (name: string) => Store | undefined;
  /** The language of the quiz at a slug, for the page that says "too many" (English when none). */
  languageOf?: (slug: string) => Promise<string | undefined>;
  /** The page that says "too many", in a language. */
  tooManyPage: (res: Response, retryAfterSeconds: number, language: string | undefined) => void;
}

export interface SubmissionLimiters {
  /** Before the body is read, on Start and submissions: the per-address ceiling. */
  beforeBody: RequestHandler[];
  /** After the body is read, on submissions: refusals, then stored submissions. */
  afterBody: RequestHandler[];
}

/**
 * Submissions need no credential, so they are counted: one client cannot fill a quiz's results
 * with junk, nor keep the server loading the quiz for refusals. One page's refusals must not
 * lock out a class behind the same address, so refusals are counted apart from the submissions
 * that are stored, and both per attempt where the quiz is taken through one; the address has a
 * ceiling high enough for a school. Over a limit, the form gets a page in the quiz's language and
 * the API a problem body. SECURITY.md states the numbers.
 */
export function submissionLimiters(options: SubmissionLimitOptions): SubmissionLimiters {
  const { baseUrl } = options;
  const onLimited = (what: string, limit: number) => (req: Request, res: Response, state: RateLimitState) => {
    if (req.path.startsWith(QUIZ_PAGE_PREFIX)) {
      const slug = String(req.params.slug);
      void (options.languageOf?.(slug) ?? Promise.resolve(undefined))
        .catch(() => undefined)
        .then((language) => options.tooManyPage(res, state.resetSeconds, language));
      return;
    }
    sendProblem(res, baseUrl, 'rate_limited', {
      detail: `More than ${limit} ${what} to this quiz in a minute.`,
      hint: `Wait ${state.resetSeconds} seconds (Retry-After) before submitting again.`,
    });
  };
  const limiter = (
    name: string,
    max: number,
    key: (req: Request) => string,
    counts: 'all' | 'successful' | 'refused',
    what: string,
    onlyRefusals = false,
  ) =>
    createRateLimiter({
      max,
      windowSeconds: 60,
      baseUrl,
      store: options.store?.(name),
      key,
      counts,
      onlyRefusals,
      onLimited: onLimited(what, max),
    });
  const byAttempt = attemptBucket(options.tokens);
  return {
    beforeBody: [
      limiter('submissions', options.perAddressPerMinute, addressBucket, 'all', 'requests from this address'),
    ],
    afterBody: [
      limiter(
        'submission-refusals',
        options.refusalsPerMinute,
        byAttempt,
        'refused',
        'refused submissions from this attempt or address',
        // Spent, it turns away only further refusals: a valid submission is still stored.
        true,
      ),
      limiter('submissions-stored', options.perMinute, byAttempt, 'successful', 'submissions'),
    ],
  };
}
