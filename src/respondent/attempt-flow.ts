import type { RequestHandler, Response } from 'express';
import type { AttemptRow, QuizWithQuestions } from '../db/repositories';
import { isAttemptRefusal, type AttemptRefusal } from '../domain/attempts/attempt-refusal';
import {
  attemptExpiry,
  displayedQuestions,
  type ShownQuestion,
  loadAttempt,
  rebaseAttempt,
  startAttempt,
} from '../domain/attempts/attempts';
import { takesAttempts, windowState } from '../domain/attempts/taking-rules';
import { nowOf, type DomainDeps } from '../domain/deps';
import { isDomainError } from '../domain/errors';
import { loadPublishedQuiz } from '../domain/taking/submit-response';
import { domainErrorStatus } from '../http/domain-errors';
import type { Logger } from '../logger';
import { allowFraming } from '../web/security';
import {
  attemptFormFields,
  renderIntroPage,
  renderSubmittedAttemptPage,
  renderWindowPage,
  TAKING_SCRIPT,
} from './attempt-pages';
import type { AttemptTokens } from './attempt-token';
import { readerLanguageOf, translator, type Translator } from './i18n';
import { returningNotice, type KeptLink } from './kept-cookie';
import { isPublicSlug, keptResultPath } from './public-paths';
import { toFormErrors, type FormValues } from './read-form-answers';
import { renderClosedPage, renderQuizPage, TAKE_ID } from './render-quiz-page';
import { NOT_FOUND_PAGE } from './render-result-page';

/**
 * The page side of attempts: which page a quiz taken in one attempt shows (the intro, the form
 * of a started attempt, the window's pages), Start, and the answer to each refusal. The token
 * travels in the address (?attempt=) and in the form, never in a cookie.
 */
const send = (res: Response, status: number, page: string) => res.status(status).type('html').send(page);

/** The quiz as the attempt shows it: its questions in its order, their options in its order. */
export function attemptQuiz(quiz: QuizWithQuestions, attempt: AttemptRow): QuizWithQuestions {
  return {
    ...quiz,
    questions: displayedQuestions(quiz, attempt).map(({ question, options, lists }): ShownQuestion => ({
      ...question,
      shownOptions: options.map(({ index, option }) => ({ index, label: option.label })),
      shownLists: lists,
    })),
  };
}

export interface AttemptPageState {
  values?: FormValues;
  issues?: Parameters<typeof toFormErrors>[1];
  changed?: boolean;
  /** A refusal shown above the form, the answers kept below it. */
  problem?: string;
  /** The values are the answers saved on the attempt: the timer runs on. */
  restored?: boolean;
  /** Shown after a no-script Save. */
  saved?: boolean;
}

/** The form of a started attempt. */
export function renderAttemptForm(
  deps: DomainDeps,
  tokens: AttemptTokens,
  quiz: QuizWithQuestions,
  attempt: AttemptRow,
  state: AttemptPageState = {},
): string {
  const tr = translator(quiz.language);
  const shown = attemptQuiz(quiz, attempt);
  const remainingMs = attempt.deadline ? Math.max(0, attempt.deadline.getTime() - nowOf(deps)) : null;
  // A form sent back after its time ran out shows no timer: a timer at zero would send it again.
  const refusedAtZero = state.values !== undefined && !state.restored && remainingMs === 0;
  const fields = attemptFormFields(tr, {
    token: tokens.sign(attempt.id, attemptExpiry(attempt)),
    remainingMs: state.problem || refusedAtZero ? null : remainingMs,
    timeLimitMinutes: quiz.timeLimitMinutes,
    email: attempt.email,
  });
  const errors = state.issues ? toFormErrors(shown, state.issues, tr) : undefined;
  const withProblem = state.problem
    ? {
        summary: [{ href: '#main', message: state.problem }, ...(errors?.summary ?? [])],
        fields: errors?.fields ?? new Map(),
      }
    : errors;
  return renderQuizPage(shown, {
    ...(state.values ? { values: state.values } : {}),
    ...(withProblem ? { errors: withProblem } : {}),
    ...(state.changed ? { changed: true } : {}),
    attempt: {
      fields,
      scripts: [TAKING_SCRIPT],
      emailFixed: attempt.email !== null,
      saveUrl: `/q/${quiz.slug}/save`,
      saved: state.restored === true && state.saved === true,
    },
  });
}

/** The words of a refusal on a page. */
export function refusalText(tr: Translator, error: AttemptRefusal): string {
  switch (error.reason) {
    case 'expired':
      return tr.t('refusal.expired', { when: error.at ? tr.instant(error.at) : '' });
    case 'already_submitted':
      return tr.t('refusal.alreadySubmitted');
    case 'limit_reached':
      return tr.t('refusal.limitReached', { email: error.email ?? '' });
    case 'token_required':
      return tr.t('refusal.tokenRequired');
    case 'quiz_changed':
      return tr.t('quiz.changedText');
    case 'not_yet_open':
      return tr.t('window.notYetHeading');
    case 'closed':
      return tr.t('quiz.closedHeading');
    case 'token_invalid':
      return tr.t('refusal.tokenInvalid');
  }
}

/**
 * GET /q/:slug for a quiz taken in attempts or with a window: the page it needs, or undefined
 * when the plain form applies (the quiz as it always was).
 */
export async function takingPage(
  deps: DomainDeps,
  tokens: AttemptTokens,
  quiz: QuizWithQuestions,
  token: unknown,
  afterSave = false,
  kept: KeptLink | null = null,
): Promise<{ status: number; page: string } | undefined> {
  const tr = translator(quiz.language);
  const returning = kept ? { returning: returningNotice(tr, quiz.slug, kept.secret, `#${TAKE_ID}`) } : {};
  const now = nowOf(deps);
  if (token !== undefined) {
    const verified = tokens.verify(token, now);
    const attempt = verified ? await loadAttempt(deps, quiz, verified.attemptId).catch(() => null) : null;
    if (!attempt)
      return { status: 404, page: renderIntroPage(quiz, tr, { problem: tr.t('refusal.tokenInvalid') }) };
    // Submitted from this browser: only the way to its result, under the kept link.
    if (attempt.submittedAt && kept && attempt.responseId === kept.responseId) {
      return {
        status: 200,
        page: renderSubmittedAttemptPage(quiz, tr, keptResultPath(quiz.slug, kept.secret)),
      };
    }
    if (attempt.submittedAt) {
      return { status: 409, page: renderIntroPage(quiz, tr, { problem: tr.t('refusal.alreadySubmitted') }) };
    }
    if (verified!.expired) {
      const problem = tr.t('refusal.expired', {
        when: tr.instant(attempt.deadline ?? attemptExpiry(attempt)),
      });
      return { status: 409, page: renderIntroPage(quiz, tr, { problem }) };
    }
    // The answers saved so far come back: a reload, another tab, the link on another device.
    const saved = attempt.savedAnswers;
    return {
      status: 200,
      page: renderAttemptForm(
        deps,
        tokens,
        quiz,
        await rebaseAttempt(deps, quiz, attempt),
        saved
          ? {
              values: {
                name: saved.name,
                email: saved.email,
                answers: new Map(Object.entries(saved.answers)),
                version: undefined,
              },
              restored: true,
              saved: afterSave,
            }
          : {},
      ),
    };
  }
  const state = windowState(quiz, now);
  if (state !== 'open') return { status: 200, page: renderWindowPage(quiz, tr, state) };
  if (takesAttempts(quiz)) return { status: 200, page: renderIntroPage(quiz, tr, returning) };
  return undefined;
}

/** POST /q/:slug/start: the Start button. A GET of the quiz starts nothing (link previews, crawlers). */
export function startAttemptFromPage(
  deps: DomainDeps,
  tokens: AttemptTokens,
  logger: Logger,
): RequestHandler {
  return async (req, res) => {
    const { slug } = req.params;
    if (!isPublicSlug(slug)) return send(res, 404, NOT_FOUND_PAGE(translator(readerLanguageOf(req))));
    let quiz: QuizWithQuestions;
    try {
      quiz = await loadPublishedQuiz(deps, slug);
    } catch (error) {
      if (isDomainError(error) && error.code === 'quiz_not_found')
        return send(res, 404, NOT_FOUND_PAGE(translator(readerLanguageOf(req))));
      throw error;
    }
    if (quiz.allowEmbedding) allowFraming(res);
    const tr = translator(quiz.language);
    const body = (req.body ?? {}) as Record<string, unknown>;
    const email = typeof body.email === 'string' ? body.email : '';
    try {
      const attempt = await startAttempt(deps, quiz, { email });
      logger.info(
        { requestId: res.locals.requestId, quizId: quiz.id, attemptId: attempt.id },
        'attempt started',
      );
      const token = tokens.sign(attempt.id, attemptExpiry(attempt));
      res.redirect(303, `/q/${quiz.slug}?attempt=${encodeURIComponent(token)}`);
    } catch (error) {
      if (!isDomainError(error)) throw error;
      const status = domainErrorStatus(error);
      if (error.code === 'not_accepting_responses') return send(res, status, renderClosedPage(quiz));
      if (error.code === 'invalid_input') {
        const message =
          error.issues[0]?.code === 'missing' ? tr.t('error.emailMissing') : tr.t('error.emailInvalid');
        return send(res, status, renderIntroPage(quiz, tr, { email, emailError: message }));
      }
      if (isAttemptRefusal(error)) {
        if (error.reason === 'not_yet_open' || error.reason === 'closed') {
          return send(res, status, renderWindowPage(quiz, tr, error.reason));
        }
        return send(res, status, renderIntroPage(quiz, tr, { email, problem: refusalText(tr, error) }));
      }
      throw error;
    }
  };
}

/**
 * A refused submission of the form, answered with a page that keeps what was typed: the form
 * again with the reason above it (the time ran out, the quiz changed), the intro (start again),
 * or the window's page. Undefined when the error is not an attempt's.
 */
export async function answerAttemptRefusal(
  deps: DomainDeps,
  tokens: AttemptTokens,
  quiz: QuizWithQuestions,
  attemptId: string | null,
  values: FormValues,
  error: AttemptRefusal,
): Promise<{ status: number; page: string }> {
  const tr = translator(quiz.language);
  const status = domainErrorStatus(error);
  if (error.reason === 'not_yet_open' || error.reason === 'closed') {
    return { status, page: renderWindowPage(quiz, tr, error.reason) };
  }
  const attempt = attemptId ? await deps.repos.attempts.byId(attemptId) : null;
  if (attempt && (error.reason === 'quiz_changed' || error.reason === 'expired')) {
    const state: AttemptPageState =
      error.reason === 'quiz_changed'
        ? { values, changed: true }
        : { values, problem: tr.t('refusal.expired', { when: tr.instant(error.at ?? new Date()) }) };
    return { status, page: renderAttemptForm(deps, tokens, quiz, attempt, state) };
  }
  return { status, page: renderIntroPage(quiz, tr, { problem: refusalText(tr, error) }) };
}
