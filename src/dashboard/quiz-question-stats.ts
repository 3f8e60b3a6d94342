import type { getQuizQuestions } from '../domain/quizzes/get-quiz';
import type { getResults } from '../domain/results/get-results';
import { html, type Html } from '../web/html';
import { formatNumber } from '../web/page-shell';
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
    <th scope="row">${label}</th>
    <td class="num">${detail}</td>
    <td class="num">${count}${share(count, total)}</td>
  </tr>`;
}

/** Each question with its answer counts, from the same getResults the MCP tool returns. */
export function questionStats(questions: Questions, results: Results): Html[] {
  const byId = new Map<string, Stat>(results.questions.map((stat) => [stat.question_id, stat]));
  return questions.questions.map((question) => {
    const stat = byId.get(question.question_id);
    const answered = stat?.answered_count ?? 0;
    const meta = html`<p class="muted">
      ${question.type === 'yes_no' ? 'Yes / no' : 'Multiple choice'} · answered ${answered}
      ${answered === 1 ? 'time' : 'times'} · average ${formatNumber(stat?.average_points)}
      ${stat?.average_points === 1 ? 'point' : 'points'}
    </p>`;
    const yesCount = stat?.type === 'yes_no' ? stat.yes_count : 0;
    const noCount = stat?.type === 'yes_no' ? stat.no_count : 0;
    const optionCount = (index: number) =>
      stat?.type === 'multiple_choice' ? (stat.options[index]?.count ?? 0) : 0;
    const best =
      question.type === 'multiple_choice' ? Math.max(...question.options.map((option) => option.score)) : 0;
    // A yes/no question's points go to its answer key; the other answer earns 0.
    const earns = (answer: 'yes' | 'no') =>
      question.type === 'yes_no' && question.correct_answer === answer ? question.points : 0;
    const bars: Bar[] =
      question.type === 'yes_no'
        ? [
            { label: 'Yes', count: yesCount, kind: earns('yes') > 0 ? 'best' : 'plain' },
            { label: 'No', count: noCount, kind: earns('no') > 0 ? 'best' : 'plain' },
          ]
        : question.options.map((option, index) => ({
            label: option.label,
            count: optionCount(index),
            kind: option.score === best && best > 0 ? 'best' : 'plain',
          }));
    const rows =
      question.type === 'yes_no'
        ? [
            countRow('Yes', `${earns('yes')} pts`, yesCount, answered),
            countRow('No', `${earns('no')} pts`, noCount, answered),
          ]
        : question.options.map((option, index) =>
            countRow(
              option.label,
              `${option.score} pts`,
              stat?.type === 'multiple_choice' ? (stat.options[index]?.count ?? 0) : 0,
              answered,
            ),
          );
    return html`<li class="question">
      <p class="question-text">${question.text}</p>
      ${meta}
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
              <th scope="col" class="num">Chosen</th>
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
