import { storedDefinition } from '../domain/question-types';
import type { ReviewGrade, ReviewItem } from '../domain/taking/answer-review';
import type { ResponseResult } from '../domain/taking/get-response-result';
import type { ImageRef } from '../domain/images/image-ref';
import { html, type Html } from '../web/html';
import { optionPicture, questionImage } from '../web/images';
import { layout } from '../web/layout';
import { richOptionsOf, richText, type RichTextOptions } from '../web/rich-text';
import { translator, type Translator } from './i18n';
import { sentenceWithTime } from './attempt-pages';
import { keptAnswersKey, ROBOTS, TAKING_SCRIPT } from './render-quiz-page';

function scoreCard(tr: Translator, score: NonNullable<ResponseResult['score']>, soFar: boolean): Html {
  // percent is null when the quiz's maximum is 0; passed is null without a pass mark.
  // While a grade is pending the figures are only the score so far, and say so.
  const percent =
    score.percent === null
      ? ''
      : soFar
        ? html`<p class="percent">${tr.t('result.percentSoFar', { percent: score.percent })}</p>`
        : html`<p class="percent">${score.percent}%</p>`;
  const verdict =
    score.passed === null
      ? ''
      : html`<p class="verdict ${score.passed ? 'pass' : 'fail'}">
          ${score.passed ? tr.t('result.passed') : tr.t('result.notPassed')}
        </p>`;
  const outOf = tr.t(soFar ? 'result.outOfSoFar' : 'result.outOf', { max: score.max_score });
  return html`<section class="result-card" aria-labelledby="result-title">
    <h2 id="result-title">${tr.t('result.yourScore')}</h2>
    <p class="score">
      <span class="score-value">${score.score}</span>
      <span class="score-max">${outOf}</span>
    </p>
    ${percent} ${verdict}
  </section>`;
}

function said(tr: Translator, answer: string): string {
  if (answer === 'yes') return tr.t('quiz.yes');
  if (answer === 'no') return tr.t('quiz.no');
  return answer;
}

const listComma = (tr: Translator) => (tr.lang === 'ar' ? '، ' : ', ');

/**
 * Answers made of the owner's words (options, items, prompts and matches) are rich text, as the
 * form showed them; typed answers are shown as typed. The type says which (`answerIsTyped`).
 */
function answerShown(tr: Translator, item: ReviewItem, answer: string, rich: RichTextOptions): Html | string {
  return storedDefinition(item.type).answerIsTyped ? said(tr, answer) : richText(said(tr, answer), rich);
}

/** The respondent's answer, isolated (`<bdi>`): typed text in any script keeps its own direction. */
function yourAnswer(
  tr: Translator,
  item: ReviewItem,
  timeUp: boolean,
  rich: RichTextOptions,
  options: Record<string, ImageRef> | undefined,
): Html {
  if (item.your_answer === null)
    return html`<em>${tr.t(timeUp ? 'result.notAnsweredTimeUp' : 'result.notAnswered')}</em>`;
  // Every other answer has text (labels and typed answers are never empty): "" is a checkbox group left unticked.
  if (item.your_answer === '') return html`<em>${tr.t('result.noneTicked')}</em>`;
  const answer = answerShown(tr, item, item.your_answer, rich);
  const shown = html`<bdi class="review-answer">${answer}</bdi>`;
  return html`${shown}${optionPicture(options?.[item.your_answer])}`;
}

/**
 * Right, wrong or partly right, as a mark and a word (never colour alone), when the points are
 * shown and the question has a key; nothing for a question that only collects text.
 */
function verdictOf(tr: Translator, item: ReviewItem): Html {
  if (item.points === null || !item.max_points || !item.correct_answers?.length) return html``;
  const [kind, mark, word] =
    item.points >= item.max_points
      ? ['right', '✓', tr.t('result.right')]
      : item.points > 0
        ? ['partly', '◐', tr.t('result.partlyRight')]
        : ['wrong', '✗', tr.t('result.wrong')];
  return html`<span class="verdict-mark ${kind}"><span aria-hidden="true">${mark}</span> ${word}</span>`;
}

/**
 * A person's grade: the level chosen for each rubric criterion (with its points when scores are
 * shown) and the teacher's comment. Criteria, labels and the comment are the owner's text, each
 * isolated so that it reads in its own direction.
 */
function gradeShown(tr: Translator, grade: ReviewGrade): Html {
  const levels =
    grade.levels.length === 0
      ? ''
      : html`<p class="review-label">${tr.t('result.rubric')}</p>
          <ul class="rubric-levels">
            ${grade.levels.map(
              (level) =>
                html`<li>
                  <span class="rubric-criterion" dir="auto">${level.criterion}</span>:
                  <bdi class="rubric-level">${level.label}</bdi>${
                    level.points === null || level.max === null
                      ? ''
                      : html` <bdi class="rubric-points"
                          >(${tr.t('result.points', { points: level.points, max: level.max })})</bdi
                        >`
                  }
                </li>`,
            )}
          </ul>`;
  const feedback = grade.feedback
    ? html`<p class="review-feedback">
        <span class="review-label">${tr.t('result.feedback')}</span>
        <span class="feedback-text" dir="auto">${grade.feedback}</span>
      </p>`
    : '';
  return html`<div class="review-grade">${levels} ${feedback}</div>`;
}

/** Where an answer graded by a person stands: its grade once final, else that it waits. */
function gradeOf(tr: Translator, item: ReviewItem): Html | string {
  if (item.grade) return gradeShown(tr, item.grade);
  if (item.grade_state === 'pending' || item.grade_state === 'proposed')
    return html`<p class="muted">${tr.t('result.awaitingGrade')}</p>`;
  return '';
}

function reviewItem(
  tr: Translator,
  item: ReviewItem,
  index: number,
  timeUp: boolean,
  rich: RichTextOptions,
  picture: ImageRef | undefined,
  options: Record<string, ImageRef> | undefined,
  keyShown = true,
): Html {
  // The points are a phrase of their own, on their own line, so they never run into the answer.
  // A question worth nothing (an opinion, a comment) earns no "0 of 0 points".
  const earned =
    item.points === null || item.max_points === 0
      ? ''
      : html`<p class="review-points">
          <span class="review-label">${tr.t('result.pointsLabel')}</span>
          <bdi>${tr.t('result.points', { points: item.points, max: item.max_points ?? 0 })}</bdi>
        </p>`;
  const right = !keyShown
    ? ''
    : item.correct_answers === null
      ? html`<p class="muted">${tr.t('result.questionChanged')}</p>`
      : item.correct_answers.length === 0
        ? // An answer graded by a person has its grade instead of a key.
          item.grade_state === undefined
          ? html`<p class="muted">${tr.t('result.noRightAnswer')}</p>`
          : ''
        : html`<p>
            <span class="review-label"
              >${tr.t('result.rightAnswers', { count: item.correct_answers.length })}</span
            >
            ${item.correct_answers.map((answer, n) => html`${n > 0 ? listComma(tr) : ''}<bdi>${answerShown(tr, item, answer, rich)}</bdi>${optionPicture(options?.[answer])}`)}
          </p>`;
  return html`<li class="review-item">
    <h3 class="question-text">
      <span class="muted">${index + 1}.</span> <span dir="auto">${richText(item.text, rich)}</span>
    </h3>
    ${questionImage(picture)}
    <p class="review-answer-line">
      ${verdictOf(tr, item)}
      <span class="review-label">${tr.t('result.yourAnswer')}</span>
      ${yourAnswer(tr, item, timeUp, rich, options)}
    </p>
    ${earned} ${gradeOf(tr, item)} ${right}
    ${keyShown && item.explanation ? html`<p class="review-explanation" dir="auto">${richText(item.explanation, rich)}</p>` : ''}
  </li>`;
}

function answerReview(
  tr: Translator,
  review: ReviewItem[],
  timeUp: boolean,
  rich: RichTextOptions,
  pictures: Record<string, ImageRef>,
  optionPictures: Record<string, Record<string, ImageRef>>,
): Html {
  return html`<section class="review" aria-labelledby="review-title">
    <h2 id="review-title">${tr.t('result.yourAnswers')}</h2>
    <ol class="review-list">
      ${review.map((item, index) => reviewItem(tr, item, index, timeUp, rich, pictures[item.question_id], optionPictures[item.question_id]))}
    </ol>
  </section>`;
}

/** Without the review, the answers a person graded: each with its levels and comment, nothing of the key. */
function gradedAnswers(
  tr: Translator,
  graded: ReviewItem[],
  rich: RichTextOptions,
  pictures: Record<string, ImageRef>,
): Html {
  if (graded.length === 0) return html``;
  return html`<section class="review graded" aria-labelledby="graded-title">
    <h2 id="graded-title">${tr.t('result.gradedAnswers')}</h2>
    <ol class="review-list">
      ${graded.map((item, index) =>
        reviewItem(tr, item, index, false, rich, pictures[item.question_id], undefined, false),
      )}
    </ol>
  </section>`;
}

/**
 * GET /q/:slug/r/:responseId: the score when the quiz shows it, a thank-you either way, and
 * each answer with the key and explanations once the quiz's setting shows them.
 */
/** A submission sent when the time ran out: said so, with the questions it left blank. */
function timeUpNotice(
  tr: Translator,
  timeUp: NonNullable<ResponseResult['time_up']>,
  rich: RichTextOptions,
): Html {
  return html`<div class="notice time-up" role="status">
    <p>${tr.t('result.timeUp')}</p>
    ${
      timeUp.saved_at
        ? html`<p class="auto-submitted">
            ${sentenceWithTime(tr, 'result.autoSubmitted', new Date(timeUp.saved_at))}
          </p>`
        : ''
    }
    ${
      timeUp.out_of_time.length > 0
        ? html`<p>${tr.t('result.outOfTime')}</p>
            <ul class="out-of-time">
              ${timeUp.out_of_time.map((text) => html`<li dir="auto">${richText(text, rich)}</li>`)}
            </ul>`
        : ''
    }
  </div>`;
}

/** The kept link shown on a result page: its absolute address and the same as an SVG QR code. */
export interface KeptLinkShown {
  url: string;
  qrSvg: string;
}

/**
 * The way back to this result: the kept link in a read-only field (selectable without script),
 * a copy button (assets/copy-button.js) and a QR code to open it on a phone.
 */
function keptLinkPanel(tr: Translator, kept: KeptLinkShown): Html {
  const qr = `data:image/svg+xml;base64,${Buffer.from(kept.qrSvg, 'utf8').toString('base64')}`;
  return html`<section class="kept-link" aria-labelledby="kept-title">
    <h2 id="kept-title">${tr.t('result.keptHeading')}</h2>
    <p>${tr.t('result.keptText')}</p>
    <p class="kept-field">
      <label for="kept-url">${tr.t('result.keptLinkLabel')}</label>
      <input id="kept-url" type="text" readonly value="${kept.url}" dir="ltr" spellcheck="false" />
    </p>
    <p class="copy-row">
      <button
        type="button"
        class="secondary"
        data-copy-target="kept-url"
        data-copied-message="${tr.t('result.linkCopied')}"
        data-copied-label="${tr.t('result.copied')}"
        hidden
      >
        ${tr.t('result.copyLink')}
      </button>
      <span class="copy-status" role="status" aria-live="polite"></span>
    </p>
    <figure class="qr">
      <img src="${qr}" width="160" height="160" alt="${tr.t('result.keptQrAlt')}" />
    </figure>
  </section>`;
}

export function renderResultPage(result: ResponseResult, options: { kept?: KeptLinkShown } = {}): string {
  const tr = translator(result.quiz.language);
  const kept = options.kept ? keptLinkPanel(tr, options.kept) : '';
  const rich = richOptionsOf(result.quiz);
  const review = result.review
    ? answerReview(
        tr,
        result.review,
        result.time_up !== null,
        rich,
        result.pictures ?? {},
        result.option_pictures ?? {},
      )
    : gradedAnswers(tr, result.graded ?? [], rich, result.pictures ?? {});
  // A quiz with nothing to score (opinion scales alone) shows no "0 out of 0": a thank-you, as without scores.
  const score = result.score && result.score.max_score > 0 ? result.score : null;
  const heading = score ? tr.t('result.yourResult') : tr.t('result.thankYou');
  const timeUp = result.time_up ? timeUpNotice(tr, result.time_up, rich) : '';
  // Some answers wait for a person's grade: the score shown is the score so far.
  const pending =
    result.grading_status === 'pending'
      ? html`<div class="notice pending-grading" role="status"><p>${tr.t('result.pendingGrading')}</p></div>`
      : '';
  const body = score
    ? html`<p class="eyebrow" dir="auto">${result.quiz.title}</p>
        <h1>${heading}</h1>
        ${timeUp} ${pending} ${scoreCard(tr, score, result.grading_status === 'pending')}
        <p>${tr.t('result.recordedThanks')}</p>
        ${kept} ${review}`
    : html`<p class="eyebrow" dir="auto">${result.quiz.title}</p>
        <h1>${heading}</h1>
        ${timeUp} ${pending}
        <p>${tr.t('result.recorded')}</p>
        ${kept} ${review}`;
  // The answers a form without an attempt kept in the browser go once they are stored: the
  // page's script removes them, so a shared computer does not keep them after submitting.
  return layout({
    title: tr.t('result.pageTitle', { heading, title: result.quiz.title }),
    body: html`<div hidden data-forget-answers="${keptAnswersKey(result.quiz.slug)}"></div>
      ${body}`,
    robots: ROBOTS,
    lang: tr.lang,
    dir: tr.dir,
    scripts: options.kept ? [TAKING_SCRIPT, 'copy-button.js'] : [TAKING_SCRIPT],
  });
}

/** Plain pages for the respondent routes' dead ends (404, 413, 500...): HTML, since a person reads them. */
export function renderMessagePage(
  heading: string,
  message: string,
  detail?: string,
  tr: Translator = translator('en'),
): string {
  const body = html`<h1>${heading}</h1>
    <p>${message}</p>
    ${detail ? html`<p class="muted">${detail}</p>` : ''}`;
  return layout({ title: heading, body, robots: ROBOTS, lang: tr.lang, dir: tr.dir });
}

/** A dead end in the reader's language: `key` names the heading and text messages (page.<key>Heading/Text). */
export function renderMessagePageIn(
  tr: Translator,
  key: 'notFound' | 'tooMany' | 'unreadable' | 'notAccepted' | 'tooLarge' | 'badRequest' | 'error',
  values: Record<string, string | number> = {},
  detail?: string,
): string {
  return renderMessagePage(tr.t(`page.${key}Heading`), tr.t(`page.${key}Text`, values), detail, tr);
}

/** The 404 page: no quiz to take a language from, so the browser's Accept-Language decides. */
export const NOT_FOUND_PAGE = (tr: Translator = translator('en')) => renderMessagePageIn(tr, 'notFound');
