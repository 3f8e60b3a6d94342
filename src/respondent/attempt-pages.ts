import type { QuizWithQuestions } from '../db/repositories';
import type { WindowState } from '../domain/attempts/taking-rules';
import { RESPONDENT_LIMITS } from '../domain/attempts/validate-submission';
import { errorSummary } from '../web/parts';
import { html, type Html } from '../web/html';
import { layout } from '../web/layout';
import type { Translator } from './i18n';
import type { MessageKey } from './messages/en';
import { EMAIL_ID } from './read-form-answers';
import { quizDescription, ROBOTS, TAKE_ID, TAKING_SCRIPT, textField } from './render-quiz-page';

/**
 * The pages of a quiz taken in one attempt (a time limit, a shuffle, a pool or an attempt
 * limit): the intro with its Start button, the timer on the form, and the pages outside the
 * quiz's window. The script they share is web/assets/quiz-taking.js (the CSP allows no inline script).
 */
export { TAKING_SCRIPT };

/** What the form of an attempt carries besides the questions. */
export interface AttemptFormState {
  token: string;
  /** Milliseconds left when the page was made; null without a time limit. */
  remainingMs: number | null;
  timeLimitMinutes: number | null;
  /** The email the attempt was started with (an attempt limit), shown rather than asked again. */
  email: string | null;
}

/** A moment the page's script rewrites into the reader's own time zone, with the zone named. */
export function localTime(tr: Translator, date: Date): Html {
  return html`<time datetime="${date.toISOString()}" data-local-time>${tr.instant(date)}</time>`;
}

const MARK = '\uE000';

/** A message whose {when} is a moment shown in the reader's own time zone. */
export function sentenceWithTime(tr: Translator, key: MessageKey, date: Date): Html {
  const [before = '', after = ''] = tr.t(key, { when: MARK }).split(MARK);
  return html`${before}${localTime(tr, date)}${after}`;
}

function clock(ms: number): string {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(s)}` : `${two(m)}:${two(s)}`;
}

/** The warning comes 5 minutes before the end of a limit of 10 minutes or more, else 1 minute before. */
export const warningMinutes = (limit: number) => (limit >= 10 ? 5 : 1);

/** Inside the form: the token, the timer (when timed) and the email the attempt started with. */
export function attemptFormFields(tr: Translator, attempt: AttemptFormState): Html {
  const timer =
    attempt.remainingMs === null || attempt.timeLimitMinutes === null
      ? ''
      : html`<div
            class="timer"
            id="quiz-timer"
            data-remaining-ms="${attempt.remainingMs}"
            data-warn-ms="${warningMinutes(attempt.timeLimitMinutes) * 60_000}"
            data-sending="${tr.t('timer.sending')}"
          >
            <span class="timer-label">${tr.t('timer.timeLeft')}</span>
            <span class="timer-value" id="timer-value" role="timer">${clock(attempt.remainingMs)}</span>
          </div>
          <p class="timer-warning" id="timer-warning" aria-live="assertive">
            <span hidden data-warning-text
              >${tr.t('timer.warning', { minutes: warningMinutes(attempt.timeLimitMinutes) })}</span
            >
          </p>`;
  return html`<input type="hidden" name="attempt_token" value="${attempt.token}" /> ${timer}
    ${
      attempt.email
        ? html`<p class="muted" id="${EMAIL_ID}">${tr.t('quiz.submittingAs', { email: attempt.email })}</p>`
        : ''
    }`;
}

export interface IntroState {
  /** A refusal or a field error to show above the Start button. */
  problem?: string;
  /** The email field's error, beside it. */
  emailError?: string;
  email?: string;
  /** In a browser that submitted the quiz before: the way to that result (kept-cookie.ts). */
  returning?: Html;
}

/** GET /q/:slug of a quiz taken in one attempt: what it holds, the time allowed, and Start (a POST). */
export function renderIntroPage(quiz: QuizWithQuestions, tr: Translator, state: IntroState = {}): string {
  const count = Math.min(quiz.questionPoolSize ?? quiz.questions.length, quiz.questions.length);
  const limited = quiz.maxAttemptsPerEmail !== null && quiz.collectEmail;
  const problem = state.problem ?? state.emailError;
  const body = html`<h1 dir="auto">${quiz.title}</h1>
    ${state.returning ?? ''} ${quizDescription(quiz)}
    ${
      problem
        ? errorSummary({
            errors: state.emailError ? [{ field: EMAIL_ID, message: state.emailError }] : [],
            heading: tr.t('quiz.problemHeading'),
            intro: state.emailError ? '' : problem,
            autofocus: true,
            force: true,
          })
        : ''
    }
    <ul class="intro-facts" id="${TAKE_ID}">
      <li>${tr.t('intro.questions', { count })}</li>
      ${
        quiz.timeLimitMinutes
          ? html`<li>${tr.t('intro.timeAllowed', { minutes: quiz.timeLimitMinutes })}</li>`
          : ''
      }
      ${limited ? html`<li>${tr.t('intro.attemptsAllowed', { max: quiz.maxAttemptsPerEmail! })}</li>` : ''}
    </ul>
    ${quiz.timeLimitMinutes ? html`<p>${tr.t('intro.timeStarts')}</p>` : ''}
    <form method="post" action="/q/${quiz.slug}/start" class="start-form" novalidate>
      ${
        limited
          ? textField(tr, {
              id: EMAIL_ID,
              key: 'email',
              name: 'email',
              label: tr.t('quiz.yourEmail'),
              type: 'email',
              autocomplete: 'email',
              maxlength: RESPONDENT_LIMITS.emailMax,
              value: state.email ?? '',
              error: state.emailError,
            })
          : ''
      }
      <button type="submit">${tr.t('intro.start')}</button>
    </form>`;
  return layout({
    title: problem ? tr.t('quiz.errorTitle', { title: quiz.title }) : quiz.title,
    body,
    robots: ROBOTS,
    lang: tr.lang,
    dir: tr.dir,
    scripts: [TAKING_SCRIPT],
  });
}

/**
 * An attempt's address once it is submitted, in the browser that holds its kept link: the way to
 * the result alone (its answers are not shown here any more).
 */
export function renderSubmittedAttemptPage(
  quiz: QuizWithQuestions,
  tr: Translator,
  keptPath: string,
): string {
  const body = html`<h1 dir="auto">${quiz.title}</h1>
    <p>${tr.t('result.attemptSubmitted')}</p>
    <p><a class="button" href="${keptPath}">${tr.t('quiz.seeYourResult')}</a></p>`;
  return layout({ title: quiz.title, body, robots: ROBOTS, lang: tr.lang, dir: tr.dir });
}

/** Outside the window: when the quiz opens, or that it has closed, in the reader's own time zone. */
export function renderWindowPage(
  quiz: QuizWithQuestions,
  tr: Translator,
  state: Exclude<WindowState, 'open'>,
): string {
  const notYet = state === 'not_yet_open';
  const at = notYet ? quiz.opensAt! : quiz.closesAt!;
  const body = html`<h1 dir="auto">${quiz.title}</h1>
    <div class="notice closed" role="status">
      <h2>${notYet ? tr.t('window.notYetHeading') : tr.t('quiz.closedHeading')}</h2>
      <p>${sentenceWithTime(tr, notYet ? 'window.opensAt' : 'window.closedAt', at)}</p>
    </div>`;
  return layout({
    title: notYet
      ? tr.t('window.notYetTitle', { title: quiz.title })
      : tr.t('quiz.closedTitle', { title: quiz.title }),
    body,
    robots: ROBOTS,
    lang: tr.lang,
    dir: tr.dir,
    scripts: [TAKING_SCRIPT],
  });
}
