import { isUnscoredRecord } from '../domain/question-types';
import type { getQuizQuestions } from '../domain/quizzes/get-quiz';
import type { getResults } from '../domain/reporting/get-results';
import { html, type Html } from '../web/html';
import { questionImage } from '../web/images';
import { formatNumber } from '../web/page-shell';
import { richText, type RichTextOptions } from '../web/rich-text';
import { answerChart } from './charts';
import type { ResultsFace } from './question-results-face';
import { RESULTS_FACES } from './question-results-faces';

type Questions = Awaited<ReturnType<typeof getQuizQuestions>>;
type Results = Awaited<ReturnType<typeof getResults>>;
type Stat = Results['questions'][number];
type Question = Questions['questions'][number];

/**
 * A question's chart bars and the table rows that state the same numbers, and its answer key, as
 * its type shows them: the one place where a question is handed to the face of its own type,
 * which the compiler cannot correlate by itself.
 */
function faceOf(question: Question): ResultsFace<Question['type']> {
  return RESULTS_FACES[question.type] as unknown as ResultsFace<Question['type']>;
}

/** The answer key and explanation of a question, shown whether or not anyone answered. */
function keyList(question: Question, rich: RichTextOptions): Html {
  return html`<dl class="answer-key">
    ${faceOf(question).answerKey(question, rich)}
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
    const pending = stat && 'pending_count' in stat ? stat.pending_count : 0;
    const awaiting = pending === 0 ? '' : ` · ${pending} awaiting a grade`;
    const meta = html`<p class="muted">
      ${faceOf(question).name}${
        answered === 0
          ? pending === 0
            ? ' · not answered yet'
            : awaiting
          : isUnscoredRecord(question)
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
    const { bars, rows, counted, note } = faceOf(question).breakdown(question, stat, answered, rich);
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
