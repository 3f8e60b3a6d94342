import { randomBytes } from 'node:crypto';
import type { QuestionRow, QuizWithQuestions } from '../db/repositories';
import { RESPONDENT_LIMITS } from '../domain/attempts/validate-submission';
import { html, type Html } from '../web/html';
import { layout } from '../web/layout';
import { errorSummary, field } from '../web/parts';
import { richOptionsOf, richText, type RichTextOptions } from '../web/rich-text';
import { translator, type Translator } from './i18n';
import { errorId, type FormValues } from './question-form-face';
import { questionControl } from './question-forms';
import { EMAIL_ID, EMPTY_VALUES, NAME_ID, type FormErrors } from './read-form-answers';

export interface QuizPageState {
  values?: FormValues;
  errors?: FormErrors;
  /** The quiz changed between rendering the page and submitting it. */
  changed?: boolean;
  /** A quiz taken in one attempt (attempt-pages.ts): its token, timer and email, in place of the version field. */
  attempt?: {
    fields: Html;
    scripts: readonly string[];
    emailFixed: boolean;
    /** Where the answers are saved as the student goes (save-routes.ts). */
    saveUrl?: string;
    /** The page follows a no-script Save: say the answers are kept. */
    saved?: boolean;
  };
  /** A preview (a signed link): marked as one, and its form sends nothing. */
  preview?: boolean;
  /** In a browser that submitted the quiz before: the way to that result (kept-cookie.ts). */
  returning?: Html;
}

/** Where the quiz begins below a returning student's notice: "Take it again" goes there. */
export const TAKE_ID = 'take';

// Public pages of someone else's quiz: keep them (and their results) out of search engines.
export const ROBOTS = 'noindex, nofollow';

function formErrorSummary(tr: Translator, errors: FormErrors | undefined, changed: boolean): Html | string {
  if (!errors?.summary.length && !changed) return '';
  // Focused on load (autofocus works without scripts) so keyboard and screen-reader users land on it.
  return errorSummary({
    errors: (errors?.summary ?? []).map((item) => ({
      field: item.href.replace(/^#/, ''),
      message: item.message,
    })),
    heading: changed ? tr.t('quiz.changedHeading') : tr.t('quiz.problemHeading'),
    intro: changed ? tr.t('quiz.changedText') : '',
    autofocus: true,
    force: true,
  });
}

/** A respondent's text field (name, email) in the quiz's language, on the shared field part. */
export function textField(
  tr: Translator,
  options: {
    id: string;
    key: string;
    name: string;
    label: string;
    type: 'text' | 'email';
    autocomplete: string;
    maxlength: number;
    value: string;
    error: string | undefined;
  },
): Html {
  const { id, key, error } = options;
  return field({
    id,
    errorId: errorId(key),
    name: options.name,
    label: options.label,
    type: options.type,
    value: options.value,
    autocomplete: options.autocomplete,
    maxlength: options.maxlength,
    errors: error ? [error] : [],
    errorPrefix: tr.t('quiz.errorPrefix'),
    ...(options.type === 'email' ? { spellcheck: false, inputmode: 'email' as const } : {}),
  });
}

function respondentFields(
  tr: Translator,
  quiz: QuizWithQuestions,
  values: FormValues,
  errors: FormErrors | undefined,
  emailFixed: boolean,
): Html | string {
  const askEmail = quiz.collectEmail && !emailFixed;
  if (!quiz.collectName && !askEmail) return '';
  const asked = quiz.collectName && quiz.collectEmail ? 'both' : quiz.collectName ? 'name' : 'email';
  return html`<fieldset class="respondent">
    <legend>${tr.t('quiz.aboutYou')}</legend>
    <p class="hint">${tr.t('quiz.sharedWithOwner', { asked })}</p>
    ${
      quiz.collectName
        ? textField(tr, {
            id: NAME_ID,
            key: 'name',
            name: 'name',
            label: tr.t('quiz.yourName'),
            type: 'text',
            autocomplete: 'name',
            maxlength: RESPONDENT_LIMITS.nameMax,
            value: values.name,
            error: errors?.fields.get('name'),
          })
        : ''
    }
    ${
      askEmail
        ? textField(tr, {
            id: EMAIL_ID,
            key: 'email',
            name: 'email',
            label: tr.t('quiz.yourEmail'),
            type: 'email',
            autocomplete: 'email',
            maxlength: RESPONDENT_LIMITS.emailMax,
            value: values.email,
            error: errors?.fields.get('email'),
          })
        : ''
    }
  </fieldset>`;
}

function questionFieldset(
  tr: Translator,
  question: QuestionRow,
  index: number,
  total: number,
  required: boolean,
  values: FormValues,
  errors: FormErrors | undefined,
  rich: RichTextOptions,
): Html {
  const error = errors?.fields.get(question.id);
  return questionControl({ tr, question, index, total, required, values, error, rich });
}

/** The owner's description: rich text (web/rich-text.ts), its line breaks kept. */
export function quizDescription(quiz: Pick<QuizWithQuestions, 'description' | 'mathDollars'>) {
  return quiz.description
    ? html`<p class="quiz-description" dir="auto">${richText(quiz.description, richOptionsOf(quiz))}</p>`
    : '';
}

/**
 * The respondent pages' one script (web/assets/quiz-taking.js; the CSP allows no inline script):
 * an attempt's timer and saves, and the answers a form without an attempt keeps in the browser.
 */
export const TAKING_SCRIPT = 'quiz-taking.js';

/** The browser-storage key of a quiz's answers taken without an attempt: one per quiz. */
export const keptAnswersKey = (slug: string) => `quiz-answers:${slug}`;

/** The place a no-script Save returns to (its anchor). */
export const SAVE_PLACE = 'save-answers';

/**
 * Save without script (a formaction post that comes back here), and the live line where the
 * page's script says whether the answers it saves as the student types are kept.
 */
function saveBar(tr: Translator, saveUrl: string, saved: boolean): Html {
  return html`<div class="save-bar" id="${SAVE_PLACE}" data-save-url="${saveUrl}">
    <button
      type="submit"
      class="secondary"
      formaction="${saveUrl}"
      formnovalidate
      name="save_place"
      value="${SAVE_PLACE}"
    >
      ${tr.t('quiz.saveAnswers')}
    </button>
    <p
      class="muted save-status"
      id="save-status"
      role="status"
      data-saved="${tr.t('quiz.saved')}"
      data-retrying="${tr.t('quiz.saveRetrying')}"
    >
      ${saved ? tr.t('quiz.saved') : ''}
    </p>
  </div>`;
}

/**
 * The form's one-time token: the same page posted twice (a double click, a resend after a dropped
 * connection) stores one response. Random per rendering, so two students' pages never share one.
 */
export const SUBMISSION_TOKEN_FIELD = 'submission_token';
const newSubmissionToken = () => randomBytes(16).toString('base64url');

/** GET /q/:slug and the 422 re-render: the form of a published quiz that takes responses. */
export function renderQuizPage(quiz: QuizWithQuestions, state: QuizPageState = {}): string {
  const tr = translator(quiz.language);
  const values = state.values ?? EMPTY_VALUES;
  const total = quiz.questions.length;
  const hasErrors = Boolean(state.errors?.summary.length) || Boolean(state.changed);
  // Without an attempt nothing is on the server until the form is sent: the page's script keeps
  // the answers in this browser instead, and says so in the status line it fills.
  const keptInBrowser = !state.attempt && !state.preview;
  const body = html`<h1 dir="auto">${quiz.title}</h1>
    ${state.returning ?? ''} ${quizDescription(quiz)}
    <p class="muted" id="${TAKE_ID}">
      ${tr.t('quiz.questionCount', { count: total })}
      ${quiz.requireAllAnswers ? tr.t('quiz.answerEvery') : tr.t('quiz.answerAny')}
    </p>
    ${state.preview ? html`<div class="notice preview" role="note"><p>${tr.t('quiz.previewBanner')}</p></div>` : ''}
    ${formErrorSummary(tr, state.errors, Boolean(state.changed))}
    <form
      method="post"
      action="${state.preview ? '' : `/q/${quiz.slug}`}"
      class="quiz-form"
      novalidate
      ${keptInBrowser ? html`data-keep-answers="${keptAnswersKey(quiz.slug)}"` : ''}
    >
      ${state.attempt ? state.attempt.fields : html`<input type="hidden" name="version" value="${quiz.version}" />`}
      ${state.preview ? '' : html`<input type="hidden" name="${SUBMISSION_TOKEN_FIELD}" value="${newSubmissionToken()}" />`}
      ${respondentFields(tr, quiz, values, state.errors, state.attempt?.emailFixed ?? false)}
      ${quiz.questions.map((question, index) =>
        questionFieldset(
          tr,
          question,
          index,
          total,
          quiz.requireAllAnswers,
          values,
          state.errors,
          richOptionsOf(quiz),
        ),
      )}
      ${
        state.preview
          ? html`<p class="muted" id="preview-no-submit">${tr.t('quiz.previewNoSubmit')}</p>
              <button type="submit" disabled aria-describedby="preview-no-submit">
                ${tr.t('quiz.submit')}
              </button>`
          : html`${state.attempt?.saveUrl ? saveBar(tr, state.attempt.saveUrl, state.attempt.saved === true) : ''}
              ${keptInBrowser ? keptStatus(tr) : ''} <button type="submit">${tr.t('quiz.submit')}</button>`
      }
    </form>`;
  return layout({
    title: hasErrors ? tr.t('quiz.errorTitle', { title: quiz.title }) : quiz.title,
    body,
    robots: ROBOTS,
    lang: tr.lang,
    dir: tr.dir,
    ...(state.attempt
      ? { scripts: state.attempt.scripts }
      : keptInBrowser
        ? { scripts: [TAKING_SCRIPT] }
        : {}),
  });
}

/** The live line the page's script fills once it keeps the answers in this browser; empty without script. */
function keptStatus(tr: Translator): Html {
  return html`<p
    class="muted save-status"
    id="kept-status"
    role="status"
    data-kept="${tr.t('quiz.keptInBrowser')}"
  ></p>`;
}

/** A published quiz whose owner stopped taking responses: say so, and show no form. */
export function renderClosedPage(quiz: QuizWithQuestions): string {
  const tr = translator(quiz.language);
  const body = html`<h1 dir="auto">${quiz.title}</h1>
    <div class="notice closed" role="status">
      <h2>${tr.t('quiz.closedHeading')}</h2>
      <p>${tr.t('quiz.closedText')}</p>
    </div>`;
  return layout({
    title: tr.t('quiz.closedTitle', { title: quiz.title }),
    body,
    robots: ROBOTS,
    lang: tr.lang,
    dir: tr.dir,
  });
}

/** A preview link that does not open (expired, revoked, altered): said to its owner, in English. */
export function renderLinkRefusedPage(text: string): string {
  const body = html`<h1>This link does not work</h1>
    <p>${text}</p>`;
  return layout({ title: 'Link not valid', body, robots: ROBOTS, lang: 'en', dir: 'ltr' });
}
