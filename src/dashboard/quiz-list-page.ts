import type { Response } from 'express';
import type { browseQuizzes, QuizListStatus } from '../domain/quizzes/list-quizzes';
import { html, type Html } from '../web/html';
import { field, selectField } from '../web/parts';
import type { Flash } from '../web/session-flash';
import type { ownerSummary, recentResponses } from '../domain/quizzes/owner-summary';
import { formatTime, noticeBox, plural, readerZone, sendPage } from '../web/page-shell';

type QuizList = Awaited<ReturnType<typeof browseQuizzes>>;
type QuizItem = QuizList['quizzes'][number];

export function statusBadge(status: string): Html {
  return html`<span class="badge ${status}">${status === 'published' ? 'Published' : 'Draft'}</span>`;
}

/** A closed quiz (published, no longer taking responses) says so beside its status. */
function closedBadge(quiz: QuizItem): Html {
  return quiz.status === 'published' && !quiz.accepting_responses
    ? html` <span class="badge closed">Closed</span>`
    : html``;
}

/** The row's actions behind one disclosure button (no script), named for its quiz. */
function rowMenu(quiz: QuizItem): Html {
  const base = `/dashboard/quizzes/${quiz.quiz_id}`;
  return html`<details class="row-menu">
    <summary>Actions<span class="sr-only"> for ${quiz.title}</span></summary>
    <ul>
      <li><a href="${base}">Results</a></li>
      <li><a href="${base}/edit">Edit</a></li>
      ${quiz.public_url ? html`<li><a href="${base}#share-title">Share</a></li>` : ''}
      ${quiz.public_url ? html`<li><a href="${quiz.public_url}">Public page</a></li>` : ''}
      <li><a href="${base}/delete" class="danger-link">Delete</a></li>
    </ul>
  </details>`;
}

function quizCard(quiz: QuizItem, zone: string): Html {
  return html`<li class="card">
    <div class="card-head">
      <h2 class="card-title">
        <a href="/dashboard/quizzes/${quiz.quiz_id}">${quiz.title}</a>
        ${statusBadge(quiz.status)}${closedBadge(quiz)}
      </h2>
      ${rowMenu(quiz)}
    </div>
    <p class="card-meta">
      ${plural(quiz.question_count, 'question', 'questions')} ·
      ${plural(quiz.response_count, 'response', 'responses')} · created
      ${formatTime(quiz.created_at, undefined, zone)}
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
      <a href="/dashboard/quizzes/new">Create one here</a>, or
      <a href="/#connect">connect your assistant</a> (or give a script an
      <a href="/settings/security/api-keys">API key</a>) and ask it to. It shows up here with its results.
    </p>
  </div>`;
}

export interface QuizListQuery {
  search: string;
  status: QuizListStatus | '';
}

const STATUS_LABELS: Record<QuizListStatus | '', string> = {
  '': 'All',
  draft: 'Drafts',
  published: 'Published',
  open: 'Open for responses',
  closed: 'Closed',
};

/** `/dashboard/quizzes` with the search and filter kept, and `extra` (a cursor) added. */
function listHref(query: QuizListQuery, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams({
    ...(query.search ? { q: query.search } : {}),
    ...(query.status ? { status: query.status } : {}),
    ...extra,
  }).toString();
  return params ? `/dashboard/quizzes?${params}` : '/dashboard/quizzes';
}

/** Search and status filter: a plain GET form, so the result is a link that can be kept. */
function filterForm(query: QuizListQuery): Html {
  return html`<form class="list-filter" method="get" action="/dashboard/quizzes" role="search">
    ${field({ id: 'q', name: 'q', type: 'search', label: 'Search titles', value: query.search, maxlength: 200 })}
    ${selectField({
      id: 'status',
      name: 'status',
      label: 'Show',
      value: query.status,
      choices: (Object.keys(STATUS_LABELS) as Array<QuizListStatus | ''>).map((value) => ({
        value,
        label: STATUS_LABELS[value],
      })),
    })}
    <button type="submit" class="secondary">Filter</button>
  </form>`;
}

export function sendQuizListPage(
  res: Response,
  list: QuizList,
  options: { paged: boolean; flash: Flash | null; query: QuizListQuery },
): void {
  const { query } = options;
  const filtered = query.search !== '' || query.status !== '';
  const pager = html`<nav class="pager" aria-label="More quizzes">
    ${options.paged ? html`<a href="${listHref(query)}">Newest quizzes</a>` : ''}
    ${list.next_cursor ? html`<a href="${listHref(query, { after: list.next_cursor })}">Older quizzes →</a>` : ''}
  </nav>`;
  const zone = readerZone(res);
  sendPage(res, {
    title: 'Your quizzes',
    section: 'quizzes',
    body: html`<div class="page-head">
        <h1>Your quizzes</h1>
        <div>
          <a class="button" href="/dashboard/quizzes/new">New quiz</a>
          <a class="button secondary" href="/dashboard/quizzes/import">Import questions</a>
        </div>
      </div>
      ${noticeBox(options.flash)} ${filtered || list.quizzes.length > 0 ? filterForm(query) : ''}
      ${
        list.quizzes.length === 0 && !options.paged
          ? filtered
            ? html`<p class="empty" role="status">
                No quiz matches. <a href="/dashboard/quizzes">Show all your quizzes</a>.
              </p>`
            : emptyState()
          : html`<ul class="cards">
              ${list.quizzes.map((quiz) => quizCard(quiz, zone))}
            </ul>`
      }
      ${pager}`,
  });
}

/** A quiz taking responses, in one line: where its results are and how many came in. */
function openRow(quiz: QuizItem): Html {
  return html`<li>
    <a href="/dashboard/quizzes/${quiz.quiz_id}">${quiz.title}</a> ·
    ${plural(quiz.response_count, 'response', 'responses')}
  </li>`;
}

type RecentResponse = Awaited<ReturnType<typeof recentResponses>>[number];

function recentRow(response: RecentResponse, zone: string): Html {
  return html`<li>
    <a href="/dashboard/quizzes/${response.quiz.quiz_id}/responses/${response.response_id}"
      >${response.quiz.title}</a
    >: ${response.respondent_name ?? html`<span class="muted">someone</span>`} scored ${response.score} of
    ${response.max_score} · ${formatTime(response.submitted_at, undefined, zone)}
  </li>`;
}

/** /dashboard: the counts, what is open now, the latest responses, the newest quizzes, the next step. */
export function sendOverviewPage(
  res: Response,
  state: {
    email: string;
    summary: Awaited<ReturnType<typeof ownerSummary>>;
    latest: QuizList;
    open: QuizList;
    recent: RecentResponse[];
    flash: Flash | null;
  },
): void {
  const { summary, latest, open, recent } = state;
  const zone = readerZone(res);
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
      <p class="actions">
        <a class="button" href="/dashboard/quizzes/new">New quiz</a>
        <span class="muted"
          >or ask your assistant (<a href="/#connect">connect it</a> if you have not yet).</span
        >
      </p>
      <h2>Open now</h2>
      ${
        open.quizzes.length === 0
          ? html`<p class="muted">No quiz is taking responses at the moment.</p>`
          : html`<ul class="open-now">
                ${open.quizzes.map(openRow)}
              </ul>
              <p><a href="/dashboard/quizzes?status=open">All open quizzes →</a></p>`
      }
      <h2>Latest responses</h2>
      ${
        recent.length === 0
          ? html`<p class="muted">No responses yet: they appear here as people answer your quizzes.</p>`
          : html`<ul class="recent-responses">
              ${recent.map((response) => recentRow(response, zone))}
            </ul>`
      }
      <h2>Newest quizzes</h2>
      ${
        latest.quizzes.length === 0
          ? emptyState()
          : html`<ul class="cards">
                ${latest.quizzes.map((quiz) => quizCard(quiz, zone))}
              </ul>
              <p><a href="/dashboard/quizzes">All your quizzes →</a></p>`
      }`,
  });
}
