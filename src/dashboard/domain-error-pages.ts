import type { ErrorRequestHandler, Response } from 'express';
import { isDomainError, type DomainError, type DomainErrorCode } from '../domain/errors';
import { domainErrorStatus } from '../http/domain-errors';
import { sendNotFound } from '../web/error-pages';

/** A route's own answer to a domain error it can explain in place: the form again, or a notice. */
export type DomainErrorAnswer = (error: DomainError, status: number) => void | Promise<void>;

const answers = new WeakMap<Response, { codes: readonly DomainErrorCode[]; answer: DomainErrorAnswer }>();

/** What the not-found page names for each code that means "not found" (`http/domain-errors.ts`). */
const NOT_FOUND_NOUNS: Partial<Record<DomainErrorCode, string>> = {
  quiz_not_found: 'quiz',
  response_not_found: 'response',
  webhook_not_found: 'webhook endpoint',
};

/**
 * A domain error a route explains in place, with the status of the error table; null for anything
 * else, which the route throws on. Routes call this in the catch around the domain call.
 */
export function domainRefusal(
  error: unknown,
  codes: readonly DomainErrorCode[],
): { error: DomainError; status: number } | null {
  if (!isDomainError(error) || !codes.includes(error.code)) return null;
  return { error, status: domainErrorStatus(error) };
}

/**
 * Called by a route before it asks the domain: should the domain throw one of `codes`, the
 * dashboard's error middleware answers with `answer` (given the code's status from the error
 * table) instead of an error page. Routes themselves only throw.
 */
export function answerDomainErrors(
  res: Response,
  codes: readonly DomainErrorCode[],
  answer: DomainErrorAnswer,
): void {
  answers.set(res, { codes, answer });
}

/**
 * The dashboard's one answer to domain errors: the route's own (`answerDomainErrors`), else the
 * not-found page for a code whose status is 404. Anything else goes on to the last-resort page.
 */
export function domainErrorPages(): ErrorRequestHandler {
  return async (error: unknown, _req, res, next) => {
    if (!isDomainError(error) || res.headersSent) return next(error);
    const status = domainErrorStatus(error);
    const own = answers.get(res);
    if (own?.codes.includes(error.code)) return own.answer(error, status);
    if (status === 404) return sendNotFound(res, NOT_FOUND_NOUNS[error.code]);
    next(error);
  };
}
