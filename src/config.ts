import { randomBytes } from 'node:crypto';
import { z } from 'zod';

/**
 * The one reader of the environment. Everything else receives a `Config`.
 * `.env.example` documents every key.
 */
const booleanString = z
  .enum(['true', 'false', '1', '0'])
  .transform((value) => value === 'true' || value === '1');

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  // Unset: loopback in development (a laptop on a café's network exposes nothing), every
  // interface in production (a proxy or a class must reach it); see defaultHost.
  HOST: z.string().min(1).optional(),
  BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  DATABASE_URL: z.string().min(1).default('file:./data/quiz.db'),
  DATABASE_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  REDIS_URL: z.string().optional(),
  REDIS_KEY_PREFIX: z.string().max(100).default('quiz:'),
  SESSION_SECRET: z.string().min(32).optional(),
  // log2 of scrypt's N for passwords (r=8, p=1); production refuses less than OWASP's minimum.
  PASSWORD_HASH_COST: z.coerce.number().int().min(10).max(20).default(17),
  TRUST_PROXY: z.string().optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  RATE_LIMIT_MAX: z.coerce.number().int().min(1).default(120),
  RATE_LIMIT_WINDOW_S: z.coerce.number().int().min(1).default(60),
  SUBMISSIONS_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  SUBMISSIONS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  SUBMISSION_REFUSALS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  // 200 students behind one address saving every 5 s make 2,400 a minute.
  SAVES_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(3000),
  SAVES_PER_ATTEMPT_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  SIGNUPS_PER_HOUR: z.coerce.number().int().min(1).default(10),
  LOGINS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  LOGIN_FREE_FAILURES: z.coerce.number().int().min(1).default(5),
  LOGIN_MAX_DELAY_S: z.coerce.number().int().min(1).max(3_600).default(60),
  AUTHORIZE_PER_MINUTE: z.coerce.number().int().min(1).default(60),
  TOKEN_PER_CLIENT_PER_MINUTE: z.coerce.number().int().min(1).default(120),
  TOKEN_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(1_200),
  MAX_BODY_BYTES: z.coerce.number().int().min(1024).default(1_048_576),
  ALLOWED_HOSTS: z.string().optional(),
  ALLOWED_ORIGINS: z.string().optional(),
  METRICS_TOKEN: z.string().optional(),
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(600_000).default(5_000),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  /** The former name of SHUTDOWN_TIMEOUT_MS, still read when that is not set. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(600_000).optional(),
  WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  ENFORCE_HOST: booleanString.optional(),
  // OAuth. RFC 6749 4.1.2: codes live 10 minutes at most.
  OAUTH_ACCESS_TOKEN_TTL_S: z.coerce.number().int().min(1).max(86_400).default(3_600),
  OAUTH_REFRESH_TOKEN_TTL_S: z.coerce.number().int().min(1).max(31_536_000).default(2_592_000),
  OAUTH_CODE_TTL_S: z.coerce.number().int().min(1).max(600).default(300),
  OAUTH_REGISTRATIONS_PER_HOUR: z.coerce.number().int().min(1).default(100),
  // Webhooks. Loopback targets over plain HTTP are for development and tests only.
  WEBHOOKS_ALLOW_LOOPBACK: booleanString.optional(),
  LTI_ALLOW_LOOPBACK: booleanString.optional(),
  WEBHOOKS_SECRET_KEY: z.string().min(32).optional(),
  WEBHOOK_DELIVERY_RETENTION_DAYS: z.coerce.number().int().min(1).max(3_650).default(30),
  // Images in questions: the bytes one quiz's pictures and one account's may take (each picture once).
  IMAGE_QUOTA_PER_QUIZ_MB: z.coerce.number().int().min(1).max(10_000).default(20),
  IMAGE_QUOTA_PER_ACCOUNT_MB: z.coerce.number().int().min(1).max(1_000_000).default(200),
  // Upload links take files without a credential: per link, per account's kept uploads, per address.
  UPLOAD_LINK_MAX_FILES: z.coerce.number().int().min(1).max(1_000).default(10),
  UPLOAD_LINK_MAX_MB: z.coerce.number().int().min(1).max(10_000).default(30),
  UPLOAD_QUOTA_PER_ACCOUNT_MB: z.coerce.number().int().min(1).max(1_000_000).default(100),
  UPLOADS_PER_ADDRESS_PER_MINUTE: z.coerce.number().int().min(1).default(30),
  // The terminal's convention (no-color.org): set and not empty, the start-up banner has no colour.
  NO_COLOR: z.string().optional(),
  // Tests only: the process kills itself inside a submission, right after the attempt's claim.
  TEST_CRASH_AFTER_CLAIM: booleanString.optional(),
});

export type Env = z.infer<typeof EnvSchema>;

/** Every key read from the environment; `.env.example` documents each (tests/docs/env-keys.test.ts). */
export const ENV_KEYS = Object.keys(EnvSchema.shape) as (keyof Env)[];

export interface Config {
  env: Env['NODE_ENV'];
  port: number;
  host: string;
  /** Public origin without a trailing slash, e.g. `https://quiz.example.com`. */
  baseUrl: string;
  databaseUrl: string;
  databasePoolSize: number;
  redisUrl: string | undefined;
  /** Prepended to every Redis key, so several deployments (or test runs) can share one Redis. */
  redisKeyPrefix: string;
  sessionSecret: string | undefined;
  /** log2 of scrypt's N for new password hashes (r=8, p=1): 17 is OWASP's minimum. */
  passwordHashCost: number;
  /** Express `trust proxy` value: false, a hop count, or a list of addresses/subnets. */
  trustProxy: boolean | number | string[];
  logLevel: Env['LOG_LEVEL'];
  rateLimit: { max: number; windowSeconds: number };
  /**
   * Respondent submissions stored (form and JSON together) per quiz and minute, per attempt where
   * the quiz is taken through one, else per client address. Refusals do not count.
   */
  submissionsPerMinute: number;
  /** Everything respondents send to one quiz from one address per minute (a school behind one NAT). */
  submissionsPerAddressPerMinute: number;
  /** Refused submissions (422, 409...) per quiz and minute, per attempt or else per address. */
  submissionRefusalsPerMinute: number;
  /** Answers saved as students go, per quiz and address per minute; their own budget, never the submissions'. */
  savesPerAddressPerMinute: number;
  /** Saves per attempt per minute. */
  savesPerAttemptPerMinute: number;
  limits: PublicLimits;
  maxBodyBytes: number;
  /** Host names accepted in the Host header; enforced in production (DNS rebinding). */
  allowedHosts: string[];
  /** Browser origins besides BASE_URL's own that may call the API (DNS-rebinding guard). */
  allowedOrigins: string[];
  enforceHost: boolean;
  metricsToken: string | undefined;
  /** After SIGTERM: serve on this long while readiness fails, then stop accepting. */
  shutdownDrainMs: number;
  /** After SIGTERM: exit at the latest this long after, cutting off what still runs. */
  shutdownTimeoutMs: number;
  /** Processes serving the port (node:cluster); 1 = this process alone. */
  workers: number;
  oauth: OAuthConfig;
  /** NO_COLOR is set: the start-up banner is plain text even on a terminal. */
  noColor: boolean;
  /** NODE_ENV=test only: the process dies right after a submission claims its attempt (the crash test). */
  crashAfterClaim: boolean;
  webhooks: WebhookConfig;
  lti: LtiConfig;
  /**
   * Finished webhook deliveries and logged attempts are removed this many days after; each
   * endpoint's delivery log keeps its latest attempts whatever their age.
   */
  webhookDeliveryRetentionDays: number;
  images: ImageConfig;
}

export interface ImageConfig {
  /** Bytes one quiz's pictures may take, each picture counted once. */
  quizQuotaBytes: number;
  /** Bytes all of one account's pictures may take. */
  accountQuotaBytes: number;
  /** image_url may name loopback over plain HTTP: tests only, never read from the environment. */
  allowLoopback: boolean;
  /** Each fetch of an image_url ends after this long. */
  fetchTimeoutMs: number;
}

export interface LtiConfig {
  /** Platforms on this machine over plain HTTP (trying a local Moodle, tests); refused in production. */
  allowLoopback: boolean;
}

export interface WebhookConfig {
  /** Loopback receivers over plain HTTP (development and tests); refused in production. */
  allowLoopback: boolean;
  /** Encrypts endpoints' signing secrets at rest; when unset, a key derived from SESSION_SECRET. */
  secretKey: string | undefined;
}

/** Lifetimes of what the OAuth authorization server issues, and its registration limit. */
export interface OAuthConfig {
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  authorizationCodeTtlSeconds: number;
  /** Client registrations per hour per client IP (assistant platforms share egress addresses). */
  registrationsPerHour: number;
}

/**
 * Limits on what anyone may do without a credential. One address can be many people (a
 * classroom behind one NAT, an assistant platform's egress), so the per-address figures leave room.
 */
export interface PublicLimits {
  /** Accounts created per client address per hour. */
  signupsPerHour: number;
  /** Log-in attempts per client address per minute. */
  loginsPerMinute: number;
  /** Per account: failures before each attempt must wait, and the longest wait (never a lock-out). */
  loginDelay: { freeFailures: number; maxDelaySeconds: number };
  /** Requests to the authorization endpoint per client address per minute. */
  authorizePerMinute: number;
  /**
   * Token and revocation requests per OAuth client from one address per minute (a client's name
   * alone identifies nobody: anyone can send it)...
   */
  tokenPerClientPerMinute: number;
  /** ...and per client address, a ceiling high enough for a platform's shared egress. */
  tokenPerAddressPerMinute: number;
  /** What upload links take (they need no credential). */
  uploads: UploadLimits;
}

export interface UploadLimits {
  /** Files one upload link stores while it lives. */
  linkFiles: number;
  /** Bytes one upload link stores while it lives. */
  linkBytes: number;
  /** Bytes of one account's uploads kept at a time (each is kept until it expires). */
  accountBytes: number;
  /** Files sent to upload links per client address per minute. */
  perAddressPerMinute: number;
}

export class ConfigError extends Error {}

/** Where the server listens when HOST is unset: every interface in production only. */
export function defaultHost(nodeEnv: Env['NODE_ENV']): string {
  return nodeEnv === 'production' ? '0.0.0.0' : '127.0.0.1';
}

function parseTrustProxy(raw: string | undefined): Config['trustProxy'] {
  if (raw === undefined || raw.trim() === '' || raw === 'false') return false;
  if (/^\d+$/.test(raw.trim())) return Number(raw.trim());
  // `true` would trust any X-Forwarded-For and let clients pick their own rate-limit bucket.
  if (raw.trim() === 'true') {
    throw new ConfigError(
      'TRUST_PROXY=true trusts every client: list the proxy addresses or give a hop count',
    );
  }
  return raw
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

export function loadConfig(source: NodeJS.ProcessEnv = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const baseUrl = (env.BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/+$/, '');
  if (env.NODE_ENV === 'production' && !env.SESSION_SECRET) {
    throw new ConfigError(
      'SESSION_SECRET is required in production (at least 32 characters), the same on every instance: ' +
        'sessions and attempt tokens made by one instance must verify on the others',
    );
  }
  if (env.NODE_ENV === 'production' && env.PASSWORD_HASH_COST < 17) {
    throw new ConfigError(
      `PASSWORD_HASH_COST=${env.PASSWORD_HASH_COST} is below OWASP's minimum for scrypt (17, N=2^17): lower costs are for tests only, remove it or raise it in production`,
    );
  }
  if (env.NODE_ENV === 'production' && env.WEBHOOKS_ALLOW_LOOPBACK) {
    throw new ConfigError(
      'WEBHOOKS_ALLOW_LOOPBACK lets webhooks reach this machine over plain HTTP: it is for development and tests only, remove it in production',
    );
  }
  if (env.NODE_ENV === 'production' && env.LTI_ALLOW_LOOPBACK) {
    throw new ConfigError(
      'LTI_ALLOW_LOOPBACK lets LTI platforms be this machine over plain HTTP: it is for trying a local platform and tests only, remove it in production',
    );
  }
  if (env.TEST_CRASH_AFTER_CLAIM && env.NODE_ENV !== 'test') {
    throw new ConfigError(
      `TEST_CRASH_AFTER_CLAIM kills the process inside a submission: it is for the crash test only (NODE_ENV=test), remove it with NODE_ENV=${env.NODE_ENV}`,
    );
  }
  const baseHost = new URL(baseUrl).host;
  return {
    env: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST ?? defaultHost(env.NODE_ENV),
    baseUrl,
    databaseUrl: env.DATABASE_URL,
    databasePoolSize: env.DATABASE_POOL_SIZE,
    redisUrl: env.REDIS_URL || undefined,
    redisKeyPrefix: env.REDIS_KEY_PREFIX,
    sessionSecret: env.SESSION_SECRET,
    passwordHashCost: env.PASSWORD_HASH_COST,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    logLevel: env.LOG_LEVEL,
    rateLimit: { max: env.RATE_LIMIT_MAX, windowSeconds: env.RATE_LIMIT_WINDOW_S },
    submissionsPerMinute: env.SUBMISSIONS_PER_MINUTE,
    submissionsPerAddressPerMinute: env.SUBMISSIONS_PER_ADDRESS_PER_MINUTE,
    submissionRefusalsPerMinute: env.SUBMISSION_REFUSALS_PER_MINUTE,
    savesPerAddressPerMinute: env.SAVES_PER_ADDRESS_PER_MINUTE,
    savesPerAttemptPerMinute: env.SAVES_PER_ATTEMPT_PER_MINUTE,
    limits: {
      signupsPerHour: env.SIGNUPS_PER_HOUR,
      loginsPerMinute: env.LOGINS_PER_MINUTE,
      loginDelay: { freeFailures: env.LOGIN_FREE_FAILURES, maxDelaySeconds: env.LOGIN_MAX_DELAY_S },
      authorizePerMinute: env.AUTHORIZE_PER_MINUTE,
      tokenPerClientPerMinute: env.TOKEN_PER_CLIENT_PER_MINUTE,
      tokenPerAddressPerMinute: env.TOKEN_PER_ADDRESS_PER_MINUTE,
      uploads: {
        linkFiles: env.UPLOAD_LINK_MAX_FILES,
        linkBytes: env.UPLOAD_LINK_MAX_MB * 1024 * 1024,
        accountBytes: env.UPLOAD_QUOTA_PER_ACCOUNT_MB * 1024 * 1024,
        perAddressPerMinute: env.UPLOADS_PER_ADDRESS_PER_MINUTE,
      },
    },
    maxBodyBytes: env.MAX_BODY_BYTES,
    allowedHosts: env.ALLOWED_HOSTS
      ? env.ALLOWED_HOSTS.split(',')
          .map((h) => h.trim().toLowerCase())
          .filter(Boolean)
      : [baseHost.toLowerCase()],
    allowedOrigins: env.ALLOWED_ORIGINS
      ? env.ALLOWED_ORIGINS.split(',')
          .map((o) => o.trim())
          .filter(Boolean)
      : [],
    enforceHost: env.ENFORCE_HOST ?? env.NODE_ENV === 'production',
    metricsToken: env.METRICS_TOKEN || undefined,
    shutdownDrainMs: env.SHUTDOWN_DRAIN_MS,
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS ?? env.SHUTDOWN_GRACE_MS ?? env.SHUTDOWN_DRAIN_MS + 15_000,
    workers: env.WORKERS,
    oauth: {
      accessTokenTtlSeconds: env.OAUTH_ACCESS_TOKEN_TTL_S,
      refreshTokenTtlSeconds: env.OAUTH_REFRESH_TOKEN_TTL_S,
      authorizationCodeTtlSeconds: env.OAUTH_CODE_TTL_S,
      registrationsPerHour: env.OAUTH_REGISTRATIONS_PER_HOUR,
    },
    noColor: Boolean(env.NO_COLOR),
    crashAfterClaim: env.TEST_CRASH_AFTER_CLAIM === true,
    webhooks: { allowLoopback: env.WEBHOOKS_ALLOW_LOOPBACK ?? false, secretKey: env.WEBHOOKS_SECRET_KEY },
    lti: { allowLoopback: env.LTI_ALLOW_LOOPBACK ?? false },
    webhookDeliveryRetentionDays: env.WEBHOOK_DELIVERY_RETENTION_DAYS,
    images: {
      quizQuotaBytes: env.IMAGE_QUOTA_PER_QUIZ_MB * 1024 * 1024,
      accountQuotaBytes: env.IMAGE_QUOTA_PER_ACCOUNT_MB * 1024 * 1024,
      allowLoopback: false,
      fetchTimeoutMs: 10_000,
    },
  };
}

/**
 * The port and host the configuration asks for, read on their own: a start-up error names them
 * even when another key is invalid. A value that does not parse counts as its default.
 */
export function listenAddress(source: NodeJS.ProcessEnv = process.env): Pick<Config, 'port' | 'host'> {
  const port = EnvSchema.shape.PORT.safeParse(source.PORT);
  const host = EnvSchema.shape.HOST.safeParse(source.HOST);
  const nodeEnv = EnvSchema.shape.NODE_ENV.safeParse(source.NODE_ENV);
  return {
    port: port.success ? port.data : EnvSchema.shape.PORT.parse(undefined),
    host:
      (host.success ? host.data : undefined) ?? defaultHost(nodeEnv.success ? nodeEnv.data : 'development'),
  };
}

/** One session secret for every test config in a process: two test instances agree, as workers do. */
let testSessionSecret: string | undefined;

/** A config for tests and tools: defaults plus overrides, without touching process.env. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  testSessionSecret ??= randomBytes(32).toString('base64url');
  return {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent' }),
    sessionSecret: testSessionSecret,
    ...overrides,
  };
}
