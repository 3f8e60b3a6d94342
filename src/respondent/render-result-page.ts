import type { ReviewItem } from '../domain/results/answer-review';
import type { ResponseResult } from '../domain/results/get-response-result';
import { html, type Html } from '../web/html';
import { layout } from '../web/layout';
import { ROBOTS } from './render-quiz-page';

function scoreCard(score: NonNullable<ResponseResult['score']>): Html {
  // percent is null when the quiz's maximum is 0; passed is null without a pass mark.
  const percent = score.percent === null ? '' : html`<p class="percent">${score.percent}%</p>`;
  const verdict =
    score.passed === null
      ? ''
      : html`<p class="verdict ${score.passed ? 'pass' : 'fail'}">
          ${score.passed ? 'Passed' : 'Not passed'}
        </p>`;
  return html`<section class="result-card" aria-labelledby="result-title">
    <h2 id="result-title">Your score</h2>
    <p class="score">
      <span class="score-value">${score.score}</span>
      <span class="score-max">out of ${score.max_score}</span>
    </p>
    ${percent} ${verdict}
  </section>`;
}

const ANSWER_WORDS: Record<string, string> = { yes: 'Yes', no: 'No' };
const said = (answer: string) => ANSWER_WORDS[answer] ?? answer;

function yourAnswer(item: ReviewItem): Html | string {
  if (item.your_answer === null) return html`<em>not answered</em>`;
  if (item.your_answer === '' && item.type === 'multiple_select') return html`<em>none ticked</em>`;
  return said(item.your_answer);
}

function reviewItem(item: ReviewItem, index: number): Html {
  const earned =
    item.points === null
      ? ''
      : html`<span class="review-points"
          >${item.points} of ${item.max_points} ${item.max_points === 1 ? 'point' : 'points'}</span
        >`;
  const right =
    item.correct_answers === null
      ? html`<p class="muted">This question has changed since you answered it.</p>`
      : item.correct_answers.length === 0
        ? html`<p class="muted">This question has no right answer: it collects your thoughts.</p>`
        : html`<p>
            <span class="review-label"
              >${item.correct_answers.length === 1 ? 'Right answer' : 'Right answers'}:</span
            >
            ${item.correct_answers.map(said).join(', ')}
          </p>`;
  return html`<li class="review-item">
    <h3 class="question-text"><span class="muted">${index + 1}.</span> ${item.text}</h3>
    <p>
      <span class="review-label">Your answer:</span>
      ${yourAnswer(item)} ${earned}
    </p>
    ${right} ${item.explanation ? html`<p class="review-explanation">${item.explanation}</p>` : ''}
  </li>`;
}

function answerReview(review: ReviewItem[]): Html {
  return html`<section class="review" aria-labelledby="review-title">
    <h2 id="review-title">Your answers</h2>
    <ol class="review-list">
      ${review.map(reviewItem)}
    </ol>
  </section>`;
}

/**
 * GET /q/:slug/r/:responseId: the score when the quiz shows it, a thank-you either way, and
 * each answer with the key and explanations once the quiz's setting shows them.
 */
export function renderResultPage(result: ResponseResult): string {
  const review = result.review ? answerReview(result.review) : '';
  const body = result.score
    ? html`<p class="eyebrow">${result.quiz.title}</p>
        <h1>Your result</h1>
        ${scoreCard(result.score)}
        <p>Thank you for taking this quiz. Your answers have been recorded.</p>
        ${review}`
    : html`<p class="eyebrow">${result.quiz.title}</p>
        <h1>Thank you</h1>
        <p>Your answers have been recorded.</p>
        ${review}`;
  return layout({
    title: `${result.score ? 'Your result' : 'Thank you'}: ${result.quiz.title}`,
    body,
    robots: ROBOTS,
  });
}

/** Plain pages for the respondent routes' dead ends (404, 413, 500...): HTML, since a person reads them. */
export function renderMessagePage(heading: string, message: string, detail?: string): string {
  const body = html`<h1>${heading}</h1>
    <p>${message}</p>
    ${detail ? html`<p class="muted">${detail}</p>` : ''}`;
  return layout({ title: heading, body, robots: ROBOTS });
}

export const NOT_FOUND_PAGE = () =>
  renderMessagePage(
    'Quiz not found',
    'There is no quiz at this address. Check the link you were given: the quiz may not be published yet, or it may have been removed.',
  );
