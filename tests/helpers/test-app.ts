// Starts the real app (createApp) on a fresh database and a loopback port, and gives tests
// their own users, API keys and MCP clients: every test file is independent of the others.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Express } from 'express';
import { createApp, type AppDeps } from '../../src/app';
import { testConfig, type Config } from '../../src/config';
import { openDatabase, type Provider } from '../../src/db/database';
import { createApiKey } from '../../src/domain/api-keys';
import type { DomainDeps } from '../../src/domain/deps';
import { createUser } from '../../src/domain/users';
import { createLogger, type Logger } from '../../src/logger';
import { linkSigner } from '../../src/domain/links/signed-links';
import { createHttpServer } from '../../src/server';
import { closeReadPool } from '../../src/domain/import/read-pool';
import { connectClient, type AnyClient } from './mcp-clients';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from './test-database';

export interface TestApp {
  app: Express;
  server: http.Server;
  baseUrl: string;
  config: Config;
  database: TestDatabase;
  /** What the app's domain calls are given, for tests that call the domain directly. */
  deps: DomainDeps;
  logger: Logger;
  close(): Promise<void>;
}

export interface TestAppOptions {
  provider?: Provider;
  config?: Partial<Config>;
  /** Tools to serve instead of the production ones (see AppDeps.tools). */
  tools?: AppDeps['tools'];
  logger?: Logger;
  /** Reuse a database (e.g. two instances on one database); it is not dropped on close. */
  database?: TestDatabase;
  /** Shared counters in Redis (pass a unique `config.redisKeyPrefix` too). */
  redis?: AppDeps['redis'];
  /** OAuth test hooks (e.g. Client ID Metadata Documents served on loopback). */
  oauthTestHooks?: AppDeps['oauthTestHooks'];
  /** The app's throttle clock, for tests that move time instead of sleeping. */
  now?: AppDeps['now'];
  /** The webhook worker's clock, timeout and resolver. */
  webhookHooks?: AppDeps['webhookHooks'];
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase(options.provider ?? 'sqlite'));
  // The server production runs (its limits, and requests born with the app's prototypes).
  const { server, serve } = createHttpServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  const config = testConfig({ baseUrl, port, allowedHosts: [`127.0.0.1:${port}`], ...options.config });
  const logger = options.logger ?? createLogger('silent');
  const app = createApp({
    config,
    database,
    logger,
    ...(options.tools ? { tools: options.tools } : {}),
    ...(options.redis ? { redis: options.redis } : {}),
    ...(options.oauthTestHooks ? { oauthTestHooks: options.oauthTestHooks } : {}),
    ...(options.now ? { now: options.now } : {}),
    ...(options.webhookHooks ? { webhookHooks: options.webhookHooks } : {}),
  });
  serve(app);
  return {
    app,
    server,
    baseUrl,
    config,
    database,
    deps: { repos: database.repos, baseUrl, links: linkSigner(config.sessionSecret) },
    logger,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await closeReadPool();
      if (!options.database) await database.drop();
    },
  };
}

export interface TestUser {
  id: string;
  email: string;
  password: string;
  apiKey: string;
}

/** A fresh user with one API key. */
export async function createTestUser(target: TestApp | TestDatabase, label = 'user'): Promise<TestUser> {
  const repos = 'database' in target ? target.database.repos : target.repos;
  const email = `${label}-${randomBytes(5).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(8).toString('hex')}`;
  const user = await createUser(repos, { email, password });
  const key = await createApiKey(repos, user.id, `${label} test key`);
  return { id: user.id, email, password, apiKey: key.key };
}

export interface TwoInstances {
  one: TestApp;
  two: TestApp;
  /** A user with an API key, and an MCP client for it on each instance. */
  user: TestUser;
  viaOne: AnyClient;
  viaTwo: AnyClient;
  /** Stops both instances and the second's connections; the database stays the caller's. */
  close(): Promise<void>;
}

/**
 * Two instances on one database, as two processes behind one load balancer have them: the
 * second opens connections of its own and serves the first's public origin (the OAuth audience).
 */
export async function startTwoInstances(
  database: TestDatabase,
  options: { config?: Partial<Config>; redis?: [AppDeps['redis'], AppDeps['redis']] } = {},
): Promise<TwoInstances> {
  // The pool a process has by default: a smaller one queues a burst of submissions behind the
  // delivery worker's writes until the pool's wait runs out (503), which a real instance does not.
  const second = await openDatabase(database.url, { migrate: false });
  const one = await startTestApp({ database, config: options.config, redis: options.redis?.[0] });
  const two = await startTestApp({
    database: { ...second, drop: async () => undefined },
    config: { ...options.config, baseUrl: one.baseUrl },
    redis: options.redis?.[1],
  });
  const user = await createTestUser(database);
  const viaOne = await connectClient(one, user.apiKey);
  const viaTwo = await connectClient(two, user.apiKey);
  return {
    one,
    two,
    user,
    viaOne,
    viaTwo,
    async close() {
      await viaOne.close();
      await viaTwo.close();
      await one.close();
      await two.close();
      await second.close();
    },
  };
}

/** Parses an SSE body into the JSON-RPC messages of its `message` events. */
export function sseMessages(body: string): any[] {
  return body
    .split(/\r?\n\r?\n/)
    .filter((block) => /^event: message$/m.test(block))
    .map((block) =>
      JSON.parse(
        block
          .split(/\r?\n/)
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trimStart())
          .join('\n'),
      ),
    );
}

/**
 * Public limits raised far out of reach, for suites that make many accounts or requests from one
 * address to test something else (the limits themselves have their own suites).
 */
export function raisedLimits(): Pick<
  Config,
  | 'limits'
  | 'submissionsPerMinute'
  | 'submissionsPerAddressPerMinute'
  | 'submissionRefusalsPerMinute'
  | 'rateLimit'
> {
  const many = 1_000_000;
  return {
    limits: {
      signupsPerHour: many,
      loginsPerMinute: many,
      loginDelay: { freeFailures: many, maxDelaySeconds: 1 },
      authorizePerMinute: many,
      tokenPerClientPerMinute: many,
      tokenPerAddressPerMinute: many,
      uploads: {
        linkFiles: many,
        linkBytes: many * 1024,
        accountBytes: many * 1024,
        perAddressPerMinute: many,
      },
    },
    submissionsPerMinute: many,
    submissionsPerAddressPerMinute: many,
    submissionRefusalsPerMinute: many,
    rateLimit: { max: many, windowSeconds: 60 },
  };
}

export const ACCEPT_BOTH = 'application/json, text/event-stream';

/** Every tool, in the order the API reference and `tools/list` of `?toolsets=all` show them. */
export const SPEC_TOOLS = [
  'list_quizzes',
  'create_quiz',
  'get_quiz_questions',
  'get_quiz_settings',
  'update_quiz',
  'edit_questions',
  'publish_quiz',
  'get_results',
  'get_answers_to_grade',
  'grade_answers',
  'delete_quiz',
  'close_quiz',
  'reopen_quiz',
  'duplicate_quiz',
  'get_quiz_links',
  'import_questions',
] as const;

/** What `tools/list` shows a connection that names no toolset, in order. */
export const DEFAULT_TOOLS = [
  'list_quizzes',
  'create_quiz',
  'get_quiz_questions',
  'get_quiz_settings',
  'update_quiz',
  'edit_questions',
  'publish_quiz',
  'get_results',
  'delete_quiz',
] as const;

/** The tools each toolset adds to the default list. */
export const TOOLSET_TOOLS = {
  grading: [
    'get_answers_to_grade',
    'grade_answers',
    'close_quiz',
    'reopen_quiz',
    'duplicate_quiz',
    'get_quiz_links',
  ],
  import: ['import_questions'],
} as const;

/** A JSON-RPC `tools/call` body. */
export function toolCall(name: string, args: Record<string, unknown> = {}, id: number | string = 1) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}

/** Registers a suite on SQLite, and again on PostgreSQL (skipped visibly when no server answers). */
export function describeEachDatabase(name: string, fn: (provider: Provider) => void): void {
  describe(`${name} [sqlite]`, () => fn('sqlite'));
  describeWithPostgres(`${name} [postgresql]`, () => fn('postgresql'));
}

export const sampleQuestions = () => [
  { type: 'yes_no', text: 'Is the sky blue?', points: 2 },
  {
    type: 'multiple_choice',
    text: 'Capital of Italy?',
    options: [
      { label: 'Rome', score: 3 },
      { label: 'Milan', score: 0 },
      { label: 'Turin', score: -1 },
    ],
  },
];

/** The secret with its last character changed (always to a different one). */
export function mistype(secret: string): string {
  const last = secret.slice(-1);
  return `${secret.slice(0, -1)}${last === 'x' ? 'y' : 'x'}`;
}
