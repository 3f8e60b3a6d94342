import type { Response } from 'express';
import type { getQuizQuestions } from '../domain/quizzes/get-quiz';
import type { getResults } from '../domain/reporting/get-results';
import type { listResponses } from '../domain/reporting/owned-responses';
import type { getResultsSummary } from '../domain/reporting/results-summary';
import type { ResponseGradingState } from '../domain/grading/grading-state';
import type { ScoreCount } from '../domain/reporting/score-distribution';
import { html, type Html } from '../web/html';
import { formatNumber, formatTime, noticeBox, sendPage } from '../web/page-shell';
import { dataTable, sectionNav } from '../web/parts';
import type { RichTextOptions } from '../web/rich-text';
import type { Flash } from '../web/session-flash';
import { binLabel, scoreBins, scoreHistogram, type ScoreBin } from './charts';
import { itemAnalysisSection, type ItemOrder } from './quiz-item-analysis';
import { questionStats } from './quiz-question-stats';

/** The results' sections, each at its own address under /dashboard/quizzes/:id/results/. */
export const RESULT_SECTIONS = ['summary', 'questions', 'items', 'responses'] as const;
export type ResultSection = (typeof RESULT_SECTIONS)[number];

const SECTION_NAMES: Record<ResultSection, string> = {
  summary: 'Summary',
  questions: 'Questions',
  items: 'Item analysis',
  responses: 'Responses',
};

export const resultsPath = (quizId: string, section: ResultSection) =>
  `/dashboard/quizzes/${quizId}/results/${section}`;

/**
 * Links between the results' sections, and the grading queue of open answers beside them;
 * `current` is marked (none on the quiz page).
 */
export function resultsNav(quizId: string, current?: ResultSection | 'grading'): Html {
  return sectionNav('Results', [
    ...RESULT_SECTIONS.map((section) => ({
      href: resultsPath(quizId, section),
      label: SECTION_NAMES[section],
      current: section === current,
    })),
    { href: `/dashboard/quizzes/${quizId}/grading`, label: 'Grading', current: current === 'grading' },
  ]);
}

type QuizQuestions = Awaited<ReturnType<typeof getQuizQuestions>>;
type QuizResults = Awaited<ReturnType<typeof getResults>>;
type Summary = Awaited<ReturnType<typeof getResultsSummary>>['summary'];
type QuizRef = { quiz_id: string; title: string };

/** The headline figures: on the quiz page and at the top of the summary. */
export function summaryStats(s: Summary, timeZone: string): Html {
  const average =
    s.average_score === null
      ? '–'
      : `${formatNumber(s.average_score)} of ${s.max_score} (${formatNumber(s.average_percent, '%')})`;
  // Nothing to score (opinion scales alone): no "0 of 0", a word instead.
  const scores =
    s.max_score === 0
      ? html`<div>
          <dt>Score</dt>
          <dd>None: no question is scored</dd>
        </div>`
      : html`<div>
            <dt>Average score</dt>
            <dd>${average}</dd>
          </div>
          <div>
            <dt>Highest / lowest</dt>
            <dd>${formatNumber(s.highest_score)} / ${formatNumber(s.lowest_score)}</dd>
          </div>`;
  return html`<dl class="stats">
    <div>
      <dt>Responses</dt>
      <dd>${s.response_count}</dd>
    </div>
    ${scores}
    ${
      s.pass_mark_percent === null
        ? ''
        : html`<div>
            <dt>Passed (mark ${formatNumber(s.pass_mark_percent, '%')})</dt>
            <dd>
              ${s.pass_count}${s.pass_rate === null ? '' : ` (${formatNumber(s.pass_rate * 100, '%')})`}
            </dd>
          </div>`
    }
    ${
      s.pending_count === 0
        ? ''
        : html`<div>
            <dt>Waiting for a grade</dt>
            <dd>${s.pending_count} ${s.pending_count === 1 ? 'response' : 'responses'} (scored so far)</dd>
          </div>`
    }
    <div>
      <dt>Last response</dt>
      <dd>${formatTime(s.last_submitted_at, 'None yet', timeZone)}</dd>
    </div>
  </dl>`;
}

/** A bin's result in the table: responses waiting for a grade are not called not passed. */
function binResult(bin: ScoreBin): Html | string {
  const verdict = bin.passed ? 'Passed' : 'Not passed';
  if (bin.pending === 0) return verdict;
  const waiting = `${bin.pending} awaiting a grade`;
  return bin.pending === bin.count
    ? html`<span class="muted">Awaiting a grade</span>`
    : html`${verdict}; <span class="muted">${waiting}</span>`;
}

/** The score histogram with its pass mark, and the same numbers as a table. */
function scoreSection(s: Summary, scores: ScoreCount[]): Html {
  if (s.response_count === 0 || s.max_score === 0) return html``;
  const passScore = s.pass_mark_percent === null ? null : (s.pass_mark_percent / 100) * s.max_score;
  const bins = scoreBins(scores, { min: 0, max: s.max_score, passScore });
  return html`<figure class="chart-figure" aria-labelledby="scores-caption">
    <figcaption id="scores-caption">
      Scores of all ${s.response_count}
      ${s.response_count === 1 ? 'response' : 'responses'}${
        s.pass_mark_percent === null
          ? ''
          : html` <span class="legend"
              ><span class="swatch pass" aria-hidden="true"></span> passed
              <span class="swatch fail" aria-hidden="true"></span> not passed (mark
              ${formatNumber(s.pass_mark_percent, '%')})${
                s.pending_count === 0
                  ? ''
                  : html` <span class="legend-item"
                      ><span class="swatch pending" aria-hidden="true"></span> awaiting a grade</span
                    >`
              }</span
            >`
      }
    </figcaption>
    ${scoreHistogram(bins, s.pass_mark_percent)}
    <details>
      <summary>Scores as a table</summary>
      <table class="answer-counts">
        <thead>
          <tr>
            <th scope="col">Score</th>
            <th scope="col" class="num">Responses</th>
            ${s.pass_mark_percent === null ? '' : html`<th scope="col">Result</th>`}
          </tr>
        </thead>
        <tbody>
          ${bins.map(
            (bin) =>
              html`<tr>
                <th scope="row">${binLabel(bin)}</th>
                <td class="num">${bin.count}</td>
                ${bin.passed === null ? '' : html`<td>${binResult(bin)}</td>`}
              </tr>`,
          )}
        </tbody>
      </table>
    </details>
  </figure>`;
}

/** A results section's page: the quiz it belongs to, the sections' links, then its own content. */
function sendSection(
  res: Response,
  quiz: QuizRef,
  section: ResultSection,
  body: Html,
  options: { flash?: Flash | null; scripts?: string[] } = {},
): void {
  sendPage(res, {
    title: `${SECTION_NAMES[section]} · ${quiz.title}`,
    section: 'quizzes',
    wide: true,
    body: html`<p class="breadcrumb">
        <a href="/dashboard/quizzes">Quizzes</a> ›
        <a href="/dashboard/quizzes/${quiz.quiz_id}" dir="auto">${quiz.title}</a> ›
      </p>
      ${noticeBox(options.flash ?? null)}
      <h1>${SECTION_NAMES[section]} <span class="muted">of the results</span></h1>
      ${resultsNav(quiz.quiz_id, section)} ${body}`,
  });
}

const noResponses = html`<p class="muted">No responses yet.</p>`;

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

/** The answers behind the pending responses: how many wait for a grade, how many for an approval. */
function toGradeNotice(toGrade: { pending: number; proposed: number }, pendingResponses: number): Html {
  if (pendingResponses === 0) return html``;
  return html`<div class="notice to-grade" role="status">
    <p>
      ${plural(pendingResponses, 'response waits', 'responses wait')} for a grade: their scores and results
      are not final yet, and the figures count them with their score so far.
    </p>
    <ul>
      <li>${plural(toGrade.pending, 'answer', 'answers')} to grade</li>
      <li>${plural(toGrade.proposed, 'proposed grade', 'proposed grades')} to approve</li>
    </ul>
  </div>`;
}

export function sendSummarySection(
  res: Response,
  data: Awaited<ReturnType<typeof getResultsSummary>>,
  timeZone: string,
): void {
  const { quiz, summary, scores } = data;
  sendSection(
    res,
    quiz,
    'summary',
    html`${summaryStats(summary, timeZone)} ${toGradeNotice(data.to_grade, summary.pending_count)}
      ${summary.response_count === 0 ? noResponses : scoreSection(summary, scores)}
      <p>
        <a class="button secondary" href="/dashboard/quizzes/${quiz.quiz_id}/responses.csv" download
          >Download responses (CSV)</a
        >
      </p>`,
  );
}

export function sendQuestionsSection(
  res: Response,
  questions: QuizQuestions,
  results: QuizResults,
  rich: RichTextOptions,
): void {
  sendSection(
    res,
    results.quiz,
    'questions',
    questions.questions.length === 0
      ? html`<p class="muted">This quiz has no questions yet.</p>`
      : html`<ol class="questions">
          ${questionStats(questions, results, rich)}
        </ol>`,
  );
}

export function sendItemsSection(
  res: Response,
  questions: QuizQuestions,
  results: QuizResults,
  order: ItemOrder,
  rich: RichTextOptions,
): void {
  const { quiz } = results;
  sendSection(
    res,
    quiz,
    'items',
    results.summary.response_count === 0
      ? noResponses
      : itemAnalysisSection(results, questions, order, resultsPath(quiz.quiz_id, 'items'), rich),
  );
}

type Listed = Awaited<ReturnType<typeof listResponses>>;
type ListedResponse = Listed['responses'][number];

/** Name and email, or "Anonymous"; owner-typed text isolated so it reads in its own direction. */
export function respondentName(respondent: ListedResponse['respondent']): string {
  return respondent.name ?? respondent.email ?? 'Anonymous';
}

/** The grading state in words; a dash for a response that no person grades. */
export function gradingStateBadge(state: ResponseGradingState | null): Html {
  return state === null
    ? html`<span class="muted">–</span>`
    : html`<span class="grading-state ${state}">${GRADING_STATE_WORDS[state]}</span>`;
}

export const GRADING_STATE_WORDS: Record<ResponseGradingState, string> = {
  pending: 'Pending: waiting for a grade',
  proposed: 'Proposed: grades to approve',
  final: 'Final',
};

/** The result in words; a response waiting for a grade is neither passed nor not passed yet. */
function resultOf(response: ListedResponse): Html | string {
  const verdict = response.passed === null ? '' : response.passed ? 'Passed' : 'Not passed';
  const timeUp = response.time_up ? 'time ran out' : '';
  const words = [verdict, timeUp].filter(Boolean).join(' · ');
  if (response.grading_state !== 'pending' && response.grading_state !== 'proposed') return words || '–';
  return html`<span class="muted">Awaiting a grade</span>${words ? ` · ${words}` : ''}`;
}

export function sendResponsesSection(
  res: Response,
  listed: Listed,
  options: { cursor: string | undefined; timeZone: string; flash?: Flash | null },
): void {
  const { quiz, responses } = listed;
  const base = `/dashboard/quizzes/${quiz.quiz_id}`;
  const here = resultsPath(quiz.quiz_id, 'responses');
  const when = (response: ListedResponse) => formatTime(response.submitted_at, undefined, options.timeZone);
  // The grading column only where some listed response holds an answer graded by a person.
  const graded = responses.some((response) => response.grading_state !== null);
  const table = dataTable({
    className: 'responses',
    columns: [
      { label: 'Respondent' },
      { label: 'Submitted' },
      { label: 'Score', numeric: true },
      { label: 'Result' },
      ...(graded ? [{ label: 'Grading' }] : []),
      { label: 'Actions', hiddenLabel: true },
    ],
    rows: responses.map((response) => ({
      header: html`<a href="${base}/responses/${response.response_id}"
          ><bdi>${respondentName(response.respondent)}</bdi></a
        >${
          response.respondent.name && response.respondent.email
            ? html`<br /><span class="muted">${response.respondent.email}</span>`
            : ''
        }`,
      cells: [
        when(response),
        response.max_score === 0
          ? html`<span class="muted">Not scored</span>`
          : html`${response.score} /
            ${response.max_score}${
              response.percent === null
                ? ''
                : html` <span class="muted">(${formatNumber(response.percent, '%')})</span>`
            }`,
        resultOf(response),
        ...(graded ? [gradingStateBadge(response.grading_state)] : []),
        html`<a href="${base}/responses/${response.response_id}/delete" class="danger-link"
          >Delete<span class="sr-only">
            the response of ${respondentName(response.respondent)} submitted ${when(response)}</span
          ></a
        >`,
      ],
    })),
  });
  sendSection(
    res,
    quiz,
    'responses',
    responses.length === 0
      ? html`<p class="muted">${options.cursor ? 'No older responses.' : 'No responses yet.'}</p>`
      : html`<p class="muted">Newest first. Open a respondent to see each answer.</p>
          ${table}
          <nav class="pager" aria-label="More responses">
            ${options.cursor ? html`<a href="${here}">Newest responses</a>` : ''}
            ${listed.next_cursor ? html`<a href="${here}?after=${listed.next_cursor}">Older responses →</a>` : ''}
          </nav>`,
    { flash: options.flash ?? null },
  );
}
