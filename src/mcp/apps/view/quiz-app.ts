/**
 * The quiz service's MCP App view: one page that the host renders in a sandboxed frame beside
 * a tool's answer. It draws what the tool returned: a quiz preview (create_quiz,
 * get_quiz_questions, update_quiz) with a Publish button for a draft, the results (get_results)
 * with charts and "Load more", or the quiz list (list_quizzes) with links the host opens.
 * Browser code, bundled by scripts/build-views.js into one self-contained HTML file; it talks
 * to the host only through the extension's App class, and fetches nothing itself.
 */
import {
  App,
  applyDocumentTheme,
  applyHostStyleVariables,
  type McpUiHostContext,
} from '@modelcontextprotocol/ext-apps';
import { faceOf } from './faces';
import type { ChartRow, KeyLine } from './face/view-face';
import type { QuizListItem, QuizPreview, ResponseRow, ResultQuestion, Results } from './view-types';

const root = document.getElementById('app')!;
const app = new App({ name: 'Quiz service', version: '1.0.0' }, {}, { autoResize: true });

/** An element with text (never HTML: everything shown comes from people's input). */
function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: { className?: string; text?: string } = {},
  ...children: Array<Node | null>
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (props.className) node.className = props.className;
  if (props.text !== undefined) node.textContent = props.text;
  for (const child of children) if (child) node.append(child);
  return node;
}

/**
 * The owner's texts with a formula or code, as the server typeset them (mcp/apps/rich-text-meta.ts,
 * whose key this is): escaped text, code and MathML, the public pages' HTML. The view carries no
 * typesetter of its own; a text not in the map is drawn as text.
 */
const RICH_TEXT_META_KEY = 'quiz-service/rich-text';
let typeset: Record<string, string> = {};

function takeTypeset(result: { _meta?: Record<string, unknown> }, more = false): void {
  const sent = result._meta?.[RICH_TEXT_META_KEY];
  const map = sent && typeof sent === 'object' ? (sent as Record<string, string>) : {};
  typeset = more ? { ...typeset, ...map } : map;
}

/** An owner's text: typeset when the server sent it so, else plain text (never parsed as HTML). */
function rich(text: string): Node {
  const made = typeset[text];
  if (made === undefined) return document.createTextNode(text);
  // Parsed inert (no script runs in a parsed document), then moved into the view.
  const body = new DOMParser().parseFromString(`<!doctype html><body>${made}`, 'text/html').body;
  const fragment = document.createDocumentFragment();
  for (const node of Array.from(body.childNodes)) fragment.append(document.importNode(node, true));
  return fragment;
}

const round = (value: number) => Math.round(value * 10) / 10;

function badge(status: string): HTMLElement {
  return el('span', { className: `badge ${status}`, text: status === 'published' ? 'Published' : 'Draft' });
}

/** A horizontal bar; the number beside it is the text that a screen reader reads. */
function bar(
  label: string,
  count: number,
  most: number,
  total: number,
  best = false,
  owned = false,
): HTMLElement {
  const fill = el('span', { className: best ? 'fill best' : 'fill' });
  fill.style.width = `${most === 0 ? 0 : Math.round((100 * count) / most)}%`;
  const share = total ? ` (${Math.round((100 * count) / total)}%)` : '';
  return el(
    'li',
    { className: 'bar' },
    el('span', { className: 'bar-label' }, owned ? rich(label) : document.createTextNode(label)),
    el('span', { className: 'track' }, fill),
    el('span', { className: 'bar-value', text: `${count}${share}` }),
  );
}

/** A question's key as its type draws it, under the question's text. */
function keyLines(question: QuizPreview['questions'][number]): HTMLElement[] {
  return faceOf(question).key(question).map(keyLine);
}

function keyLine(line: KeyLine): HTMLElement {
  if ('note' in line) return el('p', { className: 'muted', text: line.note });
  const list = el(line.ordered ? 'ol' : 'ul', { className: 'options' });
  for (const item of line.list) {
    list.append(
      el(
        'li',
        {},
        item.owned === undefined ? null : rich(item.owned),
        item.text === undefined ? null : document.createTextNode(item.text),
      ),
    );
  }
  return list;
}

function optionLabels(choices: ReadonlyArray<{ label: string }>, into: HTMLElement): void {
  const options = el('ul', { className: 'options' });
  for (const option of choices) options.append(el('li', {}, rich(option.label)));
  into.append(options);
}

/**
 * A question's picture from our origin (the resource declares it), its size set so nothing
 * shifts, scaled to the frame by the stylesheet; only an https or http address is shown.
 */
function picture(image: { url: string; alt: string; width: number; height: number } | undefined) {
  if (!image || !/^https?:\/\//.test(image.url)) return null;
  const img = document.createElement('img');
  img.className = 'question-image';
  img.src = image.url;
  img.alt = image.alt;
  img.width = image.width;
  img.height = image.height;
  return img;
}

function renderPreview(quiz: QuizPreview): void {
  const questions = el('ol', { className: 'questions' });
  for (const question of quiz.questions) {
    const item = el(
      'li',
      { className: 'question' },
      el('p', { className: 'question-text' }, rich(question.text)),
      picture((question as { image?: Parameters<typeof picture>[0] }).image),
    );
    // As respondents see it: the option labels, no key.
    if (quiz.view === 'respondent') {
      if ('options' in question && question.options) optionLabels(question.options, item);
    }
    // A credential without quizzes:read is answered without the key or the maximum (mcp/write-only-answer.ts).
    else if ('max_score' in quiz) item.append(...keyLines(question));
    questions.append(item);
  }
  const head = el('header', {}, el('h1', { text: quiz.title }), badge(quiz.status));
  const count = `${quiz.questions.length} question${quiz.questions.length === 1 ? '' : 's'}`;
  const meta = el('p', {
    className: 'muted',
    text: !('max_score' in quiz)
      ? `${count} · answer key not shown: this connection may change quizzes, not read them`
      : quiz.max_score === 0
        ? `${count} · no score: no question earns points`
        : `${count} · up to ${quiz.max_score} points`,
  });
  const actions = el('div', { className: 'actions' });
  if (quiz.status === 'draft') actions.append(publishControl(quiz));
  else if (quiz.public_url) actions.append(linkButton('Open the public page', quiz.public_url));
  root.replaceChildren(head, meta, actions, questions);
}

/** Publish asks first: the quiz then takes responses from anyone with the link. */
function publishControl(quiz: QuizPreview): HTMLElement {
  const box = el('div', { className: 'publish' });
  const start = el('button', { text: 'Publish' });
  start.type = 'button';
  start.addEventListener('click', () => {
    const confirm = el('button', { text: 'Publish now' });
    const cancel = el('button', { className: 'secondary', text: 'Cancel' });
    confirm.type = cancel.type = 'button';
    const status = el('p', { className: 'muted', text: 'Anyone with its link can then answer it. Publish?' });
    status.setAttribute('role', 'status');
    cancel.addEventListener('click', () => box.replaceChildren(start));
    confirm.addEventListener('click', async () => {
      confirm.disabled = cancel.disabled = true;
      status.textContent = 'Publishing…';
      let result: Awaited<ReturnType<typeof app.callServerTool>>;
      try {
        result = await app.callServerTool({ name: 'publish_quiz', arguments: { quiz_id: quiz.quiz_id } });
      } catch (error) {
        status.textContent = `Not published: ${String(error)}`;
        confirm.disabled = cancel.disabled = false;
        return;
      }
      if (result.isError) {
        const first = result.content?.[0];
        status.textContent = `Not published: ${first && first.type === 'text' ? first.text : 'the tool failed'}`;
        confirm.disabled = cancel.disabled = false;
        return;
      }
      const published = result.structuredContent as { public_url?: string } | undefined;
      renderPreview({ ...quiz, status: 'published', public_url: published?.public_url ?? quiz.public_url });
    });
    box.replaceChildren(status, confirm, cancel);
    confirm.focus();
  });
  box.append(start);
  return box;
}

function linkButton(text: string, url: string): HTMLElement {
  const button = el('button', { className: 'secondary', text });
  button.type = 'button';
  button.addEventListener('click', () => void app.openLink({ url }));
  return button;
}

let shownResponses: ResponseRow[] = [];

function renderResults(results: Results, more = false): void {
  shownResponses = more ? [...shownResponses, ...results.responses] : results.responses;
  const s = results.summary;
  // Unscored questions alone earn nothing: no "0 of 0", no score chart, no item analysis.
  const scored = s.max_score > 0;
  const stats = el(
    'dl',
    { className: 'stats' },
    stat('Responses', String(s.response_count)),
    scored
      ? stat('Mean score', s.average_score === null ? '–' : `${round(s.average_score)} of ${s.max_score}`)
      : stat('Score', 'None: no question is scored'),
    scored
      ? stat('Pass rate', s.pass_rate === null ? 'No pass mark' : `${Math.round(s.pass_rate * 100)}%`)
      : null,
    // Responses waiting for a person's grade, counted above with their score so far.
    s.pending_count > 0
      ? stat('Waiting for a grade', `${s.pending_count} ${s.pending_count === 1 ? 'response' : 'responses'}`)
      : null,
  );
  const charts = el('div', { className: 'charts' });
  for (const question of results.questions) {
    const rows: ChartRow[] = faceOf(question).bars(question);
    const most = Math.max(0, ...rows.map((row) => row.count));
    const list = el('ul', { className: 'bars' });
    list.setAttribute('aria-label', `Answers to ${question.text}`);
    for (const row of rows) {
      list.append(bar(row.label, row.count, most, question.answered_count, row.best, row.owned));
    }
    charts.append(
      el(
        'section',
        { className: 'chart' },
        el('h3', {}, rich(question.text)),
        figuresLine(question),
        awaitingLine(question),
        list,
      ),
    );
  }
  root.replaceChildren(
    el('header', {}, el('h1', { text: results.quiz.title }), badge(results.quiz.status)),
    stats,
    el('h2', { text: 'Answers' }),
    charts,
    ...(scored ? itemAnalysis(results) : []),
    ...(scored
      ? [
          el('h2', { text: `Scores of the ${shownResponses.length} latest responses` }),
          histogram(shownResponses, s.max_score, s.pass_mark_percent),
          ...histogramNote(shownResponses),
        ]
      : []),
    el('h2', { text: 'Latest responses' }),
    responsesTable(shownResponses),
  );
  if (results.next_cursor) root.append(loadMore(results.quiz.quiz_id, results.next_cursor));
}

const FLAG_NAMES: Record<string, string> = {
  too_easy: 'Too easy',
  too_hard: 'Too hard',
  negative_discrimination: 'Negative discrimination',
  weak_discrimination: 'Weak discrimination',
  wrong_option_favoured: 'Wrong option favoured',
};

/**
 * Whether a question is an item of the test, as the server's figures say: one worth nothing (an
 * opinion, a question without a key) or shown to nobody has no facility, no discrimination and
 * no flag, and a row of dashes would say nothing.
 */
function isItem(question: ResultQuestion): boolean {
  return question.facility !== null || question.discrimination !== null || question.flags.length > 0;
}

/**
 * Item analysis: reliability in words, the score distribution of every response as bars with
 * their numbers, and each question's facility, discrimination and flags in a table.
 */
function itemAnalysis(results: Results): HTMLElement[] {
  if (results.summary.response_count === 0) return [];
  const { reliability, score_distribution: buckets } = results.item_analysis;
  const most = Math.max(0, ...buckets.map((b) => b.count));
  const distribution = el('ul', { className: 'bars' });
  distribution.setAttribute('aria-label', 'Responses by percent scored');
  for (const b of buckets) {
    const label = b.from_percent === 90 ? '90-100%' : `${b.from_percent}-${b.from_percent + 9}%`;
    distribution.append(bar(label, b.count, most, results.summary.response_count));
  }
  const rows = results.questions.filter(isItem).map((question) =>
    el(
      'tr',
      {},
      el('th', {}, rich(question.text)),
      el('td', { text: question.facility === null ? '–' : `${Math.round(question.facility * 100)}%` }),
      el('td', { text: question.discrimination === null ? '–' : question.discrimination.toFixed(2) }),
      el('td', {
        text:
          question.flags.length === 0
            ? 'None'
            : question.flags.map((flag) => `${FLAG_NAMES[flag.flag] ?? flag.flag}: ${flag.reason}`).join(' '),
      }),
    ),
  );
  for (const row of rows) row.firstElementChild!.setAttribute('scope', 'row');
  const head = el(
    'tr',
    {},
    ...['Question', 'Facility', 'Discrimination', 'Flags'].map((text) => {
      const cell = el('th', { text });
      cell.setAttribute('scope', 'col');
      return cell;
    }),
  );
  return [
    el('h2', { text: 'Item analysis' }),
    el('p', {
      text:
        reliability.value === null
          ? `Reliability (Cronbach's alpha): not computed. ${reliability.reason ?? ''}`
          : `Reliability (Cronbach's alpha): ${reliability.value.toFixed(2)}`,
    }),
    el('h3', { text: 'All responses by percent scored' }),
    distribution,
    el('table', { className: 'item-analysis' }, el('thead', {}, head), el('tbody', {}, ...rows)),
  ];
}

/** A question's figures above its bars, when its type has any (an opinion's mean and median). */
function figuresLine(question: ResultQuestion): HTMLElement | null {
  const text = faceOf(question).figures?.(question);
  return text ? el('p', { className: 'muted', text }) : null;
}

/** Answers waiting for a person's grade: answered, but left out of the question's figures until graded. */
function awaitingLine(question: ResultQuestion): HTMLElement | null {
  if (!('pending_count' in question) || question.pending_count === 0) return null;
  return el('p', { className: 'muted', text: `${question.pending_count} awaiting a grade` });
}

/** The responses in the histogram waiting for a grade: their score is so far, not passed or failed. */
function histogramNote(responses: ResponseRow[]): HTMLElement[] {
  const pending = responses.filter((response) => response.grading_status === 'pending').length;
  if (pending === 0) return [];
  const text = `${pending} of these ${pending === 1 ? 'awaits' : 'await'} a grade: scored so far.`;
  return [el('p', { className: 'muted', text })];
}

function stat(label: string, value: string): HTMLElement {
  return el('div', {}, el('dt', { text: label }), el('dd', { text: value }));
}

function histogram(responses: ResponseRow[], maxScore: number, passMark: number | null): HTMLElement {
  const counts = new Map<number, number>();
  for (const response of responses) counts.set(response.score, (counts.get(response.score) ?? 0) + 1);
  const low = Math.min(0, ...responses.map((r) => r.score));
  const most = Math.max(0, ...counts.values());
  const list = el('ul', { className: 'bars' });
  list.setAttribute('aria-label', 'Number of responses per score');
  for (let score = low; score <= Math.max(maxScore, low); score += 1) {
    const passed = passMark !== null && maxScore > 0 && (100 * score) / maxScore >= passMark;
    list.append(bar(`${score} pts`, counts.get(score) ?? 0, most, responses.length, passed));
  }
  return list;
}

function responsesTable(responses: ResponseRow[]): HTMLElement {
  if (responses.length === 0) return el('p', { className: 'muted', text: 'No responses yet.' });
  const body = el('tbody');
  for (const response of responses) {
    const who = response.respondent.name ?? response.respondent.email ?? 'Anonymous';
    const result =
      response.grading_status === 'pending'
        ? 'Waiting for a grade'
        : response.passed === null
          ? ''
          : response.passed
            ? 'Passed'
            : 'Not passed';
    body.append(
      el(
        'tr',
        {},
        el('td', { text: who }),
        el('td', {
          text: response.max_score === 0 ? 'Not scored' : `${response.score} / ${response.max_score}`,
        }),
        el('td', { text: result }),
        el('td', { text: response.submitted_at.slice(0, 16).replace('T', ' ') }),
      ),
    );
  }
  const head = el(
    'tr',
    {},
    ...['Respondent', 'Score', 'Result', 'Submitted'].map((t) => el('th', { text: t })),
  );
  return el('div', { className: 'table-wrap' }, el('table', {}, el('thead', {}, head), body));
}

function loadMore(quizId: string, cursor: string): HTMLElement {
  const button = el('button', { className: 'secondary', text: 'Load more' });
  button.type = 'button';
  button.addEventListener('click', async () => {
    button.disabled = true;
    const result = await app.callServerTool({ name: 'get_results', arguments: { quiz_id: quizId, cursor } });
    if (!result.isError) {
      takeTypeset(result, true);
      renderResults(result.structuredContent as unknown as Results, true);
    } else button.disabled = false;
  });
  return button;
}

function renderList(list: { quizzes: QuizListItem[] }): void {
  const items = el('ul', { className: 'quiz-list' });
  for (const quiz of list.quizzes) {
    items.append(
      el(
        'li',
        {},
        el('span', { className: 'quiz-title', text: quiz.title }),
        badge(quiz.status),
        el('span', {
          className: 'muted',
          text: `${quiz.question_count} questions · ${quiz.response_count} responses`,
        }),
        quiz.public_url ? linkButton('Open', quiz.public_url) : null,
      ),
    );
  }
  root.replaceChildren(
    el('h1', { text: 'Your quizzes' }),
    list.quizzes.length ? items : el('p', { className: 'muted', text: 'No quizzes yet.' }),
  );
}

/** Results with their statistics and every field the view draws (not narrowed by `fields`). */
function isWholeResults(content: Record<string, unknown>): boolean {
  const drawn = ['submitted_at', 'respondent', 'score', 'max_score', 'passed'];
  return (
    Boolean(content.summary && content.item_analysis) &&
    Array.isArray(content.questions) &&
    Array.isArray(content.responses) &&
    content.responses.every((row) => drawn.every((field) => field in (row as object)))
  );
}

/** Which view a tool's structured result calls for, by its shape. */
function render(content: Record<string, unknown> | undefined): void {
  if (!content) return;
  if (Array.isArray(content.quizzes)) renderList(content as unknown as { quizzes: QuizListItem[] });
  else if (isWholeResults(content)) renderResults(content as unknown as Results);
  else if (Array.isArray(content.questions) && typeof content.quiz_id === 'string')
    renderPreview(content as unknown as QuizPreview);
}

function applyContext(context: McpUiHostContext | undefined): void {
  if (!context) return;
  if (context.theme) applyDocumentTheme(context.theme);
  if (context.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

app.ontoolresult = (result) => {
  if (result.isError) {
    const first = result.content?.[0];
    root.replaceChildren(
      el('p', { className: 'muted', text: first && first.type === 'text' ? first.text : 'The tool failed.' }),
    );
    return;
  }
  takeTypeset(result);
  render(result.structuredContent as Record<string, unknown> | undefined);
};
app.onhostcontextchanged = (context) => applyContext(context);

void app.connect().then(() => applyContext(app.getHostContext()));
