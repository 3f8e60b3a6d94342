import { html } from '../../../web/html';
import { formatNumber } from '../../../web/page-shell';
import { richText } from '../../../web/rich-text';
import {
  countRow,
  keyRow,
  type ResultsFace,
  type QuestionStat,
} from '../../../dashboard/question-results-face';

/** Its part of the results page (dashboard/question-results-faces.ts). */
export const face: ResultsFace<'scale'> = {
  type: 'scale',
  name: 'Opinion scale',
  breakdown(question, stat, answered, rich) {
    // Every value in order, the empty ones too: the shape of the opinion at a glance.
    const figures = stat?.type === 'scale' ? stat : null;
    const distribution = figures?.distribution ?? [];
    const ends = (value: number) =>
      value === question.scale_min && question.scale_labels[0]
        ? ` (${question.scale_labels[0]})`
        : value === question.scale_max && question.scale_labels[1]
          ? ` (${question.scale_labels[1]})`
          : '';
    return {
      counted: 'Chosen',
      note: figures ? scaleNote(figures) : undefined,
      bars: distribution.map((entry) => ({
        label: `${entry.value}${ends(entry.value)}`,
        count: entry.count,
        kind: 'plain',
      })),
      rows: distribution.map((entry) =>
        countRow(html`${entry.value}${richText(ends(entry.value), rich)}`, 'unscored', entry.count, answered),
      ),
    };
  },
  answerKey(question, rich) {
    const [low, high] = question.scale_labels;
    const end = (value: number, words: string | undefined) =>
      words ? html`${value} (${richText(words, rich)})` : String(value);
    return keyRow(
      'Scale',
      html`${end(question.scale_min, low)} to ${end(question.scale_max, high)}; an opinion, not scored`,
    );
  },
};

/** A scale's mean and median, and from 0 to 10 its Net Promoter score with the counts behind it. */
function scaleNote(stat: Extract<QuestionStat, { type: 'scale' }>): string {
  const parts = [`Mean ${formatNumber(stat.mean)}`, `median ${formatNumber(stat.median)}`];
  const nps = stat.net_promoter;
  if (nps) {
    parts.push(
      `Net Promoter score ${formatNumber(nps.score)} (${nps.promoters} promoters, ${nps.passives} passives, ${nps.detractors} detractors)`,
    );
  }
  return `${parts.join(' · ')}.`;
}
