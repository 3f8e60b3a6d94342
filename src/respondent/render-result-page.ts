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

/** GET /q/:slug/r/:responseId: the score when the quiz shows it, a thank-you either way. */
export function renderResultPage(result: ResponseResult): string {
  const body = result.score
    ? html`<p class="eyebrow">${result.quiz.title}</p>
        <h1>Your result</h1>
        ${scoreCard(result.score)}
        <p>Thank you for taking this quiz. Your answers have been recorded.</p>`
    : html`<p class="eyebrow">${result.quiz.title}</p>
        <h1>Thank you</h1>
        <p>Your answers have been recorded.</p>`;
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
