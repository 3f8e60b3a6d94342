import type { Repositories, WebhookAttemptRow, WebhookEndpointRow } from '../../db/repositories';
import { DomainError } from '../errors';
import { checkTarget } from './address';
import { eventBody, newEventId, TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES, type WebhookEventType } from './events';
import { PREVIOUS_SECRET_MS } from './schedule';
import { newSigningSecret, sealSecret } from './secrets';
import type { SendResult } from './send';
import { newLeaseToken, type WebhookSettings, type WebhookWorker } from './worker';

/** Endpoints an account may have. */
export const MAX_ENDPOINTS = 10;

type Webhooks = Pick<Repositories, 'webhooks'>;

/** What the dashboard shows of an endpoint: never its secret. */
export interface EndpointView {
  id: string;
  url: string;
  events: string[];
  quizIds: string[] | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  /** The rotated-out secret still signs until then; null when none does. */
  previousSecretExpiresAt: Date | null;
  createdAt: Date;
}

function view(row: WebhookEndpointRow, now: Date): EndpointView {
  return {
    id: row.id,
    url: row.url,
    events: row.events,
    quizIds: row.quizIds,
    disabledAt: row.disabledAt,
    disabledReason: row.disabledReason,
    failingSince: row.failingSince,
    previousSecretExpiresAt:
      row.previousSecretExpiresAt && row.previousSecretExpiresAt > now ? row.previousSecretExpiresAt : null,
    createdAt: row.createdAt,
  };
}

function notFound(): DomainError {
  return new DomainError('webhook_not_found', 'There is no such webhook endpoint: it may have been deleted.');
}

export async function listEndpoints({ webhooks }: Webhooks, ownerId: string, now = new Date()) {
  return (await webhooks.endpoints(ownerId)).map((row) => view(row, now));
}

export async function getEndpoint({ webhooks }: Webhooks, ownerId: string, id: string, now = new Date()) {
  const row = await webhooks.endpoint(ownerId, id);
  if (!row) throw notFound();
  return view(row, now);
}

export interface NewEndpointInput {
  url: string;
  events: readonly string[];
  /** Null: every quiz, present and future; else at least one of the owner's quizzes. */
  quizIds: readonly string[] | null;
}

/**
 * Adds an endpoint once its URL is an HTTPS address on the public internet and its events are
 * known. Returns the signing secret: it is shown this once and stored only sealed.
 */
export async function createEndpoint(
  repos: Pick<Repositories, 'webhooks' | 'quizzes'>,
  settings: WebhookSettings,
  ownerId: string,
  input: NewEndpointInput,
): Promise<{ endpoint: EndpointView; secret: string }> {
  const url = input.url.trim();
  const issues: Array<{ field: string; message: string }> = [];
  const target = await checkTarget(url, {
    allowLoopback: settings.allowLoopback,
    ...(settings.resolve ? { resolve: settings.resolve } : {}),
  });
  if (!target.ok) issues.push({ field: 'url', message: target.reason });
  const events = [...new Set(input.events)];
  const unknown = events.filter((event) => !WEBHOOK_EVENT_TYPES.includes(event as WebhookEventType));
  if (events.length === 0) issues.push({ field: 'events', message: 'Choose at least one event.' });
  if (unknown.length > 0) issues.push({ field: 'events', message: `Unknown event: ${unknown.join(', ')}.` });
  const quizIds = input.quizIds ? [...new Set(input.quizIds)] : null;
  if (quizIds?.length === 0) {
    issues.push({ field: 'quizzes', message: 'Tick at least one quiz, or choose all your quizzes.' });
  }
  if (quizIds) {
    for (const quizId of quizIds) {
      if (!(await repos.quizzes.ownedId(ownerId, quizId))) {
        issues.push({ field: 'quizzes', message: 'Choose quizzes of your own.' });
        break;
      }
    }
  }
  if (issues.length > 0) {
    throw new DomainError('invalid_input', issues.map((issue) => issue.message).join(' '), issues);
  }
  const secret = newSigningSecret();
  const row = await repos.webhooks.createEndpoint(
    ownerId,
    { url, events, quizIds, secret: sealSecret(settings.sealingKey, secret) },
    (count) => {
      if (count >= MAX_ENDPOINTS) {
        throw new DomainError(
          'webhook_limit_reached',
          `An account can have at most ${MAX_ENDPOINTS} webhook endpoints. Delete one to add another.`,
        );
      }
    },
  );
  return { endpoint: view(row, new Date()), secret };
}

export async function deleteEndpoint({ webhooks }: Webhooks, ownerId: string, id: string): Promise<void> {
  if (!(await webhooks.deleteEndpoint(ownerId, id))) throw notFound();
}

/** A new secret, shown once; the old one keeps signing beside it for 24 hours. */
export async function rotateSecret(
  { webhooks }: Webhooks,
  settings: WebhookSettings,
  ownerId: string,
  id: string,
  now = new Date(),
): Promise<string> {
  const secret = newSigningSecret();
  const rotated = await webhooks.rotateSecret(
    ownerId,
    id,
    sealSecret(settings.sealingKey, secret),
    new Date(now.getTime() + PREVIOUS_SECRET_MS),
  );
  if (!rotated) throw notFound();
  return secret;
}

export async function enableEndpoint({ webhooks }: Webhooks, ownerId: string, id: string): Promise<void> {
  if (!(await webhooks.enableEndpoint(ownerId, id))) throw notFound();
}

/** How many attempts an endpoint's delivery log shows; the purge never removes these. */
export const DELIVERY_LOG_SIZE = 50;

export async function deliveryLog(
  { webhooks }: Webhooks,
  ownerId: string,
  id: string,
  limit = DELIVERY_LOG_SIZE,
): Promise<WebhookAttemptRow[]> {
  return webhooks.attempts(ownerId, id, limit);
}

/** Sends the delivery again from the start of the schedule. */
export async function replayDelivery(
  { webhooks }: Webhooks,
  ownerId: string,
  deliveryId: string,
  now = new Date(),
) {
  if (!(await webhooks.replay(ownerId, deliveryId, now))) throw notFound();
}

/**
 * "Send test event": a `webhook.test` event to this endpoint alone, sent now, with the
 * receiver's answer returned at once. It is logged like any delivery.
 */
export async function sendTestEvent(
  { webhooks }: Webhooks,
  worker: Pick<WebhookWorker, 'deliver'>,
  ownerId: string,
  id: string,
  now = new Date(),
): Promise<SendResult> {
  const endpoint = await webhooks.endpoint(ownerId, id);
  if (!endpoint) throw notFound();
  if (endpoint.disabledAt) {
    throw new DomainError(
      'invalid_state',
      'This endpoint is disabled: enable it before sending a test event.',
    );
  }
  const eventId = newEventId();
  const token = newLeaseToken();
  const payload = eventBody(TEST_EVENT_TYPE, now, {
    endpoint_id: id,
    message: 'A test event from the dashboard. Answer with a 2xx status to acknowledge it.',
  });
  const delivery = await webhooks.insertHeldDelivery(
    ownerId,
    id,
    { id: eventId, type: TEST_EVENT_TYPE, payload, at: now },
    token,
    new Date(now.getTime() + 60_000),
  );
  if (!delivery) throw notFound();
  const result = await worker.deliver(delivery, token);
  if (!result) throw notFound();
  return result;
}

/** How many enabled endpoints receive this quiz's events (get_quiz_settings). */
export async function endpointCountForQuiz({ webhooks }: Webhooks, ownerId: string, quizId: string) {
  const rows = await webhooks.endpoints(ownerId);
  return rows.filter((row) => !row.disabledAt && (row.quizIds === null || row.quizIds.includes(quizId)))
    .length;
}

export { quizClosedEvent } from './events';
