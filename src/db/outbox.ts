import type { Dialect } from './dialect';

/** One event for the outbox: a row is written per subscribed, enabled endpoint of the owner. */
export interface OutboxEvent {
  /** "msg_...": the webhook-id, the same for every endpoint. */
  id: string;
  ownerId: string;
  quizId: string;
  type: string;
  /** The JSON body, exactly as it will be signed and sent. */
  payload: string;
  at: Date;
}

// The endpoints an event goes to, in both statements: the owner's, enabled, taking its type and its quiz.
const endpointsTaking = (p: () => string) =>
  `e."ownerId" = ${p()} AND e."disabledAt" IS NULL AND e."events" LIKE ${p()} ` +
  `AND (e."quizIds" IS NULL OR e."quizIds" LIKE ${p()})`;
const endpointValues = (event: Pick<OutboxEvent, 'ownerId' | 'quizId' | 'type'>) => [
  event.ownerId,
  `%"${event.type}"%`,
  `%"${event.quizId}"%`,
];

/**
 * An event whose body is built only once an endpoint is found to take it: a submission's body
 * holds every answer, and most owners have no endpoint.
 */
export interface LazyOutboxEvent<C> {
  ownerId: string;
  quizId: string;
  type: string;
  build(cause: C): OutboxEvent;
}

/** Whether any enabled endpoint of the owner takes events of `type` for the quiz (outboxStatement's rows). */
export function listenersStatement(
  dialect: Dialect,
  event: Pick<OutboxEvent, 'ownerId' | 'quizId' | 'type'>,
): { text: string; values: unknown[] } {
  const p = dialect.placeholders();
  return {
    text: `SELECT 1 AS "listening" FROM "webhook_endpoints" e WHERE ${endpointsTaking(p)} LIMIT 1`,
    values: endpointValues(event),
  };
}

/**
 * Writes `event` once for each enabled endpoint of its owner that takes its type and its quiz,
 * in one statement that writes nothing when there is none (docs/decisions/0012); a submission
 * asks listenersStatement first, so its body is not even built when no one listens. Run it in
 * the transaction of the change that caused the event: the raw writers (response-writes.ts) run
 * it on their connection, the repositories through Prisma (`$executeRawUnsafe(text, ...values)`).
 * A repeated event id writes nothing again.
 */
export function outboxStatement(dialect: Dialect, event: OutboxEvent): { text: string; values: unknown[] } {
  const p = dialect.placeholders();
  const at = dialect.timestamp(event.at);
  // Typed where PostgreSQL cannot infer a parameter's type from its use.
  const text = () => `CAST(${p()} AS TEXT)`;
  const time = () => dialect.timestampParam(p());
  const sql =
    `INSERT INTO "webhook_deliveries" ("id","eventId","endpointId","ownerId","quizId","type","payload","state","attempts","nextAttemptAt","createdAt","updatedAt") ` +
    `SELECT ${text()} || ':' || e."id", ${text()}, e."id", e."ownerId", ${text()}, ${text()}, ${text()}, 'pending', 0, ` +
    `${time()}, ${time()}, ${time()} ` +
    `FROM "webhook_endpoints" e WHERE ${endpointsTaking(p)} ON CONFLICT DO NOTHING`;
  return {
    text: sql,
    values: [
      event.id,
      event.id,
      event.quizId,
      event.type,
      event.payload,
      at,
      at,
      at,
      ...endpointValues(event),
    ],
  };
}
