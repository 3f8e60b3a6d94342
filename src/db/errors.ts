/**
 * Is this error the database being unreachable (as opposed to a bad query)? Then the client
 * gets "try again shortly" (503 / a retryable tool error) and the log gets a warning, not a
 * stack trace per request.
 */
const PRISMA_UNAVAILABLE = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EAI_AGAIN',
]);
// PostgreSQL SQLSTATE classes 08 (connection exception) and 57P (operator intervention).
const PG_UNAVAILABLE = /^(08\d\d\d|57P0[1-4])$/;
const MESSAGES =
  /(Connection terminated|timeout exceeded when trying to connect|Can't reach database server|connect ECONNREFUSED|Client has encountered a connection error|database system is (starting up|shutting down)|The database connection is not open|Connection is closed)/i;

export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 5 || typeof error !== 'object' || error === null) return false;
  const candidate = error as {
    code?: unknown;
    name?: unknown;
    message?: unknown;
    cause?: unknown;
    meta?: unknown;
    errorCode?: unknown;
  };
  const code =
    typeof candidate.code === 'string'
      ? candidate.code
      : typeof candidate.errorCode === 'string'
        ? candidate.errorCode
        : '';
  if (PRISMA_UNAVAILABLE.has(code) || NETWORK_CODES.has(code) || PG_UNAVAILABLE.test(code)) return true;
  if (candidate.name === 'PrismaClientInitializationError') return true;
  if (typeof candidate.message === 'string' && MESSAGES.test(candidate.message)) return true;
  const meta = candidate.meta as { driverAdapterError?: unknown } | undefined;
  return (
    isDatabaseUnavailable(candidate.cause, depth + 1) ||
    isDatabaseUnavailable(meta?.driverAdapterError, depth + 1)
  );
}

/**
 * True for a unique-constraint violation (Prisma P2002) from either adapter, optionally only when
 * `field` is one of the constrained columns (no @map in the schema: columns are named like fields).
 */
export function isUniqueViolation(err: unknown, field?: string): boolean {
  if (typeof err !== 'object' || err === null || (err as { code?: unknown }).code !== 'P2002') return false;
  return field === undefined || uniqueViolationColumns(err).includes(field);
}

interface UniqueViolationCause {
  table?: string;
  constraint?: { fields?: string[]; index?: string };
}

function uniqueViolationColumns(err: object): string[] {
  const meta = (err as { meta?: { driverAdapterError?: { cause?: UniqueViolationCause } } }).meta;
  const { table, constraint } = meta?.driverAdapterError?.cause ?? {};
  // SQLite names the columns ("UNIQUE constraint failed: questions.quizId, questions.position").
  if (Array.isArray(constraint?.fields)) return constraint.fields.map((f) => String(f).replace(/^"|"$/g, ''));
  // PostgreSQL names the index only; Prisma names them <table>_<col>_<col>_key.
  const index = constraint?.index;
  if (typeof index === 'string' && table && index.startsWith(`${table}_`) && index.endsWith('_key')) {
    return index.slice(table.length + 1, -'_key'.length).split('_');
  }
  return [];
}

/** True for a foreign-key violation (Prisma P2003): the row referred to is gone. */
export function isForeignKeyViolation(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as { code?: unknown }).code === 'P2003';
}

/**
 * The database the configuration names cannot be used as it is, for a reason the operator
 * fixes (the message says how); start-up and the CLI print it as it is, without a stack.
 */
export class DatabaseSetupError extends Error {
  override readonly name = 'DatabaseSetupError';
}

/** PostgreSQL SQLSTATE 3D000, invalid_catalog_name: the database named in the URL does not exist. */
export function missingPostgresDatabase(error: unknown, url: string): DatabaseSetupError | undefined {
  if ((error as { code?: unknown } | null)?.code !== '3D000') return undefined;
  const parsed = new URL(url);
  const name = decodeURIComponent(parsed.pathname.slice(1));
  const host = parsed.hostname || 'localhost';
  const port = parsed.port || '5432';
  const user = decodeURIComponent(parsed.username) || 'postgres';
  return new DatabaseSetupError(
    `The PostgreSQL database "${name}" does not exist on ${host}:${port}. Create it once, for example ` +
      `\`createdb -h ${host} -p ${port} -U ${user} ${name}\` (or \`CREATE DATABASE "${name}";\` in psql), ` +
      'then start again: the service creates its tables itself.',
  );
}
