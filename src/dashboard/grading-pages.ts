import type { Response } from 'express';
import type { answersToGrade } from '../domain/grading/grade-answers';
import { csrfField } from '../web/csrf';
import { html, type Html } from '../web/html';
import { formatTime, noticeBox, plural, sendPage } from '../web/page-shell';
import { dataTable, errorSummary, errorsFor, field, radioGroup, type FieldError } from '../web/parts';
import { richText, type RichTextOptions } from '../web/rich-text';
import type { Flash } from '../web/session-flash';
import { resultsNav } from './results-pages';

/**
 * The grading queue's pages: the index (each essay question with its answers waiting, pending
 * and proposed), and one answer at a time, walked across respondents (a question) or across
 * questions (a respondent). Every form works without scripts; "Save and next" is each answer
 * form's first button, so Enter saves and opens the next answer.
 */

export type AnswersToGradePage = Awaited<ReturnType<typeof answersToGrade>>;
type QueueQuestion = AnswersToGradePage['questions'][number];
type QueueAnswer = AnswersToGradePage['answers'][number];

export interface QueueQuiz {
  quiz_id: string;
  title: string;
}

/** A walk through the answers waiting: one question across respondents, or one respondent across questions. */
export type Walk = { kind: 'question'; id: string } | { kind: 'response'; id: string };

export const gradingPath = (quizId: string) => `/dashboard/quizzes/${quizId}/grading`;

export const walkPath = (quizId: string, walk: Walk) =>
  `${gradingPath(quizId)}/${walk.kind === 'question' ? 'questions' : 'responses'}/${walk.id}`;

export interface QueueRow {
  question: { question_id: string; position: number; text: string };
  pending: number;
  proposed: number;
}

function breadcrumb(quiz: QueueQuiz, here?: Html): Html {
  return html`<p class="breadcrumb">
    <a href="/dashboard/quizzes">Quizzes</a> ›
    <a href="/dashboard/quizzes/${quiz.quiz_id}" dir="auto">${quiz.title}</a> ›
    ${here ? html`<a href="${gradingPath(quiz.quiz_id)}">Grading</a> ›` : ''}
  </p>`;
}

/** "Approve all N proposed grades" of one question: one CSRF-checked POST. */
function approveAllForm(
  res: Response,
  quizId: string,
  questionId: string,
  count: number,
  position: number,
): Html {
  if (count === 0) return html``;
  return html`<form
    class="inline"
    method="post"
    action="${gradingPath(quizId)}/questions/${questionId}/approve-all"
  >
    ${csrfField(res)}
    <button type="submit" class="secondary">
      Approve all ${plural(count, 'proposed grade', 'proposed grades')}<span class="sr-only">
        of question ${position}</span
      >
    </button>
  </form>`;
}

/**
 * A queue cell's column name as a real line above its value on a phone (hidden on a wide screen,
 * where the column heading says it; hidden from screen readers, which read the heading).
 */
const cellLabel = (label: string) => html`<span class="cell-label" aria-hidden="true">${label}</span>`;

/** GET /dashboard/quizzes/:id/grading: each question graded by hand, with its answers waiting. */
export function sendQueueIndex(
  res: Response,
  data: { quiz: QueueQuiz; rows: readonly QueueRow[]; rich: RichTextOptions; flash: Flash | null },
): void {
  const { quiz, rows } = data;
  const waiting = rows.reduce((sum, row) => sum + row.pending + row.proposed, 0);
  const table = dataTable({
    className: 'grading-queue',
    columns: [
      { label: 'Question' },
      { label: 'Waiting for a grade', numeric: true },
      { label: 'Proposed, to approve', numeric: true },
      { label: 'Actions', hiddenLabel: true },
    ],
    rows: rows.map((row) => ({
      header: html`${cellLabel('Question')}<span class="muted">${row.question.position}.</span>
        <span dir="auto">${richText(row.question.text, data.rich)}</span>`,
      cells: [
        html`${cellLabel('Waiting for a grade')}<span class="cell-value">${String(row.pending)}</span>`,
        html`${cellLabel('Proposed, to approve')}<span class="cell-value">${String(row.proposed)}</span>`,
        html`<div class="queue-actions">
          ${
            row.pending + row.proposed > 0
              ? html`<a
                  class="button"
                  href="${walkPath(quiz.quiz_id, { kind: 'question', id: row.question.question_id })}"
                  >Grade<span class="sr-only"> question ${row.question.position}</span></a
                >`
              : html`<span class="muted">All graded</span>`
          }
          ${approveAllForm(res, quiz.quiz_id, row.question.question_id, row.proposed, row.question.position)}
        </div>`,
      ],
    })),
  });
  sendPage(res, {
    title: `Grading · ${quiz.title}`,
    section: 'quizzes',
    wide: true,
    body: html`${breadcrumb(quiz)} ${noticeBox(data.flash)}
      <h1>Grading <span class="muted">of open answers</span></h1>
      ${resultsNav(quiz.quiz_id, 'grading')}
      ${
        rows.length === 0
          ? html`<p class="muted">This quiz has no question graded by hand.</p>`
          : html`<p>
                ${
                  waiting === 0
                    ? 'Every answer is graded.'
                    : `${plural(waiting, 'answer waits', 'answers wait')} for your grade.`
                }
                Open a question to walk its answers one respondent after another, or grade a respondent's
                answers from their response page.
              </p>
              ${table}`
      }`,
  });
}

export interface AnswerFormState {
  /** The level index chosen per criterion (as sent back after a refusal, or the proposal's). */
  levels: ReadonlyArray<string | undefined>;
  points: string;
  feedback: string;
  errors: readonly FieldError[];
}

/** The form's state from the answer's proposal, or empty. */
export function initialState(answer: QueueAnswer): AnswerFormState {
  const proposal = answer.proposal;
  return {
    levels: proposal?.levels?.map(String) ?? [],
    points: proposal && !proposal.levels ? String(proposal.points) : '',
    feedback: proposal?.feedback ?? '',
    errors: [],
  };
}

function rubricFields(question: QueueQuestion, state: AnswerFormState): Html {
  if (question.rubric.length === 0) {
    return field({
      id: 'points',
      name: 'points',
      label: `Points (0 to ${question.max_points})`,
      value: state.points,
      inputmode: 'numeric',
      errors: errorsFor(state.errors, 'points'),
      className: 'short',
    });
  }
  return html`${question.rubric.map((criterion, index) =>
    radioGroup({
      id: `level-${index}`,
      name: `level_${index}`,
      legend: html`<span dir="auto">${criterion.criterion}</span>`,
      className: 'stacked-choices',
      value: state.levels[index] ?? '',
      errors: errorsFor(state.errors, `level-${index}`),
      choices: criterion.levels.map((level, levelIndex) => ({
        value: String(levelIndex),
        label: html`<span dir="auto">${level.label}</span> (${plural(level.points, 'point', 'points')})`,
      })),
    }),
  )}`;
}

/** Who proposed the grade and what, said above the form that holds it pre-selected. */
function proposalNote(answer: QueueAnswer, question: QueueQuestion): Html {
  const proposal = answer.proposal;
  if (!proposal) return html``;
  const by = proposal.graded_by.startsWith('assistant:')
    ? `the assistant (${proposal.graded_by.slice('assistant:'.length)})`
    : 'a teacher';
  return html`<p class="notice info">
    Proposed by <bdi>${by}</bdi>: ${proposal.points} of ${question.max_points} points, selected below. Approve
    it as it is, or change it and save your grade.
  </p>`;
}

/** The respondent's words as typed, escaped; no space may come between the tags and the text, which keeps its line breaks. */
// prettier-ignore
const studentText = (text: string) =>
  html`<blockquote class="student-text long-text" dir="auto" aria-labelledby="student-text-heading">${text}</blockquote>`;

/** GET a walk: one answer, its question and rubric, the grade form; where it is in the walk. */
export function sendAnswerPage(
  res: Response,
  data: {
    quiz: QueueQuiz;
    walk: Walk;
    /** The walk's heading: the question's text, or the respondent's name. */
    title: string;
    answer: QueueAnswer;
    question: QueueQuestion;
    /** 1-based place of the answer among the walk's waiting answers, and how many wait. */
    place: number;
    waiting: number;
    /** The answer after this one in the walk, for "Skip"; null at the end. */
    nextId: string | null;
    proposedInQuestion: number;
    state: AnswerFormState;
    rich: RichTextOptions;
    /** The account's zone: the submission time is shown in it. */
    timeZone: string;
    flash: Flash | null;
    status?: number;
  },
): void {
  const { quiz, walk, answer, question, state } = data;
  const here = walkPath(quiz.quiz_id, walk);
  const action = `${gradingPath(quiz.quiz_id)}/answers/${answer.answer_id}`;
  const walkField = html`<input type="hidden" name="walk" value="${walk.kind}:${walk.id}" />`;
  sendPage(res, {
    status: data.status ?? 200,
    title: `Grade: ${data.title} · ${quiz.title}`,
    section: 'quizzes',
    wide: true,
    body: html`${breadcrumb(quiz, html`Grading`)} ${noticeBox(data.flash)}
      ${errorSummary({ errors: state.errors, autofocus: true })}
      <h1>
        <span class="muted">${walk.kind === 'question' ? 'Question' : 'Respondent'}:</span>
        <bdi>${data.title}</bdi>
      </h1>
      <p class="muted">Answer ${data.place} of ${data.waiting} waiting in this walk.</p>
      ${
        walk.kind === 'question'
          ? approveAllForm(
              res,
              quiz.quiz_id,
              question.question_id,
              data.proposedInQuestion,
              question.position,
            )
          : ''
      }
      <section aria-labelledby="question-heading">
        <h2 id="question-heading">
          <span class="muted">${question.position}.</span>
          <span dir="auto">${richText(question.text, data.rich)}</span>
        </h2>
        <p class="muted">
          Submitted ${formatTime(new Date(answer.submitted_at), undefined, data.timeZone)} ·
          <a
            href="/dashboard/quizzes/${quiz.quiz_id}/responses/${answer.response_id}#answer-${question.question_id}"
            >The whole response</a
          >
        </p>
        <h3 id="student-text-heading">The respondent's answer</h3>
        ${studentText(answer.student_text)}
      </section>
      ${proposalNote(answer, question)}
      <form method="post" action="${action}" class="grade-form">
        ${csrfField(res)} ${walkField} ${rubricFields(question, state)}
        ${field({
          id: 'feedback',
          name: 'feedback',
          label: 'Comment to the respondent (optional)',
          hint: 'Shown on their review page once the grade is final.',
          value: state.feedback,
          multiline: true,
          rows: 4,
          maxlength: 2000,
          dir: 'auto',
          errors: errorsFor(state.errors, 'feedback'),
        })}
        <p class="actions">
          <button type="submit" name="then" value="next">Save and next</button>
          <button type="submit" name="then" value="stay" class="secondary">Save grade</button>
          ${
            answer.proposal
              ? html`<button type="submit" formaction="${action}/approve" class="secondary">
                  Approve the proposal and next
                </button>`
              : ''
          }
          ${data.nextId ? html`<a href="${here}?answer=${data.nextId}">Skip to the next answer</a>` : ''}
        </p>
        <p class="hint">Your grade is final: it counts in the score at once.</p>
      </form>`,
  });
}

/** A walk with nothing left to grade. */
export function sendWalkDone(
  res: Response,
  data: { quiz: QueueQuiz; walk: Walk; title: string; flash: Flash | null },
): void {
  sendPage(res, {
    title: `Grade: ${data.title} · ${data.quiz.title}`,
    section: 'quizzes',
    body: html`${breadcrumb(data.quiz, html`Grading`)} ${noticeBox(data.flash)}
      <h1>
        <span class="muted">${data.walk.kind === 'question' ? 'Question' : 'Respondent'}:</span>
        <bdi>${data.title}</bdi>
      </h1>
      <p>Nothing waits for a grade here.</p>
      <p><a class="button" href="${gradingPath(data.quiz.quiz_id)}">Back to the grading queue</a></p>`,
  });
}
