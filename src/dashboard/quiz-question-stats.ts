import type { getQuizQuestions } from '../domain/quizzes/get-quiz';
import type { getResults } from '../domain/reporting/get-results';
import { matchesAcceptedAnswer, withinTolerance } from '../domain/answer-text';
import type { QuestionType } from '../domain/question-types';
import { html, type Html } from '../web/html';
import { optionPicture, questionImage } from '../web/images';
import type { ImageRecord } from '../domain/images/image-ref';
import { formatNumber } from '../web/page-shell';
import { richText, type RichTextOptions } from '../web/rich-text';
import { answerChart, type Bar } from './charts';

type Questions = Awaited<ReturnType<typeof getQuizQuestions>>;
type Results = Awaited<ReturnType<typeof getResults>>;
type Stat = Results['questions'][number];

function share(count: number, total: number): string {
  return total === 0 ? '' : ` (${Math.round((count / total) * 100)}%)`;
}

/** One answer's row of the table that states the chart's numbers. */
function countRow(label: Html | string, detail: string, count: number, total: number): Html {
  return html`<tr>
    <th scope="row"><bdi>${label}</bdi></th>
    <td class="num">${detail}</td>
    <td class="num">${count}${share(count, total)}</td>
  </tr>`;
}

const TYPE_NAMES: Record<QuestionType, string> = {
  yes_no: 'Yes / no',
  multiple_choice: 'Multiple choice',
  multiple_select: 'Tick all that apply',
  short_text: 'Typed answer',
  number: 'Number',
  ordering: 'Put in order',
  matching: 'Matching',
  fill_in_blanks: 'Fill in the blanks',
  scale: 'Opinion scale',
  essay: 'Essay',
};

type Question = Questions['questions'][number];

interface Breakdown {
  bars: Bar[];
  rows: Html[];
  /** The table's last column: what the counts count. */
  counted: string;
  /** A line under the meta, for figures the table does not hold. */
  note?: string;
}

/** A question's chart bars and the table rows that state the same numbers, by type. */
function breakdownOf(
  question: Question,
  stat: Stat | undefined,
  answered: number,
  rich: RichTextOptions,
): Breakdown {
  const counted = 'Chosen';
  switch (question.type) {
    case 'yes_no': {
      const yes = stat?.type === 'yes_no' ? stat.yes_count : 0;
      const no = stat?.type === 'yes_no' ? stat.no_count : 0;
      // A yes/no question's points go to its answer key; the other answer earns 0.
      const earns = (answer: 'yes' | 'no') => (question.correct_answer === answer ? question.points : 0);
      return {
        counted,
        bars: [
          { label: 'Yes', count: yes, kind: earns('yes') > 0 ? 'best' : 'plain' },
          { label: 'No', count: no, kind: earns('no') > 0 ? 'best' : 'plain' },
        ],
        rows: [
          countRow('Yes', `${earns('yes')} pts`, yes, answered),
          countRow('No', `${earns('no')} pts`, no, answered),
        ],
      };
    }
    case 'multiple_choice':
    case 'multiple_select': {
      const counts = stat?.type === 'multiple_choice' || stat?.type === 'multiple_select' ? stat.options : [];
      const best = Math.max(...question.options.map((option) => option.score));
      // The right options: the best one to choose, or every one that earns points when ticked.
      const right = (score: number) =>
        question.type === 'multiple_select' ? score > 0 : score === best && best > 0;
      return {
        counted: question.type === 'multiple_select' ? 'Ticked' : counted,
        bars: question.options.map((option, index) => ({
          label: option.label,
          count: counts[index]?.count ?? 0,
          kind: right(option.score) ? 'best' : 'plain',
        })),
        rows: question.options.map((option, index) =>
          countRow(richText(option.label, rich), `${option.score} pts`, counts[index]?.count ?? 0, answered),
        ),
      };
    }
    case 'short_text': {
      const common = stat?.type === 'short_text' ? stat.common_answers : [];
      const accepted = question.accepted_answers;
      const earns = (answer: string) =>
        accepted.length > 0 && matchesAcceptedAnswer(answer, accepted) ? question.points : 0;
      return {
        counted: 'Given',
        note: rightNote(stat?.type === 'short_text' ? stat.right_count : null, answered),
        bars: common.map((entry) => ({
          label: entry.answer,
          count: entry.count,
          kind: earns(entry.answer) > 0 ? 'best' : 'plain',
        })),
        rows: common.map((entry) =>
          countRow(entry.answer, `${earns(entry.answer)} pts`, entry.count, answered),
        ),
      };
    }
    case 'number': {
      // The most common values, in numeric order: the spread around the right one at a glance.
      const common = [...(stat?.type === 'number' ? stat.common_values : [])].sort(
        (a, b) => a.value - b.value,
      );
      const earns = (value: number) =>
        withinTolerance(value, question.correct_number, question.tolerance) ? question.points : 0;
      return {
        counted: 'Given',
        note: rightNote(stat?.type === 'number' ? stat.right_count : null, answered),
        bars: common.map((entry) => ({
          label: formatNumber(entry.value),
          count: entry.count,
          kind: earns(entry.value) > 0 ? 'best' : 'plain',
        })),
        rows: common.map((entry) =>
          countRow(formatNumber(entry.value), `${earns(entry.value)} pts`, entry.count, answered),
        ),
      };
    }
    case 'ordering': {
      // Per position: how many put the right item there; the most common wrong item beside it.
      const positions = stat?.type === 'ordering' ? stat.positions : [];
      return {
        counted: 'Right there',
        note: rightNote(stat?.type === 'ordering' ? stat.right_count : null, answered)?.replace(
          'Most common answers:',
          'Per position:',
        ),
        bars: positions.map((position) => ({
          label: `${position.position}. ${position.right_item}`,
          count: Math.round((position.right_share ?? 0) * answered),
          kind: 'best',
        })),
        rows: positions.map((position) =>
          countRow(
            html`${position.position}. ${richText(position.right_item, rich)}`,
            position.common_wrong_item
              ? `most often wrong: ${position.common_wrong_item} (${position.common_wrong_count})`
              : '',
            Math.round((position.right_share ?? 0) * answered),
            answered,
          ),
        ),
      };
    }
    case 'fill_in_blanks': {
      // Per blank: how many got it right; the most common wrong answer beside it.
      const blanks = stat?.type === 'fill_in_blanks' ? stat.blanks : [];
      const label = (blank: number) => `Blank ${blank}`;
      return {
        counted: 'Right',
        bars: blanks.map((blank) => ({
          label: label(blank.blank),
          count: Math.round((blank.right_share ?? 0) * answered),
          kind: 'best',
        })),
        rows: blanks.map((blank) =>
          countRow(
            label(blank.blank),
            blank.common_wrong_answer
              ? `most often wrong: ${blank.common_wrong_answer} (${blank.common_wrong_count})`
              : '',
            Math.round((blank.right_share ?? 0) * answered),
            answered,
          ),
        ),
      };
    }
    case 'matching': {
      // Per pair: how many matched the prompt right; the most common wrong match beside it.
      const pairs = stat?.type === 'matching' ? stat.pairs : [];
      return {
        counted: 'Matched right',
        note: rightNote(stat?.type === 'matching' ? stat.right_count : null, answered)?.replace(
          'Most common answers:',
          'Per pair:',
        ),
        bars: pairs.map((pair) => ({
          label: `${pair.prompt} → ${pair.right_match}`,
          count: Math.round((pair.right_share ?? 0) * answered),
          kind: 'best',
        })),
        rows: pairs.map((pair) =>
          countRow(
            `${pair.prompt} → ${pair.right_match}`,
            pair.common_wrong_match
              ? `most often wrong: ${pair.common_wrong_match} (${pair.common_wrong_count})`
              : '',
            Math.round((pair.right_share ?? 0) * answered),
            answered,
          ),
        ),
      };
    }
    case 'scale': {
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
        counted,
        note: figures ? scaleNote(figures) : undefined,
        bars: distribution.map((entry) => ({
          label: `${entry.value}${ends(entry.value)}`,
          count: entry.count,
          kind: 'plain',
        })),
        rows: distribution.map((entry) =>
          countRow(
            html`${entry.value}${richText(ends(entry.value), rich)}`,
            'unscored',
            entry.count,
            answered,
          ),
        ),
      };
    }
    case 'essay': {
      // Graded by hand: how many earned points so far; the answers are read in the grading queue.
      const right = stat?.type === 'essay' ? stat.right_count : null;
      return {
        counted: 'Graded above 0',
        note:
          right === null
            ? undefined
            : `${right} of ${answered} ${answered === 1 ? 'answer' : 'answers'} graded above 0${share(right, answered)}.`,
        bars: [],
        rows: [],
      };
    }
  }
}

/** A scale's mean and median, and from 0 to 10 its Net Promoter score with the counts behind it. */
function scaleNote(stat: Extract<Stat, { type: 'scale' }>): string {
  const parts = [`Mean ${formatNumber(stat.mean)}`, `median ${formatNumber(stat.median)}`];
  const nps = stat.net_promoter;
  if (nps) {
    parts.push(
      `Net Promoter score ${formatNumber(nps.score)} (${nps.promoters} promoters, ${nps.passives} passives, ${nps.detractors} detractors)`,
    );
  }
  return `${parts.join(' · ')}.`;
}

function rightNote(right: number | null, answered: number): string | undefined {
  if (right === null) return undefined;
  return `${right} of ${answered} ${answered === 1 ? 'answer' : 'answers'} right${share(right, answered)}. Most common answers:`;
}

const pts = (points: number) =>
  `${formatNumber(points)} ${points === 1 || points === -1 ? 'point' : 'points'}`;

/**
 * The question's answer key as the owner wrote it, before any answer comes in: the right yes/no
 * answer, each option's score (the right ones marked), the accepted answers, the right number
 * and its tolerance.
 */
function answerKey(question: Question, rich: RichTextOptions): Html {
  const row = (term: string, value: Html | string) =>
    html`<div>
      <dt>${term}</dt>
      <dd>${value}</dd>
    </div>`;
  switch (question.type) {
    case 'yes_no':
      return row(
        'Right answer',
        `${question.correct_answer === 'no' ? 'No' : 'Yes'}, ${pts(question.points)}`,
      );
    case 'multiple_choice':
    case 'multiple_select': {
      const best = Math.max(...question.options.map((option) => option.score));
      const right = (score: number) =>
        question.type === 'multiple_select' ? score > 0 : score === best && best > 0;
      return row(
        'Options',
        html`<ul class="key-options">
          ${question.options.map(
            (option) =>
              html`<li>
                <bdi>${richText(option.label, rich)}</bdi>:
                ${pts(option.score)}${
                  right(option.score) ? html` <span class="key-right">✓ right</span>` : ''
                }
                ${optionPicture((option as { image?: ImageRecord }).image)}
              </li>`,
          )}
        </ul>`,
      );
    }
    case 'short_text':
      return question.accepted_answers.length === 0
        ? row('Accepted answers', 'None: the answers are collected, not scored')
        : row(
            'Accepted answers',
            html`${question.accepted_answers.map(
              (answer, index) => html`${index > 0 ? ', ' : ''}<bdi>${answer}</bdi>`,
            )}
            (${pts(question.points)})`,
          );
    case 'ordering':
      return row(
        'Right order',
        html`<ol class="key-options">
            ${question.items.map((item) => html`<li><bdi>${richText(item.label, rich)}</bdi></li>`)}
          </ol>
          ${
            question.points_per_item === null
              ? `${pts(question.points)} for the whole order`
              : `${pts(question.points_per_item)} per item in its place`
          }`,
      );
    case 'fill_in_blanks':
      return row(
        'Blanks',
        html`<ol class="key-options">
          ${question.blanks.map(
            (blank) =>
              html`<li>
                <bdi
                  >${blank.options ? (blank.options[blank.correct_option ?? 0] ?? '') : (blank.accepted_answers ?? []).join(', ')}</bdi
                >${blank.options ? ` (from ${blank.options.length} options)` : ''}: ${pts(blank.points)}
              </li>`,
          )}
        </ol>`,
      );
    case 'essay':
      return question.rubric.length === 0
        ? row('Graded by hand', `up to ${pts(question.points)}`)
        : row(
            'Rubric',
            html`<ul class="key-options">
              ${question.rubric.map(
                (criterion) =>
                  html`<li>
                    <bdi>${criterion.criterion}</bdi>:
                    ${criterion.levels.map(
                      (level, index) =>
                        html`${index > 0 ? '; ' : ''}<bdi>${level.label}</bdi> ${pts(level.points)}`,
                    )}
                  </li>`,
              )}
            </ul>`,
          );
    case 'matching':
      return row(
        'Right pairs',
        html`<ul class="key-options">
            ${question.pairs.map((pair) => html`<li><bdi>${pair.prompt}</bdi> → <bdi>${pair.match}</bdi></li>`)}
          </ul>
          ${
            question.extra_matches.length > 0
              ? html`Also offered:
                ${question.extra_matches.map(
                  (extra, index) => html`${index > 0 ? ', ' : ''}<bdi>${extra.label}</bdi>`,
                )}. `
              : ''
          }${pts(question.points_per_pair)}
          per pair`,
      );
    case 'scale': {
      const [low, high] = question.scale_labels;
      const end = (value: number, words: string | undefined) =>
        words ? html`${value} (${richText(words, rich)})` : String(value);
      return row(
        'Scale',
        html`${end(question.scale_min, low)} to ${end(question.scale_max, high)}; an opinion, not scored`,
      );
    }
    case 'number':
      return row(
        'Right number',
        `${formatNumber(question.correct_number)}${
          question.tolerance > 0 ? `, give or take ${formatNumber(question.tolerance)}` : ''
        } (${pts(question.points)})`,
      );
  }
}

/** The answer key and explanation of a question, shown whether or not anyone answered. */
function keyList(question: Question, rich: RichTextOptions): Html {
  return html`<dl class="answer-key">
    ${answerKey(question, rich)}
    ${
      question.explanation
        ? html`<div>
            <dt>Explanation</dt>
            <dd dir="auto">${richText(question.explanation, rich)}</dd>
          </div>`
        : ''
    }
  </dl>`;
}

/**
 * Each question with its answer key and explanation and, once answered, its answer counts as a
 * chart and a table, from the same getResults the MCP tool returns (no empty charts before).
 */
export function questionStats(
  questions: Questions,
  results: Pick<Results, 'questions'>,
  rich: RichTextOptions,
): Html[] {
  const byId = new Map<string, Stat>(results.questions.map((stat) => [stat.question_id, stat]));
  return questions.questions.map((question) => {
    const stat = byId.get(question.question_id);
    const answered = stat?.answered_count ?? 0;
    // Answers waiting for a person's grade are left out of the figures, but they are answered.
    const pending = stat?.type === 'essay' ? stat.pending_count : 0;
    const awaiting = pending === 0 ? '' : ` · ${pending} awaiting a grade`;
    const meta = html`<p class="muted">
      ${TYPE_NAMES[question.type]}${
        answered === 0
          ? pending === 0
            ? ' · not answered yet'
            : awaiting
          : question.type === 'scale'
            ? ` · answered ${answered} ${answered === 1 ? 'time' : 'times'}`
            : html` · answered ${answered} ${answered === 1 ? 'time' : 'times'} · average
              ${formatNumber(stat?.average_points)}
              ${stat?.average_points === 1 ? 'point' : 'points'}${awaiting}`
      }
    </p>`;
    if (answered === 0) {
      return html`<li class="question">
        <p class="question-text" dir="auto">${richText(question.text, rich)}</p>
        ${questionImage(question.image)} ${meta} ${keyList(question, rich)}
      </li>`;
    }
    const { bars, rows, counted, note } = breakdownOf(question, stat, answered, rich);
    return html`<li class="question">
      <p class="question-text" dir="auto">${richText(question.text, rich)}</p>
      ${questionImage(question.image)} ${meta} ${keyList(question, rich)} ${note ? html`<p>${note}</p>` : ''}
      <figure class="chart-figure">
        ${answerChart({ label: `Answers to “${question.text}”`, bars, total: answered })}
        <figcaption class="sr-only">The table below gives the same numbers.</figcaption>
      </figure>
      <div class="table-wrap">
        <table class="answer-counts">
          <thead>
            <tr>
              <th scope="col">Answer</th>
              <th scope="col" class="num">Points</th>
              <th scope="col" class="num">${counted}</th>
            </tr>
          </thead>
          <tbody>
            ${rows}
          </tbody>
        </table>
      </div>
    </li>`;
  });
}
