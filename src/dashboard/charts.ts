import { html, type Html } from '../web/html';

/**
 * Server-rendered SVG charts for the results page. No script and no inline style (the pages'
 * CSP allows neither): sizes are SVG attributes, colours come from the stylesheet's classes,
 * so they follow dark mode. Each chart is a `figure` whose SVG is one image with a short
 * description (role="img", aria-label); the same numbers are in a table next to it, which is
 * what a screen reader reads in full. A viewBox lets the SVG shrink to a phone's width.
 */

const WIDTH = 360;

function fit(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export interface Bar {
  label: string;
  count: number;
  /** A class for the bar's colour, e.g. the correct option. */
  kind?: 'best' | 'plain';
}

/** One answer distribution: a labelled row per answer, bar lengths proportional to its count. */
export function answerChart(options: {
  label: string;
  bars: Bar[];
  total: number;
  className?: string;
}): Html {
  const { bars, total } = options;
  const row = 40;
  const height = bars.length * row + 4;
  const most = Math.max(1, ...bars.map((bar) => bar.count));
  const description = `${options.label}: ${bars
    .map((bar) => `${bar.label} ${bar.count}${total ? ` (${Math.round((bar.count / total) * 100)}%)` : ''}`)
    .join(', ')}`;
  return html`<svg
    class="chart ${options.className ?? 'answers-chart'}"
    viewBox="0 0 ${WIDTH} ${height}"
    role="img"
    aria-label="${description}"
  >
    ${bars.map((bar, index) => {
      const y = index * row;
      const length = Math.round(((WIDTH - 70) * bar.count) / most);
      const share = total ? ` · ${Math.round((bar.count / total) * 100)}%` : '';
      return html`<g>
        <text class="chart-label" x="0" y="${y + 13}">${fit(bar.label, 48)}</text>
        <rect class="chart-track" x="0" y="${y + 19}" width="${WIDTH - 70}" height="14" rx="3"></rect>
        <rect
          class="chart-bar ${bar.kind === 'best' ? 'best' : ''}"
          x="0"
          y="${y + 19}"
          width="${length}"
          height="14"
          rx="3"
        ></rect>
        <text class="chart-value" x="${WIDTH - 64}" y="${y + 31}">${bar.count}${share}</text>
      </g>`;
    })}
  </svg>`;
}

export interface ScoreBin {
  /** Lowest and highest score in the bin (equal for a bin of one score). */
  from: number;
  to: number;
  count: number;
  /** Of `count`, responses waiting for a person's grade: neither passed nor not passed yet. */
  pending: number;
  /** Whether scores in this bin pass; null without a pass mark. */
  passed: boolean | null;
}

/**
 * Bins for a histogram of scores from `min` to `max`: one per score when there are few,
 * else at most 12 equal ranges. A bin never straddles the pass mark, so each is wholly
 * passed or not.
 */
export function scoreBins(
  counts: Array<{ score: number; count: number; pending?: number }>,
  range: { min: number; max: number; passScore: number | null },
): ScoreBin[] {
  const lowest = Math.min(range.min, ...counts.map((c) => c.score));
  const highest = Math.max(range.max, ...counts.map((c) => c.score));
  const span = highest - lowest + 1;
  const size = span <= 12 ? 1 : Math.ceil(span / 12);
  const bins: ScoreBin[] = [];
  const pass = range.passScore;
  let from = lowest;
  while (from <= highest) {
    let to = Math.min(from + size - 1, highest);
    // Split at the pass mark: the scores below it, and the scores from it on.
    if (pass !== null && from < pass && to >= pass) to = Math.ceil(pass) - 1;
    bins.push({ from, to, count: 0, pending: 0, passed: pass === null ? null : from >= pass });
    from = to + 1;
  }
  for (const { score, count, pending = 0 } of counts) {
    const bin = bins.find((candidate) => score >= candidate.from && score <= candidate.to);
    if (bin) {
      bin.count += count;
      bin.pending += pending;
    }
  }
  return bins;
}

export function binLabel(bin: ScoreBin): string {
  return bin.from === bin.to ? String(bin.from) : `${bin.from}–${bin.to}`;
}

/**
 * The score histogram: a column per bin, passing bins in one colour, failing ones in another;
 * responses waiting for a grade stacked on top in a neutral colour, as they are not passed or
 * failed yet.
 */
export function scoreHistogram(bins: ScoreBin[], passMarkPercent: number | null): Html {
  const height = 180;
  const base = height - 28;
  const gap = 4;
  const column = (WIDTH - gap * (bins.length - 1)) / Math.max(bins.length, 1);
  const most = Math.max(1, ...bins.map((bin) => bin.count));
  const total = bins.reduce((sum, bin) => sum + bin.count, 0);
  const pending = bins.reduce((sum, bin) => sum + bin.pending, 0);
  const passed = bins.filter((bin) => bin.passed).reduce((sum, bin) => sum + bin.count - bin.pending, 0);
  const description =
    `Scores of ${total} responses: ${bins.map((bin) => `${binLabel(bin)}: ${bin.count}`).join(', ')}` +
    (passMarkPercent === null ? '' : `. ${passed} passed the ${passMarkPercent}% mark.`) +
    (pending === 0 ? '' : ` ${pending} ${pending === 1 ? 'awaits' : 'await'} a grade: scored so far.`);
  const barAt = (x: number, top: number, barHeight: number, kind: string) =>
    html`<rect
      class="chart-bar ${kind}"
      x="${x}"
      y="${top}"
      width="${Math.max(column, 1)}"
      height="${barHeight}"
    ></rect>`;
  return html`<svg
    class="chart histogram"
    viewBox="0 0 ${WIDTH} ${height}"
    role="img"
    aria-label="${description}"
  >
    <line class="chart-axis" x1="0" y1="${base}" x2="${WIDTH}" y2="${base}"></line>
    ${bins.map((bin, index) => {
      const x = Math.round(index * (column + gap) * 10) / 10;
      const barHeight = Math.round(((base - 18) * bin.count) / most);
      const pendingHeight = Math.round(((base - 18) * bin.pending) / most);
      const kind = bin.passed === null ? '' : bin.passed ? 'pass' : 'fail';
      return html`<g>
        ${barAt(x, base - barHeight + pendingHeight, barHeight - pendingHeight, kind)}
        ${bin.pending > 0 ? barAt(x, base - barHeight, pendingHeight, 'pending') : ''}
        ${bin.count > 0 ? html`<text class="chart-value" x="${x + column / 2}" y="${base - barHeight - 4}" text-anchor="middle">${bin.count}</text>` : ''}
        <text class="chart-label" x="${x + column / 2}" y="${height - 10}" text-anchor="middle"
          >${binLabel(bin)}</text
        >
      </g>`;
    })}
  </svg>`;
}
