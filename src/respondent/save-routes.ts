import type { Request, RequestHandler } from 'express';
import { isAttemptRefusal } from '../domain/attempts/attempt-refusal';
import { saveAnswers } from '../domain/taking/saved-answers';
import { nowOf, type DomainDeps } from '../domain/deps';
import { isDomainError } from '../domain/errors';
import { loadPublishedQuiz } from '../domain/taking/submit-response';
import { sendProblem } from '../http/problem';
import { addressKey, createRateLimiter } from '../http/rate-limit';
import type { Store } from 'express-rate-limit';
import { allowFraming } from '../web/security';
import { attemptIdOf } from './attempt-routes';
import type { AttemptTokens } from './attempt-token';
import { isPublicSlug } from './public-paths';
import { readFormValues } from './read-form-answers';

/** The place a no-script Save returns to: a question's anchor as the form renders it. */
const PLACE = /^[A-Za-z0-9_-]{1,80}$/;

/**
 * POST /q/:slug/save: keeps the form's answers on the attempt (domain/taking/saved-answers.ts).
 * The page's script posts here as the student types (204); the Save button of a page without
 * script posts the whole form with `save_place` and is sent back to the same question (303).
 */
export function saveFromPage(deps: DomainDeps, tokens: AttemptTokens): RequestHandler {
  return async (req, res) => {
    const slug = String(req.params.slug);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const place = typeof body.save_place === 'string' && PLACE.test(body.save_place) ? body.save_place : '';
    const byScript = body.save_place === undefined;
    const refuse = (status: number, detail: string) =>
      byScript
        ? sendProblem(res, deps.baseUrl, status === 404 ? 'not_found' : 'conflict', {
            detail,
            hint: 'Reload the page.',
          })
        : res.redirect(
            303,
            `/q/${slug}${typeof body.attempt_token === 'string' ? `?attempt=${encodeURIComponent(body.attempt_token)}` : ''}`,
          );
    if (!isPublicSlug(slug)) return refuse(404, 'No published quiz here.');
    try {
      const quiz = await loadPublishedQuiz(deps, slug);
      if (quiz.allowEmbedding) allowFraming(res);
      const attemptId = attemptIdOf(tokens, body.attempt_token, nowOf(deps));
      if (!attemptId) return refuse(409, 'Only an attempt keeps its answers on the server.');
      const values = readFormValues(quiz, body);
      const at = await saveAnswers(deps, quiz, attemptId, {
        name: values.name,
        email: values.email,
        answers: Object.fromEntries(values.answers),
      });
      if (byScript) return res.status(200).json({ saved_at: at.toISOString() });
      res.redirect(
        303,
        `/q/${quiz.slug}?attempt=${encodeURIComponent(String(body.attempt_token))}&saved=1${place ? `#${place}` : ''}`,
      );
    } catch (error) {
      if (!isDomainError(error)) throw error;
      if (error.code === 'quiz_not_found') return refuse(404, 'No published quiz here.');
      if (isAttemptRefusal(error)) return refuse(409, error.message);
      throw error;
    }
  };
}

export interface SaveLimitOptions {
  /** Saves per quiz and address per minute: a class behind one address saving every few seconds. */
  perAddressPerMinute: number;
  /** Saves per attempt per minute. */
  perAttemptPerMinute: number;
  baseUrl: string;
  tokens: AttemptTokens;
  store?: (name: string) => Store | undefined;
}

/**
 * Saves have their own budget, counted apart from submissions (submission-limiter.ts): a save
 * never spends what a submission needs. A refused save is a 429 the page's script retries after
 * Retry-After, the answers kept on the page meanwhile.
 */
export function saveLimiters(options: SaveLimitOptions): {
  beforeBody: RequestHandler[];
  afterBody: RequestHandler[];
} {
  const byAddress = (req: Request) => `quiz:${String(req.params.slug)}|${addressKey(req.ip)}`;
  const byAttempt = (req: Request) => {
    const token = (req.body as Record<string, unknown> | undefined)?.attempt_token;
    const verified = token === undefined ? null : options.tokens.verify(token, Date.now());
    return verified ? `attempt:${verified.attemptId}` : byAddress(req);
  };
  const limiter = (name: string, max: number, key: (req: Request) => string) =>
    createRateLimiter({
      max,
      windowSeconds: 60,
      baseUrl: options.baseUrl,
      store: options.store?.(name),
      key,
      counts: 'all',
      onLimited: (_req, res, state) =>
        sendProblem(res, options.baseUrl, 'rate_limited', {
          detail: `More than ${max} saves in a minute.`,
          hint: `Wait ${state.resetSeconds} seconds (Retry-After); the answers stay on the page.`,
        }),
    });
  return {
    beforeBody: [limiter('saves', options.perAddressPerMinute, byAddress)],
    afterBody: [limiter('saves-per-attempt', options.perAttemptPerMinute, byAttempt)],
  };
}
