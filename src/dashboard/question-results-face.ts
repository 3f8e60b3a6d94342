import type { ImageRecord } from '../domain/images/image-ref';
import type { QuestionType } from '../domain/question-types/names';
import type { getQuizQuestions } from '../domain/quizzes/get-quiz';
import type { getResults } from '../domain/reporting/get-results';
import { html, type Html } from '../web/html';
import { optionPicture } from '../web/images';
import { formatNumber } from '../web/page-shell';
import { richText, type RichTextOptions } from '../web/rich-text';
import type { Bar } from './charts';

/**
 * What the results page asks of each question type (its face, in the type's folder as
 * results.ts), and the parts the faces build their figures from. The page asks the faces' table
 * (question-results-faces.ts), so it names no type; this module imports no face.
 */

type Questions = Awaited<ReturnType<typeof getQuizQuestions>>;
type Results = Awaited<ReturnType<typeof getResults>>;
/** A question as the results page shows it (its record, the answer key included). */
export type ResultsQuestion = Questions['questions'][number];
/** A question's statistics, from the same getResults the MCP tool returns. */
export type QuestionStat = Results['questions'][number];

export interface Breakdown {
  bars: Bar[];
  rows: Html[];
  /** The table's last column: what the counts count. */
  counted: string;
  /** A line under the meta, for figures the table does not hold. */
  note?: string | undefined;
}

/** A type's part of the results page. */
export interface ResultsFace<T extends QuestionType = QuestionType> {
  readonly type: T;
  /** Its name in each question's line of figures. */
  readonly name: string;
  /** Once answered: its chart's bars and the table rows that state the same numbers. */
  breakdown(
    question: Extract<ResultsQuestion, { type: T }>,
    stat: QuestionStat | undefined,
    answered: number,
    rich: RichTextOptions,
  ): Breakdown;
  /** Its answer key as the owner wrote it (one or more `keyRow`s), shown before any answer comes in. */
  answerKey(question: Extract<ResultsQuestion, { type: T }>, rich: RichTextOptions): Html;
}

/** The face of any one type (the faces' table holds one of each). */
export type AnyResultsFace = { [T in QuestionType]: ResultsFace<T> }[QuestionType];

export function share(count: number, total: number): string {
  return total === 0 ? '' : ` (${Math.round((count / total) * 100)}%)`;
}

/** One answer's row of the table that states the chart's numbers. */
export function countRow(label: Html | string, detail: string, count: number, total: number): Html {
  return html`<tr>
    <th scope="row"><bdi>${label}</bdi></th>
    <td class="num">${detail}</td>
    <td class="num">${count}${share(count, total)}</td>
  </tr>`;
}

export function rightNote(right: number | null, answered: number): string | undefined {
  if (right === null) return undefined;
  return `${right} of ${answered} ${answered === 1 ? 'answer' : 'answers'} right${share(right, answered)}. Most common answers:`;
}

export const pts = (points: number) =>
  `${formatNumber(points)} ${points === 1 || points === -1 ? 'point' : 'points'}`;

/** One term of the answer key's list. */
export const keyRow = (term: string, value: Html | string) =>
  html`<div>
    <dt>${term}</dt>
    <dd>${value}</dd>
  </div>`;

interface Options {
  options: ReadonlyArray<{ label: string; score: number }>;
}

/** A choice question's options with their counts; `right` marks the options that are right. */
export function optionsBreakdown(
  question: Options,
  counts: ReadonlyArray<{ count: number }>,
  answered: number,
  rich: RichTextOptions,
  options: { counted: string; right: (score: number) => boolean },
): Breakdown {
  return {
    counted: options.counted,
    bars: question.options.map((option, index) => ({
      label: option.label,
      count: counts[index]?.count ?? 0,
      kind: options.right(option.score) ? 'best' : 'plain',
    })),
    rows: question.options.map((option, index) =>
      countRow(richText(option.label, rich), `${option.score} pts`, counts[index]?.count ?? 0, answered),
    ),
  };
}

/** A choice question's options in its key: each one's score and picture, the right ones marked. */
export function optionsKey(
  question: Options,
  rich: RichTextOptions,
  right: (score: number) => boolean,
): Html {
  return keyRow(
    'Options',
    html`<ul class="key-options">
      ${question.options.map(
        (option) =>
          html`<li>
            <bdi>${richText(option.label, rich)}</bdi>:
            ${pts(option.score)}${right(option.score) ? html` <span class="key-right">✓ right</span>` : ''}
            ${optionPicture((option as { image?: ImageRecord }).image)}
          </li>`,
      )}
    </ul>`,
  );
}
