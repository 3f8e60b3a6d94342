import type { RequestHandler } from 'express';
import { z } from 'zod';
import { isAttemptRefusal, AttemptRefusal } from '../domain/attempts/attempt-refusal';
import { attemptExpiry, displayedQuestions, startAttempt } from '../domain/attempts/attempts';
import { shownParts, storedDefinition, toScorable } from '../domain/question-types';
import type { DomainDeps } from '../domain/deps';
import { isDomainError } from '../domain/errors';
import { respondentFieldsOf } from '../domain/question-types';
import { toFieldIssues } from '../domain/field-issues';
import { loadPublishedQuiz } from '../domain/taking/submit-response';
import { sendDomainProblem } from '../http/domain-errors';
import { sendProblem } from '../http/problem';
import type { Logger } from '../logger';
import type { AttemptTokens } from './attempt-token';
import { isPublicSlug } from './public-paths';

/**
 * The attempt id a submission's token names: null without a token; a malformed or forged one
 * is refused. An expired one still names its attempt, whose own checks then say the time is up.
 */
export function attemptIdOf(tokens: AttemptTokens, token: unknown, now: number): string | null {
  if (token === undefined || token === null || token === '') return null;
  const verified = tokens.verify(token, now);
  if (!verified) {
    throw new AttemptRefusal(
      'token_invalid',
      'The attempt_token is not one this service gave out, or it was changed: start a new attempt.',
    );
  }
  return verified.attemptId;
}

const StartBodySchema = z.strictObject({
  respondent: z
    .strictObject({ email: z.string({ error: 'email must be a string' }).max(1000).nullish() })
    .nullish(),
});

/** The parts a question names by the attempt's opaque ids, as lists of { <id field>, label } in the order shown. */
function opaqueFields(
  question: Parameters<typeof toScorable>[0],
  lists: Readonly<Record<string, { ids: string[]; shown: number[] }>>,
): Record<string, Array<Record<string, string>>> {
  const specs = storedDefinition(question.type).opaqueLists?.(toScorable(question)) ?? {};
  return Object.fromEntries(
    Object.entries(specs).flatMap(([name, spec]) => {
      const list = lists[name];
      if (!list) return [];
      return [[name, shownParts(list, spec).map((part) => ({ [spec.idField]: part.id, label: part.label }))]];
    }),
  );
}

/** The hints a script can act on, per refusal. */
export const ATTEMPT_HINTS: Record<AttemptRefusal['reason'], string> = {
  not_yet_open: 'Try again once the quiz opens.',
  closed: 'The quiz takes no more responses.',
  token_required: 'POST /api/quizzes/{slug}/attempts, then send its attempt_token with the answers.',
  token_invalid: 'Send the attempt_token exactly as the attempts endpoint returned it.',
  expired: 'The attempt ran out of time; a new attempt starts a new time limit.',
  already_submitted: 'Each attempt takes one submission; start another attempt.',
  limit_reached: 'This email address has used all its attempts at this quiz.',
  quiz_changed: 'Submit the answers again with the same attempt_token.',
};

/**
 * POST /api/quizzes/:slug/attempts: starts an attempt and answers its token, deadline and the
 * questions drawn, in the order to show, each option with its canonical option_index; never the key.
 */
export function startJsonAttempt(deps: DomainDeps, tokens: AttemptTokens, logger: Logger): RequestHandler {
  const { baseUrl } = deps;
  return async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const slug = String(req.params.slug);
    const sendNotFound = () =>
      sendProblem(res, baseUrl, 'not_found', {
        detail: `No published quiz has the slug "${slug}".`,
        hint: `Use the slug of the quiz's public page (${baseUrl}/q/{slug}).`,
      });
    if (!isPublicSlug(slug)) return sendNotFound();
    const body: unknown = req.body ?? {};
    const parsed = StartBodySchema.safeParse(body);
    if (!parsed.success) {
      return sendProblem(res, baseUrl, 'validation_failed', {
        detail: 'The body does not have the shape of an attempt start; see errors.',
        hint: 'Send {} or, for a quiz that limits attempts per email, { "respondent": { "email": "..." } }.',
        // The API's errors are a field and its English message; the code stays with the pages.
        errors: toFieldIssues(parsed.error, body, { whole: 'body' }).map(({ field, message }) => ({
          field,
          message,
        })),
      });
    }
    try {
      const quiz = await loadPublishedQuiz(deps, slug);
      const attempt = await startAttempt(deps, quiz, { email: parsed.data.respondent?.email });
      logger.info(
        { requestId: res.locals.requestId, quizId: quiz.id, attemptId: attempt.id },
        'attempt started',
      );
      res.status(201).json({
        attempt_token: tokens.sign(attempt.id, attemptExpiry(attempt)),
        started_at: attempt.startedAt.toISOString(),
        deadline: attempt.deadline?.toISOString() ?? null,
        submit_by: attemptExpiry(attempt).toISOString(),
        time_limit_minutes: quiz.timeLimitMinutes,
        submit_url: `${baseUrl}/api/quizzes/${quiz.slug}/responses`,
        questions: displayedQuestions(quiz, attempt).map(({ question, options, lists }) => ({
          question_id: question.id,
          type: question.type,
          text: question.text,
          ...respondentFieldsOf(question),
          ...(options.length > 0
            ? { options: options.map(({ index, option }) => ({ option_index: index, label: option.label })) }
            : {}),
          ...opaqueFields(question, lists),
        })),
      });
    } catch (error) {
      if (!isDomainError(error)) throw error;
      if (error.code === 'quiz_not_found') return sendNotFound();
      sendDomainProblem(res, baseUrl, error, {
        ...(isAttemptRefusal(error) ? { hint: ATTEMPT_HINTS[error.reason] } : {}),
        ...(error.code === 'invalid_input'
          ? { detail: 'This quiz limits attempts per email address: send respondent.email.' }
          : {}),
      });
    }
  };
}
