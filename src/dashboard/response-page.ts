import type { Response } from 'express';
import { storedDefinition } from '../domain/question-types';
import type { ReviewItem } from '../domain/taking/answer-review';
import type { getOwnedResponse } from '../domain/reporting/owned-responses';
import type { ImageRef } from '../domain/images/image-ref';
import { html, type Html } from '../web/html';
import { optionPicture, questionImage } from '../web/images';
import { formatNumber, formatTime, noticeBox, plural, sendPage } from '../web/page-shell';
import type { Flash } from '../web/session-flash';
import { richText, type RichTextOptions } from '../web/rich-text';
import { gradingStateBadge, respondentName, resultsNav, resultsPath } from './results-pages';

type OwnedResponse = Awaited<ReturnType<typeof getOwnedResponse>>;

/**
 * Right, partly right or wrong as a mark and a word (never colour alone), for a question with a
 * key and points to earn; nothing for one that only collects text.
 */
function verdict(item: ReviewItem): Html {
  if (item.points === null || !item.max_points || !item.correct_answers?.length) return html``;
  const [kind, mark, word] =
    item.points >= item.max_points
      ? ['right', '✓', 'Right']
      : item.points > 0
        ? ['partly', '◐', 'Partly right']
        : ['wrong', '✗', 'Wrong'];
  return html`<span class="verdict-mark ${kind}"><span aria-hidden="true">${mark}</span> ${word}</span>`;
}

/** Whether an answer is made of the owner's words (options, items), which are rich text; typed words are shown as typed. */
const choosesOwnerWords = (type: string) => !storedDefinition(type).answerIsTyped;

function givenAnswer(
  item: ReviewItem,
  timeUp: boolean,
  rich: RichTextOptions,
  options: Record<string, ImageRef> | undefined,
): Html {
  if (item.your_answer === null)
    return html`<em>${timeUp ? 'Not answered: the time ran out' : 'Not answered'}</em>`;
  if (item.your_answer === '') return html`<em>None ticked</em>`;
  const said = item.your_answer === 'yes' ? 'Yes' : item.your_answer === 'no' ? 'No' : item.your_answer;
  const answer = choosesOwnerWords(item.type) ? richText(said, rich) : said;
  const shown = html`<bdi class="review-answer">${answer}</bdi>`;
  return html`${shown}${optionPicture(options?.[item.your_answer])}`;
}

type AnswerActions = OwnedResponse['answer_actions'][number];

/**
 * What the owner may do with one answer: grade it while it waits for a grade, accept each typed
 * text its key does not accept yet, and override its points.
 */
function answerActions(
  actions: AnswerActions | undefined,
  paths: { answers: string; grading: string },
  number: number,
): Html {
  if (!actions) return html``;
  const waiting = actions.grade_state === 'pending' || actions.grade_state === 'proposed';
  return html`<ul class="answer-actions">
    ${
      waiting
        ? html`<li>
            <a href="${paths.grading}?answer=${actions.answer_id}"
              >${actions.grade_state === 'proposed' ? 'Review the proposed grade' : 'Grade it'}<span
                class="sr-only"
              >
                (answer ${number})</span
              ></a
            >
          </li>`
        : ''
    }
    ${actions.acceptable.map(
      ({ part, text }) =>
        html`<li>
          <a href="${paths.answers}/${actions.answer_id}/accept${part === null ? '' : `?blank=${part + 1}`}"
            >Accept “<bdi>${text}</bdi>”${part === null ? '' : ` for blank ${part + 1}`}<span class="sr-only">
              in answer ${number}</span
            ></a
          >
        </li>`,
    )}
    <li>
      <a href="${paths.answers}/${actions.answer_id}/override"
        >Override the points<span class="sr-only"> of answer ${number}</span></a
      >
    </li>
  </ul>`;
}

function answerItem(
  item: ReviewItem,
  index: number,
  timeUp: boolean,
  rich: RichTextOptions,
  picture: ImageRef | undefined,
  options: Record<string, ImageRef> | undefined,
  actions: Html = html``,
): Html {
  const right =
    item.correct_answers === null
      ? html`<p class="muted">
          The question was changed or removed since: its key is not the one this answer met.
        </p>`
      : item.correct_answers.length === 0
        ? ''
        : html`<p>
            <span class="review-label"
              >${item.correct_answers.length === 1 ? 'Right answer:' : 'Right answers:'}</span
            >
            ${item.correct_answers.map(
              (answer, n) =>
                html`${n > 0 ? ', ' : ''}<bdi>${answer === 'yes' ? 'Yes' : answer === 'no' ? 'No' : richText(answer, rich)}</bdi>${optionPicture(options?.[answer])}`,
            )}
          </p>`;
  // Each answer has an anchor of its own, for links to one answer (grading, a question's answers).
  return html`<li class="review-item" id="answer-${item.question_id}">
    <h3 class="question-text">
      <span class="muted">${index + 1}.</span> <span dir="auto">${richText(item.text, rich)}</span>
    </h3>
    ${questionImage(picture)}
    <p class="review-answer-line">
      ${verdict(item)} <span class="review-label">Answer:</span> ${givenAnswer(item, timeUp, rich, options)}
    </p>
    <p class="review-points">
      <span class="review-label">Points:</span>
      ${
        item.max_points === 0
          ? 'Not scored'
          : `${item.points ?? 0} of ${item.max_points ?? 0} ${item.max_points === 1 ? 'point' : 'points'}`
      }
    </p>
    ${right} ${actions}
  </li>`;
}

function metadata(data: OwnedResponse, timeZone: string): Html {
  const { response } = data;
  const row = (term: string, value: Html | string) =>
    html`<div>
      <dt>${term}</dt>
      <dd>${value}</dd>
    </div>`;
  const percent = response.percent === null ? '' : ` (${formatNumber(response.percent, '%')})`;
  // Not final while an answer waits for its grade: what is marked so far.
  const soFar =
    response.grading_state === 'pending' || response.grading_state === 'proposed' ? ', so far' : '';
  return html`<dl class="settings response-meta">
    ${row('Score', response.max_score === 0 ? 'None: no question is scored' : `${response.score} of ${response.max_score}${percent}${soFar}`)}
    ${
      soFar
        ? row('Result', html`<span class="muted">Awaiting a grade</span>`)
        : response.passed === null
          ? ''
          : row('Result', response.passed ? 'Passed' : 'Not passed')
    }
    ${response.grading_state === null ? '' : row('Grading', gradingStateBadge(response.grading_state))}
    ${row('Submitted', formatTime(response.submitted_at, undefined, timeZone))}
    ${row('Name', response.respondent.name ? html`<bdi>${response.respondent.name}</bdi>` : html`<span class="muted">Not given</span>`)}
    ${row('Email', response.respondent.email ?? html`<span class="muted">Not given</span>`)}
    ${response.time_up ? row('Sent', 'When the time ran out: blanks score 0') : ''}
    ${
      data.auto_submitted
        ? row(
            'Saved answers',
            html`Submitted automatically when the time ran out, from the answers saved at
            ${formatTime(data.auto_submitted.saved_at, undefined, timeZone)}`,
          )
        : ''
    }
    ${row('Quiz version', String(response.quiz_version))}
    ${
      response.remarked_at
        ? row(
            'Re-marked',
            html`${formatTime(response.remarked_at, undefined, timeZone)}; first scored
            ${response.original_score ?? '–'}`,
          )
        : ''
    }
  </dl>`;
}

/** GET /dashboard/quizzes/:quizId/responses/:responseId: one respondent, each answer marked. */
export function sendResponsePage(
  res: Response,
  data: OwnedResponse,
  timeZone: string,
  rich: RichTextOptions,
  flash: Flash | null = null,
): void {
  const { quiz, response } = data;
  const base = `/dashboard/quizzes/${quiz.quiz_id}`;
  const who = respondentName(response.respondent);
  const paths = {
    answers: `${base}/responses/${response.response_id}/answers`,
    grading: `${base}/grading/responses/${response.response_id}`,
  };
  const waiting = data.answer_actions.filter(
    (action) => action.grade_state === 'pending' || action.grade_state === 'proposed',
  ).length;
  const link = (id: string | null, rel: 'prev' | 'next', label: Html) =>
    id ? html`<a href="${base}/responses/${id}" rel="${rel}">${label}</a>` : html`<span></span>`;
  sendPage(res, {
    title: `${who} · ${quiz.title}`,
    section: 'quizzes',
    wide: true,
    body: html`<p class="breadcrumb">
        <a href="/dashboard/quizzes">Quizzes</a> ›
        <a href="/dashboard/quizzes/${quiz.quiz_id}" dir="auto">${quiz.title}</a> ›
        <a href="${resultsPath(quiz.quiz_id, 'responses')}">Responses</a> ›
      </p>
      ${noticeBox(flash)}
      <h1><bdi>${who}</bdi></h1>
      ${resultsNav(quiz.quiz_id)}
      <nav class="pager" aria-label="Respondents">
        ${link(data.previous_id, 'prev', html`← Previous<span class="sr-only"> respondent</span> (newer)`)}
        ${link(data.next_id, 'next', html`Next<span class="sr-only"> respondent</span> (older) →`)}
      </nav>
      ${metadata(data, timeZone)}
      ${
        waiting > 0
          ? html`<p class="notice info">
              ${plural(waiting, 'answer waits', 'answers wait')} for your grade.
              <a href="${paths.grading}">Grade this respondent's answers</a>
            </p>`
          : ''
      }
      <h2>Answers</h2>
      <ol class="review-list owner-review">
        ${data.answers.map((item, index) =>
          answerItem(
            item,
            index,
            response.time_up,
            rich,
            data.pictures[item.question_id],
            data.option_pictures[item.question_id],
            answerActions(data.answer_actions[index], paths, index + 1),
          ),
        )}
      </ol>
      <p class="actions">
        <a href="${base}/responses/${response.response_id}/delete" class="button secondary danger"
          >Delete this response</a
        >
      </p>`,
  });
}
