import type { Response } from 'express';
import type { listQuizzes } from '../domain/quizzes/list-quizzes';
import { html, type Html } from '../web/html';
import type { Flash } from '../web/session-flash';
import type { ownerSummary } from '../domain/quizzes/owner-summary';
import { formatTime, noticeBox, plural, sendPage } from '../web/page-shell';

type QuizList = Awaited<ReturnType<typeof listQuizzes>>;
type QuizItem = QuizList['quizzes'][number];

export function statusBadge(status: string): Html {
  return html`<span class="badge ${status}">${status === 'published' ? 'Published' : 'Draft'}</span>`;
}

function quizCard(quiz: QuizItem): Html {
  return html`<li class="card">
    <h2 class="card-title">
      <a href="/dashboard/quizzes/${quiz.quiz_id}">${quiz.title}</a> ${statusBadge(quiz.status)}
    </h2>
    <p class="card-meta">
      ${plural(quiz.question_count, 'question', 'questions')} ·
      ${plural(quiz.response_count, 'response', 'responses')} · created ${formatTime(quiz.created_at)}
    </p>
    ${
      quiz.public_url
        ? html`<p class="card-link">Public link: <a href="${quiz.public_url}">${quiz.public_url}</a></p>`
        : html`<p class="card-link muted">Not public yet: publish it to get a link.</p>`
    }
  </li>`;
}

function emptyState(): Html {
  return html`<div class="empty">
    <p><strong>You have no quizzes yet.</strong></p>
    <p>
      Quizzes are made by your AI assistant. <a href="/#connect">Connect your assistant</a> (or give a script
      an <a href="/settings/security/api-keys">API key</a>), then ask it to create a quiz. It shows up here
      with its results.
    </p>
  </div>`;
}

export function sendQuizListPage(
  res: Response,
  list: QuizList,
  options: { paged: boolean; flash: Flash | null },
): void {
  const pager = html`<nav class="pager" aria-label="More quizzes">
    ${options.paged ? html`<a href="/dashboard/quizzes">Newest quizzes</a>` : ''}
    ${list.next_cursor ? html`<a href="/dashboard/quizzes?after=${list.next_cursor}">Older quizzes →</a>` : ''}
  </nav>`;
  sendPage(res, {
    title: 'Your quizzes',
    section: 'quizzes',
    body: html`<h1>Your quizzes</h1>
      ${noticeBox(options.flash)}
      ${
        list.quizzes.length === 0 && !options.paged
          ? emptyState()
          : html`<ul class="cards">
              ${list.quizzes.map(quizCard)}
            </ul>`
      }
      ${pager}`,
  });
}

/** /dashboard: the counts, the newest quizzes, and the next step. */
export function sendOverviewPage(
  res: Response,
  state: {
    email: string;
    summary: Awaited<ReturnType<typeof ownerSummary>>;
    latest: QuizList;
    flash: Flash | null;
  },
): void {
  const { summary, latest } = state;
  sendPage(res, {
    title: 'Dashboard',
    section: 'dashboard',
    body: html`<h1>Dashboard</h1>
      ${noticeBox(state.flash)}
      <dl class="stats" aria-label="Your account in numbers">
        <div>
          <dt>Quizzes</dt>
          <dd>${summary.quizzes}</dd>
        </div>
        <div>
          <dt>Published</dt>
          <dd>${summary.published}</dd>
        </div>
        <div>
          <dt>Responses</dt>
          <dd>${summary.responses}</dd>
        </div>
      </dl>
      <p class="muted">
        Your assistant makes and changes quizzes; <a href="/#connect">connect it</a> if you have not yet.
      </p>
      <h2>Newest quizzes</h2>
      ${
        latest.quizzes.length === 0
          ? emptyState()
          : html`<ul class="cards">
                ${latest.quizzes.map(quizCard)}
              </ul>
              <p><a href="/dashboard/quizzes">All your quizzes →</a></p>`
      }`,
  });
}
