import type { PrismaClient } from '../../generated/sqlite/client';
import type { Dialect } from '../dialect';
import { outboxStatement, type LazyOutboxEvent, type OutboxEvent } from '../outbox';
import { deleteInBatches } from './batches';
import { WRITE_TRANSACTION_OPTIONS } from './transactions';

/**
 * Webhook endpoints, the outbox of events waiting for them, and the log of delivery attempts
 * (docs/decisions/0012-webhook-deliveries-on-the-database.md). Rows in, rows out: the retry
 * schedule, signing and address checks live in the domain (domain/webhooks/).
 */
export interface WebhookEndpointRow {
  id: string;
  ownerId: string;
  url: string;
  /** Event types, e.g. ["response.submitted"]. */
  events: string[];
  /** Null: every quiz of the owner. */
  quizIds: string[] | null;
  /** The current secret, encrypted (domain/webhooks/secrets.ts). */
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
}

export interface NewWebhookEndpointRow {
  url: string;
  events: readonly string[];
  quizIds: readonly string[] | null;
  secret: string;
}

export type { LazyOutboxEvent, OutboxEvent };

/** Writes the event's outbox rows on `tx`: call it on the transaction of the change that caused it. */
export function outboxInsert(
  tx: Pick<PrismaClient, '$executeRawUnsafe'>,
  dialect: Dialect,
  event: OutboxEvent,
): Promise<number> {
  const { text, values } = outboxStatement(dialect, event);
  return tx.$executeRawUnsafe(text, ...values);
}

export interface WebhookDeliveryRow {
  id: string;
  eventId: string;
  endpointId: string;
  type: string;
  payload: string;
  state: string;
  attempts: number;
  nextAttemptAt: Date;
  createdAt: Date;
}

export interface NewWebhookAttemptRow {
  attemptedAt: Date;
  outcome: string;
  status: number | null;
  latencyMs: number;
  responseSnippet: string | null;
}

export interface WebhookAttemptRow extends NewWebhookAttemptRow {
  id: string;
  deliveryId: string;
  eventId: string;
  type: string;
}

/** What one attempt leaves behind: the delivery's next state, and the endpoint's health. */
export interface AttemptResult {
  deliveryId: string;
  endpointId: string;
  leaseToken: string;
  attempt: NewWebhookAttemptRow | null;
  state: 'pending' | 'delivered' | 'failed';
  attempts: number;
  nextAttemptAt: Date;
  /** Success clears the endpoint's failing time; a failure starts it when it is not set. */
  endpointHealthy: boolean | null;
  /** Disables the endpoint (410 Gone, or failing for too long). */
  disable?: { at: Date; reason: string };
}

export interface WebhookRepository {
  /** Endpoints of the owner, oldest first. */
  endpoints(ownerId: string): Promise<WebhookEndpointRow[]>;
  endpoint(ownerId: string, id: string): Promise<WebhookEndpointRow | null>;
  /** Creates one once `allow(count of the owner's endpoints)` returns without throwing. */
  createEndpoint(
    ownerId: string,
    row: NewWebhookEndpointRow,
    allow: (count: number) => void,
  ): Promise<WebhookEndpointRow>;
  deleteEndpoint(ownerId: string, id: string): Promise<boolean>;
  /** New secret; the current one keeps signing until `previousExpiresAt`. */
  rotateSecret(ownerId: string, id: string, secret: string, previousExpiresAt: Date): Promise<boolean>;
  /** Enables a disabled endpoint again and clears its failing time. */
  enableEndpoint(ownerId: string, id: string): Promise<boolean>;
  /** Writes the event for each subscribed endpoint, outside any other change. */
  writeEvent(event: OutboxEvent): Promise<void>;
  /**
   * Claims up to `limit` due deliveries for `leaseMs`: no other claimer gets them until the
   * lease runs out (FOR UPDATE SKIP LOCKED on PostgreSQL, a conditional update on SQLite).
   */
  claimDue(now: Date, limit: number, leaseToken: string, leaseMs: number): Promise<WebhookDeliveryRow[]>;
  /** The endpoint row a delivery goes to (any owner: the worker's read). */
  endpointById(id: string): Promise<WebhookEndpointRow | null>;
  /** Logs the attempt and moves the delivery on, if the lease is still this one's. */
  finishAttempt(result: AttemptResult): Promise<void>;
  /** The endpoint's latest attempts, newest first. */
  attempts(ownerId: string, endpointId: string, limit: number): Promise<WebhookAttemptRow[]>;
  /** Sends the delivery again from the first step of the schedule. False when there is none. */
  replay(ownerId: string, deliveryId: string, at: Date): Promise<boolean>;
  /** One delivery to one endpoint, held by `leaseToken` from the start (a test event). */
  insertHeldDelivery(
    ownerId: string,
    endpointId: string,
    event: Omit<OutboxEvent, 'ownerId' | 'quizId'>,
    leaseToken: string,
    leaseUntil: Date,
  ): Promise<WebhookDeliveryRow | null>;
  /** Deliveries still waiting (the tests' and the operator's view). */
  pendingCount(): Promise<number>;
  /**
   * Removes, `batch` rows per statement, attempts made before `before` except each endpoint's
   * `keepPerEndpoint` latest (what its delivery log shows), then deliveries no longer pending,
   * last changed before `before`, with no attempt left in the log.
   */
  deleteOldLog(
    before: Date,
    keepPerEndpoint: number,
    batch: number,
  ): Promise<{ deliveries: number; attempts: number }>;
}

interface StoredEndpoint {
  id: string;
  ownerId: string;
  url: string;
  events: string;
  quizIds: string | null;
  secret: string;
  previousSecret: string | null;
  previousSecretExpiresAt: Date | null;
  disabledAt: Date | null;
  disabledReason: string | null;
  failingSince: Date | null;
  createdAt: Date;
}

const endpointColumns = {
  id: true,
  ownerId: true,
  url: true,
  events: true,
  quizIds: true,
  secret: true,
  previousSecret: true,
  previousSecretExpiresAt: true,
  disabledAt: true,
  disabledReason: true,
  failingSince: true,
  createdAt: true,
} as const;

function endpointRow(row: StoredEndpoint): WebhookEndpointRow {
  return {
    ...row,
    events: JSON.parse(row.events) as string[],
    quizIds: row.quizIds === null ? null : (JSON.parse(row.quizIds) as string[]),
  };
}

const deliveryColumns = {
  id: true,
  eventId: true,
  endpointId: true,
  type: true,
  payload: true,
  state: true,
  attempts: true,
  nextAttemptAt: true,
  createdAt: true,
} as const;

export function prismaWebhookRepository(db: PrismaClient, dialect: Dialect): WebhookRepository {
  return { ...endpointMethods(db), ...deliveryMethods(db, dialect), ...deliveryLogMethods(db) };
}

/** The owner's endpoints: reading, creating within the limit, deleting, rotating the secret, enabling again. */
function endpointMethods(
  db: PrismaClient,
): Pick<
  WebhookRepository,
  | 'endpoints'
  | 'endpoint'
  | 'endpointById'
  | 'createEndpoint'
  | 'deleteEndpoint'
  | 'rotateSecret'
  | 'enableEndpoint'
> {
  return {
    async endpoints(ownerId) {
      const rows = await db.webhookEndpoint.findMany({
        where: { ownerId },
        orderBy: [{ createdAt: 'asc' }, { id: 'asc' }],
        select: endpointColumns,
      });
      return rows.map(endpointRow);
    },
    async endpoint(ownerId, id) {
      const row = await db.webhookEndpoint.findFirst({ where: { id, ownerId }, select: endpointColumns });
      return row ? endpointRow(row) : null;
    },
    async endpointById(id) {
      const row = await db.webhookEndpoint.findUnique({ where: { id }, select: endpointColumns });
      return row ? endpointRow(row) : null;
    },
    createEndpoint(ownerId, row, allow) {
      return db.$transaction(async (tx) => {
        // The user's row lock serialises creations per owner, so the limit holds on any instance.
        await tx.user.update({ where: { id: ownerId }, data: { keySeq: { increment: 1 } } });
        allow(await tx.webhookEndpoint.count({ where: { ownerId } }));
        const created = await tx.webhookEndpoint.create({
          data: {
            ownerId,
            url: row.url,
            events: JSON.stringify(row.events),
            quizIds: row.quizIds === null ? null : JSON.stringify(row.quizIds),
            secret: row.secret,
          },
          select: endpointColumns,
        });
        return endpointRow(created);
      }, WRITE_TRANSACTION_OPTIONS);
    },
    async deleteEndpoint(ownerId, id) {
      return (await db.webhookEndpoint.deleteMany({ where: { id, ownerId } })).count > 0;
    },
    async rotateSecret(ownerId, id, secret, previousExpiresAt) {
      return db.$transaction(async (tx) => {
        const current = await tx.webhookEndpoint.findFirst({
          where: { id, ownerId },
          select: { secret: true },
        });
        if (!current) return false;
        await tx.webhookEndpoint.update({
          where: { id },
          data: { secret, previousSecret: current.secret, previousSecretExpiresAt: previousExpiresAt },
        });
        return true;
      }, WRITE_TRANSACTION_OPTIONS);
    },
    async enableEndpoint(ownerId, id) {
      const result = await db.webhookEndpoint.updateMany({
        where: { id, ownerId },
        data: { disabledAt: null, disabledReason: null, failingSince: null },
      });
      return result.count > 0;
    },
  };
}

/** The outbox and its deliveries: writing an event, the worker's claim and its attempt's outcome, a replay, a test event. */
function deliveryMethods(
  db: PrismaClient,
  dialect: Dialect,
): Pick<
  WebhookRepository,
  'writeEvent' | 'claimDue' | 'finishAttempt' | 'replay' | 'insertHeldDelivery' | 'pendingCount'
> {
  return {
    async writeEvent(event) {
      await outboxInsert(db, dialect, event);
    },
    async claimDue(now, limit, leaseToken, leaseMs) {
      const leaseUntil = new Date(now.getTime() + leaseMs);
      const p = dialect.placeholders();
      const [token, until, due, free, take] = [p(), p(), p(), p(), p()];
      // On PostgreSQL concurrent claimers skip each other's rows instead of waiting for them; on
      // SQLite the statement picks and leases the due rows under the one write lock, so a
      // concurrent claimer sees them leased.
      await db.$executeRawUnsafe(
        `UPDATE "webhook_deliveries" SET "leaseToken" = ${token}, "leaseUntil" = ${dialect.timestampParam(until)} ` +
          `WHERE "id" IN (SELECT "id" FROM "webhook_deliveries" WHERE "state" = 'pending' ` +
          `AND "nextAttemptAt" <= ${dialect.timestampParam(due)} AND ("leaseUntil" IS NULL OR "leaseUntil" < ${dialect.timestampParam(free)}) ` +
          `ORDER BY "nextAttemptAt" LIMIT ${take}${dialect.skipLocked})`,
        leaseToken,
        dialect.timestamp(leaseUntil),
        dialect.timestamp(now),
        dialect.timestamp(now),
        limit,
      );
      return db.webhookDelivery.findMany({
        where: { leaseToken, state: 'pending' },
        orderBy: { nextAttemptAt: 'asc' },
        select: deliveryColumns,
      });
    },
    async finishAttempt(result) {
      await db.$transaction(async (tx) => {
        if (result.attempt) {
          await tx.webhookAttempt.create({
            data: { deliveryId: result.deliveryId, endpointId: result.endpointId, ...result.attempt },
          });
        }
        await tx.webhookDelivery.updateMany({
          where: { id: result.deliveryId, leaseToken: result.leaseToken },
          data: {
            state: result.state,
            attempts: result.attempts,
            nextAttemptAt: result.nextAttemptAt,
            leaseToken: null,
            leaseUntil: null,
            ...(result.state === 'delivered' ? { deliveredAt: result.attempt?.attemptedAt ?? null } : {}),
          },
        });
        if (result.endpointHealthy === true) {
          await tx.webhookEndpoint.updateMany({
            where: { id: result.endpointId, failingSince: { not: null } },
            data: { failingSince: null },
          });
        } else if (result.endpointHealthy === false && result.attempt) {
          await tx.webhookEndpoint.updateMany({
            where: { id: result.endpointId, failingSince: null },
            data: { failingSince: result.attempt.attemptedAt },
          });
        }
        if (result.disable) {
          await tx.webhookEndpoint.updateMany({
            where: { id: result.endpointId, disabledAt: null },
            data: { disabledAt: result.disable.at, disabledReason: result.disable.reason },
          });
        }
      }, WRITE_TRANSACTION_OPTIONS);
    },
    async replay(ownerId, deliveryId, at) {
      const result = await db.webhookDelivery.updateMany({
        where: { id: deliveryId, ownerId },
        data: { state: 'pending', attempts: 0, nextAttemptAt: at, leaseToken: null, leaseUntil: null },
      });
      return result.count > 0;
    },
    async insertHeldDelivery(ownerId, endpointId, event, leaseToken, leaseUntil) {
      const owned = await db.webhookEndpoint.findFirst({
        where: { id: endpointId, ownerId },
        select: { id: true },
      });
      if (!owned) return null;
      return db.webhookDelivery.create({
        data: {
          id: `${event.id}:${endpointId}`,
          eventId: event.id,
          endpointId,
          ownerId,
          type: event.type,
          payload: event.payload,
          nextAttemptAt: event.at,
          createdAt: event.at,
          leaseToken,
          leaseUntil,
        },
        select: deliveryColumns,
      });
    },
    pendingCount: () => db.webhookDelivery.count({ where: { state: 'pending' } }),
  };
}

/** The log of delivery attempts: what an endpoint's page shows, and the retention's deletion. */
function deliveryLogMethods(db: PrismaClient): Pick<WebhookRepository, 'deleteOldLog' | 'attempts'> {
  return {
    async deleteOldLog(before, keepPerEndpoint, batch) {
      let attempts = 0;
      const endpoints = await db.webhookAttempt.findMany({
        where: { attemptedAt: { lt: before } },
        distinct: ['endpointId'],
        select: { endpointId: true },
      });
      for (const { endpointId } of endpoints) {
        // The oldest attempt the log still shows; everything strictly older (and past the
        // retention) may go. Ties with it stay, so the log never loses a row it shows.
        const [boundary] = await db.webhookAttempt.findMany({
          where: { endpointId },
          orderBy: [{ attemptedAt: 'desc' }, { id: 'desc' }],
          skip: keepPerEndpoint - 1,
          take: 1,
          select: { attemptedAt: true },
        });
        if (!boundary) continue;
        const cutoff = boundary.attemptedAt < before ? boundary.attemptedAt : before;
        attempts += await deleteInBatches(
          batch,
          (take) =>
            db.webhookAttempt.findMany({
              where: { endpointId, attemptedAt: { lt: cutoff } },
              select: { id: true },
              take,
            }),
          (ids) => db.webhookAttempt.deleteMany({ where: { id: { in: ids } } }),
        );
      }
      const deliveries = await deleteInBatches(
        batch,
        (take) =>
          db.webhookDelivery.findMany({
            where: { state: { not: 'pending' }, updatedAt: { lt: before }, attemptLog: { none: {} } },
            select: { id: true },
            take,
          }),
        (ids) =>
          db.webhookDelivery.deleteMany({
            where: { id: { in: ids }, state: { not: 'pending' }, attemptLog: { none: {} } },
          }),
      );
      return { deliveries, attempts };
    },
    async attempts(ownerId, endpointId, limit) {
      const rows = await db.webhookAttempt.findMany({
        where: { endpointId, endpoint: { ownerId } },
        orderBy: [{ attemptedAt: 'desc' }, { id: 'desc' }],
        take: limit,
        select: {
          id: true,
          deliveryId: true,
          attemptedAt: true,
          outcome: true,
          status: true,
          latencyMs: true,
          responseSnippet: true,
          delivery: { select: { eventId: true, type: true } },
        },
      });
      return rows.map(({ delivery, ...row }) => ({ ...row, eventId: delivery.eventId, type: delivery.type }));
    },
  };
}
