import type { ErrorRequestHandler, RequestHandler, Response } from 'express';
import { z } from 'zod';
import type { DomainDeps } from '../domain/deps';
import { isDomainError, type DomainError } from '../domain/errors';
import { toFieldIssues } from '../domain/field-issues';
import { ANSWER_FIELD_SPECS } from '../domain/question-types';
import { LIMITS } from '../domain/quiz-input';
import { createHash } from 'node:crypto';
import { RepeatedSubmission, submitToQuiz } from '../domain/taking/submit-response';
import { clientErrorOf } from '../http/client-errors';
import { sendDomainProblem } from '../http/domain-errors';
import { sendProblem } from '../http/problem';
import type { Logger } from '../logger';
import { isAttemptRefusal } from '../domain/attempts/attempt-refusal';
import { nowOf } from '../domain/deps';
import { ATTEMPT_HINTS, attemptIdOf } from './attempt-routes';
import type { AttemptTokens } from './attempt-token';
import { isPublicSlug, keptResultPath, resultPath } from './public-paths';

/**
 * POST /api/quizzes/:slug/responses: the JSON door to the same submission the form makes.
 * No credential (respondents are anonymous); strict schema, problem+json for every error.
 */
/** The answer's fields, one per question type (its module's `answerField`); an answer gives exactly one. */
const ANSWER_FIELDS = ANSWER_FIELD_SPECS;

const AnswerSchema = z
  .strictObject({
    question_id: z
      .string({ error: 'question_id must be a string: a question_id from get_quiz_questions' })
      .min(1, { error: 'question_id must not be empty' })
      .max(100, { error: 'question_id is too long' }),
    ...Object.fromEntries(ANSWER_FIELDS.map((field) => [field.name, field.schema.optional()])),
  })
  .refine(
    (value) =>
      ANSWER_FIELDS.filter((field) => (value as Record<string, unknown>)[field.name] !== undefined).length ===
      1,
    {
      error: `give exactly one of ${ANSWER_FIELDS.slice(0, -1)
        .map((field) => field.help)
        .join(', ')} or ${ANSWER_FIELDS.at(-1)!.help}`,
    },
  );

const FIELD_NAMES = ANSWER_FIELDS.map((field) => field.name);

export const SubmissionBodySchema = z.strictObject({
  attempt_token: z
    .string({ error: 'attempt_token must be a string: the one POST .../attempts returned' })
    .max(200, { error: 'attempt_token is too long: send it as the attempts endpoint returned it' })
    .optional(),
  respondent: z
    .strictObject({
      name: z.string({ error: 'name must be a string' }).nullish(),
      email: z.string({ error: 'email must be a string' }).nullish(),
    })
    .nullish(),
  answers: z
    .array(AnswerSchema, {
      error: `answers must be an array of { question_id, ${FIELD_NAMES.join(' | ')} }`,
    })
    .max(LIMITS.questionsMax, {
      error: `answers takes at most ${LIMITS.questionsMax} entries: one per question`,
    }),
});

/** The longest Idempotency-Key taken (as the IETF draft's examples bound it). */
export const IDEMPOTENCY_KEY_MAX = 255;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * The Idempotency-Key header as a repeat key, hashed with the body it came with; undefined when
 * absent; a string saying what is wrong when it cannot be a key.
 */
function idempotencyKeyOf(header: string | undefined, body: unknown) {
  if (header === undefined) return undefined;
  // The draft sends it as a structured-field string: "…"; a bare token is taken as it is.
  const key = /^"(.*)"$/.exec(header)?.[1] ?? header;
  if (key.length === 0 || key.length > IDEMPOTENCY_KEY_MAX || !/^[\x21-\x7e]+$/.test(key)) {
    return `Idempotency-Key must be 1 to ${IDEMPOTENCY_KEY_MAX} printable ASCII characters without spaces, such as a UUID.`;
  }
  return { keyHash: sha256(key), bodyHash: sha256(JSON.stringify(body)) };
}

export function submitJsonResponse(deps: DomainDeps, tokens: AttemptTokens, logger: Logger): RequestHandler {
  const { baseUrl } = deps;
  return async (req, res) => {
    res.set('Cache-Control', 'no-store');
    const slug = String(req.params.slug);
    const sendNotFound = () =>
      sendProblem(res, baseUrl, 'not_found', {
        detail: `No published quiz has the slug "${slug}".`,
        hint: `Use the slug of the quiz's public page (${baseUrl}/q/{slug}); a draft takes responses only once it is published.`,
      });
    if (!isPublicSlug(slug)) return sendNotFound();
    if (req.body === undefined && !req.is('application/json')) {
      return sendProblem(res, baseUrl, 'unsupported_media_type', {
        detail: `The body must be JSON; the request says Content-Type: ${req.headers['content-type'] ?? '(none)'}.`,
        hint: 'Send "Content-Type: application/json".',
      });
    }
    // A JSON request with an empty body reads as {}, so the answer names what is missing.
    const body: unknown = req.body ?? {};
    const parsed = SubmissionBodySchema.safeParse(body);
    if (!parsed.success) {
      return sendProblem(res, baseUrl, 'validation_failed', {
        detail: 'The body does not have the shape of a submission; see errors.',
        hint: 'Send { "respondent": { "name", "email" }, "answers": [{ "question_id", and one of "answer": "yes"|"no", "option_index", "choices": [indexes], "text", "number" }] }.',
        // The API's errors are a field and its English message; the code stays with the pages.
        errors: toFieldIssues(parsed.error, body, { whole: 'body' }).map(({ field, message }) => ({
          field,
          message,
        })),
      });
    }
    const key = idempotencyKeyOf(req.get('Idempotency-Key'), body);
    if (typeof key === 'string') {
      return sendProblem(res, baseUrl, 'validation_failed', {
        detail: key,
        hint: 'Send a new random key per submission, and the same key with the same body to repeat it.',
        errors: [{ field: 'Idempotency-Key', message: key }],
      });
    }
    try {
      const { attempt_token: token, ...submission } = parsed.data;
      const attemptId = attemptIdOf(tokens, token, nowOf(deps));
      const result = await submitToQuiz(deps, slug, () => ({ input: submission, attemptId, key }));
      logger.info(
        { requestId: res.locals.requestId, quizId: result.quiz.quiz_id, responseId: result.response_id },
        'response recorded',
      );
      const resultUrl = `${baseUrl}${resultPath(result.quiz.slug, result.response_id)}`;
      // The caller is the respondent (no credential): it sees exactly what the result page would.
      const shown = result.show_score_to_respondent;
      res
        .status(201)
        .location(resultUrl)
        .json({
          response_id: result.response_id,
          score: shown ? result.score : null,
          max_score: shown ? result.max_score : null,
          percent: shown ? result.percent : null,
          passed: shown ? result.passed : null,
          // pending: an essay waits for the owner's grade; the score is the score so far.
          grading_status: result.grading_status,
          result_url: resultUrl,
          // The respondent's way back to this result (domain/taking/kept-result.ts): only the
          // first answer under a repeat key holds it, since only its hash is stored.
          ...(result.kept_result_key
            ? { kept_result_url: `${baseUrl}${keptResultPath(result.quiz.slug, result.kept_result_key)}` }
            : {}),
          // Each answer marked, with the key: only when the quiz shows it right after submitting.
          review: result.review,
          // Sent after the deadline, within the grace: stored as it was; these blanks score 0.
          time_up: result.time_up,
          out_of_time: result.out_of_time,
        });
    } catch (error) {
      if (error instanceof RepeatedSubmission) return sendRepeated(res, baseUrl, slug, error);
      if (!isDomainError(error)) throw error;
      if (error.code === 'quiz_not_found') return sendNotFound();
      sendRefusal(res, baseUrl, error);
    }
  };
}

/**
 * A key used before: with another body a 422 (nothing stored); with the same body once its attempt
 * is used up or the quiz closed, a 303 to the first response's result (a body can no longer be rebuilt).
 */
function sendRepeated(res: Response, baseUrl: string, slug: string, repeated: RepeatedSubmission): void {
  if (!repeated.sameBody) {
    return sendProblem(res, baseUrl, 'validation_failed', {
      detail:
        'This Idempotency-Key was already used with a different body for this quiz; nothing was stored.',
      hint: 'Send a new Idempotency-Key for a new submission; repeat a key only with exactly the body first sent with it.',
      errors: [{ field: 'Idempotency-Key', message: 'already used with a different body' }],
    });
  }
  res.redirect(303, `${baseUrl}${resultPath(slug, repeated.responseId)}`);
}

/** A submission the domain refused, with a hint for the cases a script can act on. */
function sendRefusal(res: Response, baseUrl: string, error: DomainError): void {
  if (error.code === 'not_accepting_responses') {
    return sendDomainProblem(res, baseUrl, error, {
      hint: "The quiz's owner has closed it to new responses; nothing was stored.",
    });
  }
  if (isAttemptRefusal(error)) {
    return sendDomainProblem(res, baseUrl, error, {
      hint: `${ATTEMPT_HINTS[error.reason]} Nothing was stored.`,
    });
  }
  if (error.code === 'invalid_input') {
    return sendDomainProblem(res, baseUrl, error, {
      detail: 'The submission does not fit this quiz; see errors. Nothing was stored.',
      hint: 'get_quiz_questions lists each question_id and its options in order (option_index and choices count from 0).',
    });
  }
  sendDomainProblem(res, baseUrl, error);
}

/** Body-parser failures as problem+json (Express would answer them with an HTML page). */
export function jsonBodyErrors(deps: DomainDeps, maxBodyBytes: number): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    const client = clientErrorOf(error, { limitBytes: maxBodyBytes });
    if (!client) return next(error);
    sendProblem(res, deps.baseUrl, client.problem, {
      detail: client.reason,
      hint:
        client.kind === 'too_large'
          ? 'A submission holds one short answer per question; send only that.'
          : 'Send one plain UTF-8 JSON object with Content-Type: application/json: { "respondent": {...}, "answers": [...] }.',
    });
  };
}
