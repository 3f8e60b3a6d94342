import type { Response } from 'express';
import type { WebhookAttemptRow } from '../db/repositories';
import { WEBHOOK_EVENTS, WEBHOOK_EVENT_TYPES } from '../domain/webhooks/events';
import { MAX_ENDPOINTS, type EndpointView } from '../domain/webhooks/endpoints';
import { csrfField } from '../web/csrf';
import { html, type Html } from '../web/html';
import { formatTime, noticeBox, readerZone, sendPage } from '../web/page-shell';
import type { Flash } from '../web/session-flash';
import { errorSummary, errorsFor, field, secretPanel, type FieldError } from '../web/parts';

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

function endpointRows(endpoints: EndpointView[], quizzes: QuizChoice[], zone: string): Html {
  return html`${endpoints.map(
    (endpoint) =>
      html`<tr>
        <th scope="row" class="long-text"><a href="${WEBHOOKS_PATH}/${endpoint.id}">${endpoint.url}</a></th>
        <td>${endpoint.events.join(', ')}</td>
        <td>${scopeOf(endpoint, quizzes)}</td>
        <td>${stateOf(endpoint, zone)}</td>
      </tr>`,
  )}`;
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
      ${eventsError ? html`<p class="field-error"><span class="sr-only">Error: </span>${eventsError.message}</p>` : ''}
      ${WEBHOOK_EVENT_TYPES.map(
        (type) =>
          html`<label class="choice" for="event-${type}">
            <input
              type="checkbox"
              id="event-${type}"
              name="events"
              value="${type}"
              ${form.events.includes(type) ? html` checked` : ''}
            />
            <span><code>${type}</code><span class="hint"> ${WEBHOOK_EVENTS[type]}</span></span>
          </label>`,
      )}
    </fieldset>
    <fieldset id="quizzes" class="${quizzesError ? 'has-error' : ''}">
      <legend>Quizzes</legend>
      ${quizzesError ? html`<p class="field-error"><span class="sr-only">Error: </span>${quizzesError.message}</p>` : ''}
      <label class="choice" for="scope-all">
        <input
          type="radio"
          id="scope-all"
          name="scope"
          value="all"
          ${form.scope === 'all' ? html` checked` : ''}
        />
        <span>All my quizzes, including new ones</span>
      </label>
      <label class="choice" for="scope-chosen">
        <input
          type="radio"
          id="scope-chosen"
          name="scope"
          value="chosen"
          ${form.scope === 'chosen' ? html` checked` : ''}
        />
        <span>Only the quizzes ticked below</span>
      </label>
      ${state.quizzes.map(
        (quiz) =>
          html`<label class="choice" for="quiz-${quiz.id}">
            <input
              type="checkbox"
              id="quiz-${quiz.id}"
              name="quizIds"
              value="${quiz.id}"
              ${form.quizIds.includes(quiz.id) ? html` checked` : ''}
            />
            <span>${quiz.title}</span>
          </label>`,
      )}
    </fieldset>
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
          : html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">URL</th>
                    <th scope="col">Events</th>
                    <th scope="col">Quizzes</th>
                    <th scope="col">State</th>
                  </tr>
                </thead>
                <tbody>
                  ${endpointRows(endpoints, state.quizzes, readerZone(res))}
                </tbody>
              </table>
            </div>`
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

function attemptRows(res: Response, endpoint: EndpointView, attempts: WebhookAttemptRow[]): Html {
  return html`${attempts.map(
    (attempt) =>
      html`<tr>
        <td>${formatTime(attempt.attemptedAt, undefined, readerZone(res))}</td>
        <td><code>${attempt.type}</code></td>
        <td>
          ${attempt.outcome.replace('_', ' ')}${attempt.status === null ? '' : html` (${attempt.status})`}
        </td>
        <td>${attempt.latencyMs} ms</td>
        <td><code class="snippet">${attempt.responseSnippet ?? ''}</code></td>
        <td>
          <form
            method="post"
            action="${WEBHOOKS_PATH}/${endpoint.id}/deliveries/${attempt.deliveryId}/replay"
            class="inline"
          >
            ${csrfField(res)}
            <button type="submit" class="secondary small">
              Replay<span class="sr-only"> the ${attempt.type} event ${attempt.eventId}</span>
            </button>
          </form>
        </td>
      </tr>`,
  )}`;
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
          : html`<div class="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Time</th>
                    <th scope="col">Event</th>
                    <th scope="col">Outcome</th>
                    <th scope="col">Latency</th>
                    <th scope="col">Answer (first bytes)</th>
                    <th scope="col"><span class="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${attemptRows(res, endpoint, attempts)}
                </tbody>
              </table>
            </div>`
      }
      <p class="muted">
        The latest 50 attempts. Replay sends the event again, from the first step of the retry schedule.
      </p>`,
  });
}
