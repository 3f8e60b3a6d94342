import type { Response } from 'express';
import type { getQuizQuestions, getQuizSettings } from '../domain/quizzes/get-quiz';
import type { getResults } from '../domain/reporting/get-results';
import { csrfField } from '../web/csrf';
import { html, type Html } from '../web/html';
import { formatTime, noticeBox, sendPage } from '../web/page-shell';
import type { Flash } from '../web/session-flash';
import { statusBadge } from './quiz-list-page';
import { questionStats } from './quiz-question-stats';
import { resultsNav, summaryStats } from './results-pages';
import { sharePanel } from './quiz-share';
import { quizWarnings } from '../domain/quizzes/quiz-warnings';
import { SETTINGS, type SummaryLine } from '../domain/quiz-settings';
import {
  EXPORT_FORMAT_NAMES,
  EXPORT_FORMATS,
  exportNotesText,
  type ExportFormat,
} from '../domain/export/export-quiz';
import type { ExportedQuestion } from '../domain/export/exported';
import { signedLinkPath } from '../domain/links/quiz-links';

export type QuizQuestions = Awaited<ReturnType<typeof getQuizQuestions>>;
export type QuizSettings = Awaited<ReturnType<typeof getQuizSettings>>;
export type QuizResults = Awaited<ReturnType<typeof getResults>>;

export interface QuizPageData {
  questions: QuizQuestions;
  settings: QuizSettings;
  /** The results' headline figures; the rest is in the results' sections (results-pages.ts). */
  summary: QuizResults['summary'];
  /** The outcome of the last action (a quiz duplicated). */
  flash?: Flash | null;
  /** The account's time zone: every time on the page is shown in it. */
  timeZone: string;
  /** Per export format, what it cannot hold of each question (export-quiz.ts, exportLosses). */
  exportNotes: Readonly<Record<ExportFormat, readonly ExportedQuestion[]>>;
  /** Whether grade_answers may store the assistant's grades as final (set here only, off by default). */
  assistantGradesFinal: boolean;
}

const yesOrNo = (value: boolean) => (value ? 'Yes' : 'No');

/** One setting's line, as its entry in the table words it (domain/quiz-settings.ts). */
function settingLine(summary: SummaryLine, value: unknown, timeZone: string): Html {
  const shown =
    summary.kind === 'on_off'
      ? yesOrNo(value === true)
      : summary.kind === 'time'
        ? formatTime(value as string | null, summary.none, timeZone)
        : (summary.text as (stored: unknown) => string)(value);
  return html`<div>
    <dt>${summary.term}</dt>
    <dd>${shown}</dd>
  </div>`;
}

/** The lines of one group of settings, in the table's order. */
function settingLines({ settings, timeZone }: QuizPageData, group: 'how' | 'taking'): Html[] {
  return SETTINGS.flatMap((entry) =>
    entry.group === group && entry.summary
      ? [settingLine(entry.summary, settings[entry.name], timeZone)]
      : [],
  );
}

/**
 * Whether the public page takes responses now and, when not, the one reason: a draft, closed by
 * hand, or outside its window (one row, so "accepting" and "open" never disagree on screen).
 */
function openNow(status: string, settings: QuizPageData['settings']): string {
  if (settings.is_open) return 'Yes';
  if (status !== 'published') return 'No: it is a draft';
  if (!settings.accepting_responses) return 'No: closed by hand';
  if (settings.opens_at && Date.parse(settings.opens_at) > Date.now()) return 'No: not open yet';
  return 'No: its closing time has passed';
}

function settingsList(data: QuizPageData & { res: Response }): Html {
  const { settings, questions } = data;
  return html`<dl class="settings">
    ${settingLines(data, 'how')}
    <div>
      <dt>Open right now</dt>
      <dd>${openNow(questions.status, settings)}</dd>
    </div>
    ${settingLines(data, 'taking')}
    <div>
      <dt>Final grades from the assistant</dt>
      <dd>
        ${
          data.assistantGradesFinal
            ? 'Allowed: grades the assistant sends as final count at once.'
            : 'Off: the assistant’s grades wait for your approval.'
        }
        ${postButton(
          data.res,
          `/dashboard/quizzes/${questions.quiz_id}/assistant-grades`,
          data.assistantGradesFinal ? 'Require my approval' : 'Allow final grades from the assistant',
          { final: data.assistantGradesFinal ? 'false' : 'true' },
        )}
      </dd>
    </div>
    <div>
      <dt>Maximum score</dt>
      <dd>${settings.max_score}</dd>
    </div>
    <div>
      <dt>Created</dt>
      <dd>${formatTime(settings.created_at, undefined, data.timeZone)}</dd>
    </div>
    <div>
      <dt>Published</dt>
      <dd>${formatTime(settings.published_at, 'Not yet', data.timeZone)}</dd>
    </div>
    <div>
      <dt>Last changed</dt>
      <dd>${formatTime(settings.updated_at, undefined, data.timeZone)}</dd>
    </div>
  </dl>`;
}

/** A one-button form that posts to one of the quiz's actions (CSRF-checked). */
function postButton(res: Response, action: string, label: string, fields: Record<string, string> = {}): Html {
  return html`<form class="inline" method="post" action="${action}">
    ${csrfField(res)}${Object.entries(fields).map(
      ([name, value]) => html`<input type="hidden" name="${name}" value="${value}" />`,
    )}
    <button type="submit" class="secondary">${label}</button>
  </form>`;
}

/** Edit, publish, close or reopen, download, delete. */
function quizActions(res: Response, { questions, settings }: QuizPageData): Html {
  const base = `/dashboard/quizzes/${questions.quiz_id}`;
  const published = questions.status === 'published';
  // Preview opens the signed preview link in a new tab (a POST: making a link is an action).
  const preview = html`<form class="inline" method="post" action="${base}/preview" target="_blank">
    ${csrfField(res)}<button type="submit" class="secondary">Preview</button>
  </form>`;
  return html`<div class="actions quiz-actions">
    <a class="button" href="${base}/edit">Edit the quiz</a>
    ${published ? '' : html`<a class="button secondary" href="${base}/import">Import questions</a>`}
    ${preview} ${postButton(res, `${base}/duplicate`, 'Duplicate')}
    ${published ? '' : postButton(res, `${base}/publish`, 'Publish')}
    ${
      published
        ? settings.accepting_responses
          ? postButton(res, `${base}/accepting`, 'Close responses', { accepting: 'false' })
          : postButton(res, `${base}/accepting`, 'Reopen responses', { accepting: 'true' })
        : ''
    }
    <a class="button secondary" href="${base}/responses.csv" download>Download responses (CSV)</a>
    ${published ? html`<a class="button secondary" href="${base}/remark">Re-mark responses</a>` : ''}
    ${postButton(res, `${base}/links/renew`, 'Renew shared links')}
    <a class="button secondary danger" href="${base}/delete">Delete</a>
  </div>`;
}

/** What create_quiz, update_quiz and publish_quiz warn of, shown where the owner decides to publish. */
function warningsBox({ questions, settings }: QuizPageData): Html {
  const warnings = quizWarnings(questions.questions, {
    description: questions.description,
    mathDollars: settings.math_dollars,
  });
  if (warnings.length === 0) return html``;
  const position = new Map(questions.questions.map((question, index) => [question.question_id, index + 1]));
  return html`<section class="notice warning" aria-labelledby="warnings-heading">
    <h2 id="warnings-heading">Check before publishing</h2>
    <ul>
      ${warnings.map(
        (warning) =>
          html`<li>
            ${warning.question_id === null ? 'Description' : `Question ${position.get(warning.question_id) ?? ''}`}:
            ${warning.message}.
          </li>`,
      )}
    </ul>
  </section>`;
}

/** The questions as files other tools read, each with what its format cannot hold. */
function exportsPanel({ questions, exportNotes }: QuizPageData): Html {
  const quiz = { id: questions.quiz_id, slug: questions.slug };
  return html`<section aria-labelledby="export-heading">
    <h2 id="export-heading">Export the questions</h2>
    <p class="muted">For Moodle and the other tools that import these formats.</p>
    <ul class="exports">
      ${EXPORT_FORMATS.map((format) => {
        const lost = exportNotes[format];
        return html`<li>
          <a href="${signedLinkPath(quiz, format)}" download>${EXPORT_FORMAT_NAMES[format]}</a>
          ${lost.length > 0 ? html`<span class="muted">${exportNotesText(format, lost)}</span>` : ''}
        </li>`;
      })}
    </ul>
  </section>`;
}

function publicState({ questions, settings }: QuizPageData): Html {
  if (!questions.public_url) {
    return html`<p class="muted">Draft: only you can see it. Publish it when the questions are ready.</p>`;
  }
  return settings.accepting_responses
    ? html`<p>Open: the public page takes responses.</p>`
    : html`<p class="notice info">Closed: the public page says so and refuses new responses.</p>`;
}

export function sendQuizPage(res: Response, data: QuizPageData): void {
  const { questions, settings } = data;
  sendPage(res, {
    title: questions.title,
    section: 'quizzes',
    wide: true,
    scripts: questions.public_url ? ['copy-button.js'] : [],
    body: html`<p class="breadcrumb"><a href="/dashboard/quizzes">Quizzes</a> ›</p>
      ${noticeBox(data.flash ?? null)}
      <h1>${questions.title} ${statusBadge(questions.status)}</h1>
      ${publicState(data)} ${warningsBox(data)} ${quizActions(res, data)}
      ${
        questions.public_url
          ? sharePanel({
              quizId: questions.quiz_id,
              slug: questions.slug,
              title: questions.title,
              publicUrl: questions.public_url,
              allowEmbedding: settings.allow_embedding,
            })
          : ''
      }
      <h2>Results</h2>
      ${
        questions.status === 'published'
          ? html`${summaryStats(data.summary, data.timeZone)} ${resultsNav(questions.quiz_id)}`
          : html`<p class="muted">No responses yet.</p>`
      }
      ${
        questions.status === 'published'
          ? ''
          : html`<h2>Questions</h2>
              ${
                questions.questions.length === 0
                  ? html`<p class="muted">This quiz has no questions yet.</p>`
                  : html`<ol class="questions">
                      ${questionStats(questions, { questions: [] }, { dollars: settings.math_dollars })}
                    </ol>`
              }`
      }
      ${exportsPanel(data)}
      <h2>Settings</h2>
      ${settingsList({ ...data, res })}`,
  });
}
