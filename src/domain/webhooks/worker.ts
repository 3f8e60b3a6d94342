import { randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import type { Repositories, WebhookDeliveryRow, WebhookEndpointRow } from '../../db/repositories';
import type { Logger } from '../../logger';
import { SERVER_NAME, TOOLSET_VERSION } from '../../version';
import type { Resolver } from './address';
import { DELIVERY_TIMEOUT_MS, DISABLE_AFTER_FAILING_MS, nextAttemptAfter, RETRY_DELAYS_MS } from './schedule';
import { openSecret } from './secrets';
import { sendWebhook, type AttemptOutcome, type SendResult } from './send';

/** What deliveries need besides the repositories; built once by the composition root. */
export interface WebhookSettings {
  /** Seals and opens endpoints' secrets (secrets.ts). */
  sealingKey: Buffer;
  allowLoopback: boolean;
  /** Tests shorten it; 15 s otherwise. */
  timeoutMs?: number;
  /** Tests answer names themselves; the system resolver otherwise. */
  resolve?: Resolver;
}

export interface WebhookWorkerOptions {
  repos: Pick<Repositories, 'webhooks'>;
  settings: WebhookSettings;
  logger: Logger;
  /** The clock of the schedule: tests move it instead of waiting. */
  now?: () => Date;
  /** Counts each attempt by outcome (the metrics). */
  observe?: (outcome: AttemptOutcome | 'disabled') => void;
  /** Deliveries claimed at a time. */
  batch?: number;
  /** How long a claim holds: longer than an attempt can take, so only a crashed holder loses it. */
  leaseMs?: number;
}

export interface WebhookWorker {
  /** Claims what is due and delivers it, until nothing due is left; returns the attempts made. */
  runOnce(): Promise<number>;
  /** Runs every `pollMs` until `stop`. */
  start(pollMs?: number): void;
  /** Ends the loop and waits for the round in flight. */
  stop(): Promise<void>;
  /** Delivers one delivery this caller already holds (the dashboard's test event). */
  deliver(delivery: WebhookDeliveryRow, leaseToken: string): Promise<SendResult | null>;
}

/** The secrets that sign now: the current one, and the previous one until it expires. */
export function signingSecrets(endpoint: WebhookEndpointRow, key: Buffer, now: Date): string[] {
  const secrets = [openSecret(key, endpoint.secret)];
  if (endpoint.previousSecret && endpoint.previousSecretExpiresAt && endpoint.previousSecretExpiresAt > now) {
    secrets.push(openSecret(key, endpoint.previousSecret));
  }
  return secrets.filter((secret): secret is string => secret !== null);
}

/** The Standard Webhooks headers: one `v1,` signature per secret, space-separated. */
export function webhookHeaders(id: string, at: Date, body: string, secrets: readonly string[]) {
  return {
    'content-type': 'application/json',
    'user-agent': `${SERVER_NAME}-webhooks/${TOOLSET_VERSION}`,
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': secrets.map((secret) => new Webhook(secret).sign(id, at, body)).join(' '),
  };
}

/** Tries to record an attempt's outcome, and the pause before each retry (times the try). */
const RECORD_TRIES = 4;
const RECORD_BACKOFF_MS = 250;

export const newLeaseToken = () => randomBytes(12).toString('base64url');

export function createWebhookWorker({
  repos,
  settings,
  logger,
  now = () => new Date(),
  observe = () => undefined,
  batch = 10,
  leaseMs = 60_000,
}: WebhookWorkerOptions): WebhookWorker {
  const timeoutMs = settings.timeoutMs ?? DELIVERY_TIMEOUT_MS;

  // Once the receiver has answered, losing its outcome to a busy database (no free connection in
  // time) would leave the delivery claimed until the lease runs out and then send it again; a
  // few quick tries to record it keep that duplicate for a real outage.
  async function record(finish: Parameters<typeof repos.webhooks.finishAttempt>[0]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        await repos.webhooks.finishAttempt(finish);
        return;
      } catch (error) {
        if (attempt >= RECORD_TRIES) throw error;
        logger.warn(
          { err: error, deliveryId: finish.deliveryId, attempt },
          'webhook outcome not recorded; trying again',
        );
        await new Promise((resolve) => setTimeout(resolve, RECORD_BACKOFF_MS * attempt));
      }
    }
  }

  async function deliver(delivery: WebhookDeliveryRow, leaseToken: string): Promise<SendResult | null> {
    const endpoint = await repos.webhooks.endpointById(delivery.endpointId);
    if (!endpoint) return null; // deleted: its deliveries went with it
    const base = { deliveryId: delivery.id, endpointId: endpoint.id, leaseToken };
    if (endpoint.disabledAt) {
      observe('disabled');
      await record({
        ...base,
        attempt: null,
        state: 'failed',
        attempts: delivery.attempts,
        nextAttemptAt: delivery.nextAttemptAt,
        endpointHealthy: null,
      });
      return null;
    }
    const at = now();
    const secrets = signingSecrets(endpoint, settings.sealingKey, at);
    const result = await sendWebhook(
      {
        url: endpoint.url,
        headers: webhookHeaders(delivery.eventId, at, delivery.payload, secrets),
        body: delivery.payload,
      },
      {
        allowLoopback: settings.allowLoopback,
        timeoutMs,
        ...(settings.resolve ? { resolve: settings.resolve } : {}),
      },
    );
    observe(result.outcome);
    const attempts = delivery.attempts + 1;
    const attempt = {
      attemptedAt: at,
      outcome: result.outcome,
      status: result.status,
      latencyMs: result.latencyMs,
      responseSnippet: result.snippet,
    };
    if (result.outcome === 'success') {
      await record({
        ...base,
        attempt,
        state: 'delivered',
        attempts,
        nextAttemptAt: at,
        endpointHealthy: true,
      });
    } else {
      const next = result.outcome === 'gone' ? null : nextAttemptAfter(attempts, at);
      const failingFor = endpoint.failingSince ? at.getTime() - endpoint.failingSince.getTime() : 0;
      const disable =
        result.outcome === 'gone'
          ? { at, reason: 'The receiver answered 410 Gone, which asks for no more deliveries.' }
          : failingFor >= DISABLE_AFTER_FAILING_MS
            ? { at, reason: 'Every delivery failed for 5 days.' }
            : undefined;
      await record({
        ...base,
        attempt,
        state: next && !disable ? 'pending' : 'failed',
        attempts,
        nextAttemptAt: next ?? at,
        endpointHealthy: false,
        ...(disable ? { disable } : {}),
      });
      if (disable)
        logger.warn({ endpointId: endpoint.id, reason: disable.reason }, 'webhook endpoint disabled');
    }
    logger.debug(
      { endpointId: endpoint.id, eventId: delivery.eventId, outcome: result.outcome, status: result.status },
      'webhook attempt',
    );
    return result;
  }

  async function runOnce(): Promise<number> {
    let made = 0;
    for (;;) {
      const token = newLeaseToken();
      const claimed = await repos.webhooks.claimDue(now(), batch, token, leaseMs);
      await Promise.all(
        claimed.map(async (delivery) => {
          try {
            if (await deliver(delivery, token)) made += 1;
          } catch (error) {
            // The lease runs out and another round tries again.
            logger.error({ err: error, deliveryId: delivery.id }, 'webhook delivery failed on our side');
          }
        }),
      );
      if (claimed.length < batch) return made;
    }
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = true;
  return {
    runOnce,
    deliver,
    start(pollMs = 1_000) {
      stopped = false;
      const tick = () => {
        running = runOnce()
          .catch((error: unknown) => logger.warn({ err: error }, 'webhook round failed; trying again'))
          .finally(() => {
            if (!stopped) timer = setTimeout(tick, pollMs);
          });
      };
      timer = setTimeout(tick, 0);
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

export { RETRY_DELAYS_MS };
