import type { Response } from 'express';
import type { WebhookAttemptRow } from '../db/repositories';
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from '../domain/webhooks/events';
import { MAX_ENDPOINTS, type EndpointView } from '../domain/webhooks/endpoints';
import { csrfField } from '../web/csrf';
import { html, type Html } from '../web/html';
import { formatTime, noticeBox, readerZone, sendPage } from '../web/page-shell';
import type { Flash } from '../web/session-flash';
import {
  checkbox,
  dataTable,
  errorSummary,
  errorsFor,
  field,
  fieldErrorText,
  radioGroup,
  secretPanel,
  type FieldError,
} from '../web/parts';

export const WEBHOOKS_PATH = '/settings/webhooks';

export interface QuizChoice {
  id: string;
  title: string;
}

export interface WebhooksPageState {
  endpoints: EndpointView[];
  quizzes: QuizChoice[];
  flash?: Flash | null;
  form?: { url: string; events: string[]; scope: 'all' | 'chosen'; quizIds: string[] };
  errors?: FieldError[];
  status?: number;
  allowLoopback: boolean;
}

/** The new secret, shown this one time, with a copy button (assets/copy-button.js). */
function newSecretPanel(secret: NonNullable<Flash['newWebhookSecret']>): Html {
  return secretPanel({
    id: 'new-secret-value',
    title: `Signing secret for ${secret.url}`,
    use: 'Your receiver uses it to check that each webhook comes from this service.',
    value: secret.secret,
    copyLabel: 'Copy secret',
    copiedMessage: 'The secret is on your clipboard.',
  });
}

function stateOf(endpoint: EndpointView, zone: string): Html {
  if (endpoint.disabledAt) {
    return html`<strong>Disabled</strong> since ${formatTime(endpoint.disabledAt, undefined, zone)}:
      ${endpoint.disabledReason ?? ''}`;
  }
  if (endpoint.failingSince) return html`Failing since ${formatTime(endpoint.failingSince, undefined, zone)}`;
  return html`Active`;
}

function scopeOf(endpoint: EndpointView, quizzes: QuizChoice[]): string {
  if (!endpoint.quizIds) return 'All quizzes';
  const titles = endpoint.quizIds.map(
    (id) => quizzes.find((quiz) => quiz.id === id)?.title ?? 'a deleted quiz',
  );
  return titles.join(', ');
}

/** The endpoints, one row each (a card each on a phone). */
function endpointsTable(endpoints: EndpointView[], quizzes: QuizChoice[], zone: string): Html {
  return dataTable({
    columns: [{ label: 'URL' }, { label: 'Events' }, { label: 'Quizzes' }, { label: 'State' }],
    rows: endpoints.map((endpoint) => ({
      header: html`<a class="long-text" href="${WEBHOOKS_PATH}/${endpoint.id}">${endpoint.url}</a>`,
      cells: [endpoint.events.join(', '), scopeOf(endpoint, quizzes), stateOf(endpoint, zone)],
    })),
  });
}

function addForm(res: Response, state: WebhooksPageState): Html {
  const errors = state.errors ?? [];
  const form = state.form ?? { url: '', events: ['response.submitted'], scope: 'all', quizIds: [] };
  const eventsError = errors.find((error) => error.field === 'events');
  const quizzesError = errors.find((error) => error.field === 'quizzes');
  return html`<form method="post" action="${WEBHOOKS_PATH}" novalidate>
    ${csrfField(res)}
    ${field({
      id: 'url',
      name: 'url',
      required: true,
      label: 'Endpoint URL',
      hint: state.allowLoopback
        ? 'An https:// address on the public internet (this server also allows http://127.0.0.1 for development).'
        : 'An https:// address on the public internet.',
      value: form.url,
      autocomplete: 'off',
      maxlength: 2000,
      errors: errorsFor(errors, 'url'),
    })}
    <fieldset id="events" class="${eventsError ? 'has-error' : ''}">
      <legend>Events to send</legend>
      ${fieldErrorText('events', eventsError ? [eventsError.message] : [])}
      ${WEBHOOK_EVENT_TYPES.map((type) =>
        checkbox({
          id: `event-${type}`,
          name: 'events',
          value: type,
          label: html`<code>${type}</code>`,
          hint: WEBHOOK_EVENTS[type],
          checked: form.events.includes(type),
        }),
      )}
    </fieldset>
    ${radioGroup({
      id: 'quizzes',
      name: 'scope',
      legend: 'Quizzes',
      className: 'stacked-choices',
      value: form.scope,
      choices: [
        { value: 'all', label: 'All my quizzes, including new ones' },
        { value: 'chosen', label: 'Only the quizzes ticked below' },
      ],
      errors: quizzesError ? [quizzesError.message] : [],
      children: html`${state.quizzes.map((quiz) =>
        checkbox({
          id: `quiz-${quiz.id}`,
          name: 'quizIds',
          value: quiz.id,
          label: quiz.title,
          checked: form.quizIds.includes(quiz.id),
        }),
      )}`,
    })}
    <p><button type="submit">Add endpoint</button></p>
  </form>`;
}

export function sendWebhooksPage(res: Response, state: WebhooksPageState): void {
  const { endpoints } = state;
  const atLimit = endpoints.length >= MAX_ENDPOINTS;
  sendPage(res, {
    title: 'Webhooks',
    section: 'webhooks',
    status: state.status ?? 200,
    wide: true,
    scripts: state.flash?.newWebhookSecret ? ['copy-button.js'] : [],
    body: html`<p class="breadcrumb">Settings</p>
      <h1>Webhooks</h1>
      ${noticeBox(state.flash ?? null)}
      ${state.flash?.newWebhookSecret ? newSecretPanel(state.flash.newWebhookSecret) : ''}
      <p>
        A webhook sends each event (a new response, a published or closed quiz) to your own system the moment
        it happens, signed as <a href="https://www.standardwebhooks.com/">Standard Webhooks</a> describes.
        Failed deliveries are retried for about a day; see the API docs for the events and how to check
        signatures.
      </p>

      <h2>Your endpoints</h2>
      ${
        endpoints.length === 0
          ? html`<p class="muted">You have no webhook endpoints.</p>`
          : endpointsTable(endpoints, state.quizzes, readerZone(res))
      }
      <p class="muted">
        ${endpoints.length} of ${MAX_ENDPOINTS} endpoints in
        use.${atLimit ? ' Delete an endpoint you no longer use before adding another.' : ''}
      </p>

      <h2>Add an endpoint</h2>
      ${errorSummary(state.errors ?? [])} ${addForm(res, state)}`,
  });
}

export interface EndpointPageState {
  endpoint: EndpointView;
  quizzes: QuizChoice[];
  attempts: WebhookAttemptRow[];
  flash?: Flash | null;
}

/** The delivery log, one row per attempt (a card each on a phone), each with its replay button. */
function attemptsTable(res: Response, endpoint: EndpointView, attempts: WebhookAttemptRow[]): Html {
  const zone = readerZone(res);
  return dataTable({
    columns: [
      { label: 'Time' },
      { label: 'Event' },
      { label: 'Outcome' },
      { label: 'Latency', numeric: true },
      { label: 'Answer (first bytes)' },
      { label: 'Actions', hiddenLabel: true },
    ],
    rows: attempts.map((attempt) => ({
      cells: [
        formatTime(attempt.attemptedAt, undefined, zone),
        html`<code>${attempt.type}</code>`,
        html`${attempt.outcome.replace('_', ' ')}${attempt.status === null ? '' : html` (${attempt.status})`}`,
        `${attempt.latencyMs} ms`,
        html`<code class="snippet">${attempt.responseSnippet ?? ''}</code>`,
        html`<form
          method="post"
          action="${WEBHOOKS_PATH}/${endpoint.id}/deliveries/${attempt.deliveryId}/replay"
          class="inline"
        >
          ${csrfField(res)}
          <button type="submit" class="secondary small">
            Replay<span class="sr-only"> the ${attempt.type} event ${attempt.eventId}</span>
          </button>
        </form>`,
      ],
    })),
  });
}

function action(
  res: Response,
  endpoint: EndpointView,
  path: string,
  label: string,
  className = 'secondary',
): Html {
  return html`<form method="post" action="${WEBHOOKS_PATH}/${endpoint.id}/${path}" class="inline">
    ${csrfField(res)}<button type="submit" class="${className}">${label}</button>
  </form>`;
}

export function sendEndpointPage(res: Response, state: EndpointPageState): void {
  const { endpoint, attempts } = state;
  sendPage(res, {
    title: `Webhook ${endpoint.url}`,
    section: 'webhooks',
    wide: true,
    scripts: state.flash?.newWebhookSecret ? ['copy-button.js'] : [],
    body: html`<p class="breadcrumb"><a href="${WEBHOOKS_PATH}">Webhooks</a></p>
      <h1 class="long-text">${endpoint.url}</h1>
      ${noticeBox(state.flash ?? null)}
      ${state.flash?.newWebhookSecret ? newSecretPanel(state.flash.newWebhookSecret) : ''}
      ${
        state.flash?.webhookTest
          ? html`<section class="notice ${state.flash.webhookTest.ok ? 'success' : 'error'}" role="status">
              <h2>Test event: ${state.flash.webhookTest.summary}</h2>
              ${
                state.flash.webhookTest.snippet
                  ? html`<p>The receiver answered:</p>
                      <pre class="snippet">${state.flash.webhookTest.snippet}</pre>`
                  : ''
              }
            </section>`
          : ''
      }
      <dl class="facts">
        <dt>State</dt>
        <dd>${stateOf(endpoint, readerZone(res))}</dd>
        <dt>Events</dt>
        <dd>${endpoint.events.join(', ')}</dd>
        <dt>Quizzes</dt>
        <dd>${scopeOf(endpoint, state.quizzes)}</dd>
        <dt>Signing secret</dt>
        <dd>
          ${
            endpoint.previousSecretExpiresAt
              ? html`Rotated: the previous secret also signs until
                ${formatTime(endpoint.previousSecretExpiresAt, undefined, readerZone(res))}.`
              : html`Shown once when it was made.`
          }
        </dd>
      </dl>
      <div class="actions">
        ${endpoint.disabledAt ? action(res, endpoint, 'enable', 'Enable again', '') : action(res, endpoint, 'test', 'Send test event', '')}
        ${action(res, endpoint, 'rotate', 'Rotate secret')}
        ${action(res, endpoint, 'delete', 'Delete endpoint', 'danger')}
      </div>

      <h2>Delivery log</h2>
      ${
        attempts.length === 0
          ? html`<p class="muted">Nothing was sent to this endpoint yet.</p>`
          : attemptsTable(res, endpoint, attempts)
      }
      <p class="muted">
        The latest 50 attempts. Replay sends the event again, from the first step of the retry schedule.
      </p>`,
  });
}
