import type { ErrorRequestHandler } from 'express';
import { isDomainError, type DomainError, type DomainErrorCode } from '../domain/errors';
import { domainErrorStatus } from '../http/domain-errors';
import { sendNotFound } from '../web/error-pages';

/** What the not-found page names for each code that means "not found" (`http/domain-errors.ts`). */
const NOT_FOUND_NOUNS: Partial<Record<DomainErrorCode, string>> = {
  quiz_not_found: 'quiz',
  response_not_found: 'response',
  answer_not_found: 'answer',
  webhook_not_found: 'webhook endpoint',
};

/**
 * A domain error a route explains in place, with the status of the error table; null for anything
 * else, which the route throws on. Routes call this in the catch around the domain call, so the
 * answer sits where the call is.
 */
export function domainRefusal(
  error: unknown,
  codes: readonly DomainErrorCode[],
): { error: DomainError; status: number } | null {
  if (!isDomainError(error) || !codes.includes(error.code)) return null;
  return { error, status: domainErrorStatus(error) };
}

/**
 * The dashboard's answer to a domain error no route explained: the not-found page for a code
 * whose status is 404. Anything else goes on to the last-resort page.
 */
export function domainErrorPages(): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (!isDomainError(error) || res.headersSent) return next(error);
    if (domainErrorStatus(error) === 404) return sendNotFound(res, NOT_FOUND_NOUNS[error.code]);
    next(error);
  };
}
