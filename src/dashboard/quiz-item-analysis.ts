import { isUnscoredRecord } from '../domain/question-types';
import type { getQuizQuestions } from '../domain/quizzes/get-quiz';
import type { getResults } from '../domain/reporting/get-results';
import { html, type Html } from '../web/html';
import { formatNumber } from '../web/page-shell';
import { dataTable } from '../web/parts';
import { richText, type RichTextOptions } from '../web/rich-text';
import { answerChart } from './charts';

type Results = Awaited<ReturnType<typeof getResults>>;
type Stat = Results['questions'][number];
type Questions = Awaited<ReturnType<typeof getQuizQuestions>>;

/** The orders the item-analysis table offers, by the `order` query parameter. */
export type ItemOrder = 'position' | 'flags';

export function itemOrderOf(value: string | undefined): ItemOrder {
  return value === 'flags' ? 'flags' : 'position';
}

const FLAG_NAMES: Record<string, string> = {
  too_easy: 'Too easy',
  too_hard: 'Too hard',
  negative_discrimination: 'Negative discrimination',
  weak_discrimination: 'Weak discrimination',
  wrong_option_favoured: 'Wrong option favoured',
};

const percent = (value: number | null) => (value === null ? '–' : `${Math.round(value * 100)}%`);
const twoPlaces = (value: number | null) => (value === null ? '–' : value.toFixed(2));

/** The answers of a choice question, in the order of its top/bottom shares. */
function answerLabels(stat: Stat): string[] {
  if ('yes_count' in stat) return ['Yes', 'No'];
  if ('options' in stat) return stat.options.map((o) => o.label);
  return [];
}

function groupsTable(stat: Stat, rich: RichTextOptions): Html {
  const labels = answerLabels(stat);
  if (!stat.top_shares || !stat.bottom_shares || labels.length === 0) return html``;
  return html`<details class="groups">
    <summary>Top and bottom 27% of “<bdi>${richText(stat.text, rich)}</bdi>”</summary>
    <div class="table-wrap">
      <table>
        <thead>
          <tr>
            <th scope="col">Answer</th>
            <th scope="col" class="num">Top 27%</th>
            <th scope="col" class="num">Bottom 27%</th>
          </tr>
        </thead>
        <tbody>
          ${labels.map(
            (label, index) =>
              html`<tr>
                <th scope="row"><bdi>${'options' in stat ? richText(label, rich) : label}</bdi></th>
                <td class="num">${percent(stat.top_shares![index]!)}</td>
                <td class="num">${percent(stat.bottom_shares![index]!)}</td>
              </tr>`,
          )}
        </tbody>
      </table>
    </div>
  </details>`;
}

/** Under a question: its answers waiting for a grade, which its figures leave out. */
function awaitingLine(stat: Stat): Html {
  const pending = 'pending_count' in stat ? stat.pending_count : 0;
  return pending === 0 ? html`` : html`<br /><span class="muted">${pending} awaiting a grade</span>`;
}

/** The answers waiting for a final grade, which the figures above leave out; nothing when none. */
function leftOut(results: Results): string {
  const pending = results.questions.reduce(
    (sum, stat) =>
      sum + ('pending_count' in stat && typeof stat.pending_count === 'number' ? stat.pending_count : 0),
    0,
  );
  return pending === 0
    ? ''
    : ` ${formatNumber(pending)} ${pending === 1 ? 'answer waits' : 'answers wait'} for a final grade and ${pending === 1 ? 'is' : 'are'} left out.`;
}

/**
 * Item analysis on the results page: reliability in words, facility as a chart, and a table of
 * every question's figures and flags (with reasons), sortable by flags through a plain link, so
 * it works without script. The table states the chart's numbers.
 */
export function itemAnalysisSection(
  results: Results,
  questions: Questions,
  order: ItemOrder,
  baseUrl: string,
  rich: RichTextOptions,
): Html {
  if (results.summary.response_count === 0) return html``;
  const { reliability } = results.item_analysis;
  // Unscored questions (opinions) have no facility or discrimination: they stay out, numbered as in the quiz.
  // Asked of each question, as the questions page asks it.
  const unscored = new Set(
    questions.questions.filter(isUnscoredRecord).map((question) => question.question_id),
  );
  const rows = results.questions
    .map((stat, index) => ({ stat, number: index + 1 }))
    .filter(({ stat }) => !unscored.has(stat.question_id));
  if (rows.length === 0)
    return html`<p class="muted">No question is scored, so there is no item analysis.</p>`;
  if (order === 'flags')
    rows.sort((a, b) => b.stat.flags.length - a.stat.flags.length || a.number - b.number);
  const sortLink = (to: ItemOrder, label: string) =>
    order === to
      ? html`<strong aria-current="true">${label}</strong>`
      : html`<a href="${baseUrl}?order=${to}">${label}</a>`;
  return html`<p>
      Reliability (Cronbach's alpha):
      ${reliability.value === null ? html`not computed. ${reliability.reason}` : html`<strong>${twoPlaces(reliability.value)}</strong>`}
    </p>
    <p class="muted">
      Facility: the share of the points earned. Discrimination: how the question's points follow the rest of
      the score (corrected item-total correlation, −1 to 1). Groups: the top and bottom 27% by percent.
    </p>
    <figure class="chart-figure">
      ${answerChart({
        label: 'Facility by question, percent of the points earned',
        bars: rows.map(({ stat, number }) => ({
          label: `${number}. ${stat.text}`,
          count: stat.facility === null ? 0 : Math.round(stat.facility * 100),
          kind: stat.flags.length > 0 ? 'plain' : 'best',
        })),
        total: 0,
        className: 'facility-chart',
      })}
      <figcaption class="sr-only">The table below gives the same numbers.</figcaption>
    </figure>
    <p>Order: ${sortLink('position', 'question order')} · ${sortLink('flags', 'flagged first')}</p>
    ${dataTable({
      className: 'item-analysis',
      columns: [
        { label: 'Question', sort: order === 'position' ? 'ascending' : 'none' },
        { label: 'Facility', numeric: true },
        { label: 'Discrimination', numeric: true },
        { label: 'Flags', sort: order === 'flags' ? 'descending' : 'none' },
      ],
      rows: rows.map(({ stat, number }) => ({
        header: html`${number}. <span dir="auto">${richText(stat.text, rich)}</span> ${awaitingLine(stat)}
          ${groupsTable(stat, rich)}`,
        cells: [
          percent(stat.facility),
          twoPlaces(stat.discrimination),
          stat.flags.length === 0
            ? html`<span class="muted">None</span>`
            : html`<ul class="flags">
                ${stat.flags.map(
                  (flag) =>
                    html`<li><strong>${FLAG_NAMES[flag.flag] ?? flag.flag}</strong>: ${flag.reason}</li>`,
                )}
              </ul>`,
        ],
      })),
    })}
    <p class="muted">
      ${formatNumber(results.summary.response_count)} responses counted.${leftOut(results)}
    </p>`;
}
