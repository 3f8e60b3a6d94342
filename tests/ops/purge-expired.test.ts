// Expired credentials are removed, live ones and the rows that still detect misuse are kept,
// on both databases.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../../src/db/database';
import {
  CODE_RETENTION_MS,
  purgeExpired,
  schedulePurge,
  TOKEN_RETENTION_MS,
} from '../../src/domain/purge-expired';
import { freePort, spawnService, waitForLine } from '../helpers/service-process';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '../helpers/test-database';
import { eventually } from '../helpers/eventually';

const HOUR = 60 * 60 * 1000;
const unique = () => randomBytes(6).toString('hex');

async function seed(db: Db, now: Date) {
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
  const user = await db.user.create({ data: { email: `p-${unique()}@example.test`, passwordHash: 'hash' } });
  const session = (expiresAt: Date) =>
    db.session.create({ data: { userId: user.id, tokenHash: unique(), csrfToken: unique(), expiresAt } });
  const client = await db.oAuthClient.create({
    data: {
      id: `client-${unique()}`,
      source: 'registration',
      redirectUris: '["https://app.example/cb"]',
      grantTypes: '["authorization_code","refresh_token"]',
      tokenEndpointAuthMethod: 'none',
    },
  });
  const grant = await db.oAuthGrant.create({
    data: {
      userId: user.id,
      clientId: client.id,
      scope: 'quizzes:read',
      redirectUri: 'https://app.example/cb',
    },
  });
  const code = (expiresAt: Date) =>
    db.oAuthAuthorizationCode.create({
      data: {
        codeHash: unique(),
        grantId: grant.id,
        clientId: client.id,
        userId: user.id,
        scope: 'quizzes:read',
        resource: 'https://quiz.example/api/mcp',
        codeChallenge: 'c',
        codeChallengeMethod: 'S256',
        expiresAt,
      },
    });
  const token = (accessExpiresAt: Date, refreshExpiresAt: Date | null) =>
    db.oAuthToken.create({
      data: {
        accessTokenHash: unique(),
        refreshTokenHash: refreshExpiresAt ? unique() : null,
        grantId: grant.id,
        clientId: client.id,
        userId: user.id,
        familyId: unique(),
        scope: 'quizzes:read',
        resource: 'https://quiz.example/api/mcp',
        accessExpiresAt,
        refreshExpiresAt,
      },
    });
  return {
    expiredSession: await session(at(-1000)),
    liveSession: await session(at(HOUR)),
    oldCode: await code(at(-CODE_RETENTION_MS - HOUR)),
    recentlyExpiredCode: await code(at(-HOUR)), // kept: a replay still revokes what it issued
    liveCode: await code(at(10 * 60 * 1000)),
    deadToken: await token(at(-TOKEN_RETENTION_MS - HOUR), at(-TOKEN_RETENTION_MS - HOUR)),
    deadAccessOnly: await token(at(-TOKEN_RETENTION_MS - HOUR), null),
    refreshStillUsable: await token(at(-TOKEN_RETENTION_MS - HOUR), at(HOUR)),
    recentlyExpiredToken: await token(at(-HOUR), at(-HOUR)),
  };
}

function suite(provider: 'sqlite' | 'postgresql') {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database.drop();
  });

  test('removes what can no longer be used, keeps the rest, and is idempotent', async () => {
    const db = database.prisma;
    const now = new Date();
    const rows = await seed(db, now);
    expect(await purgeExpired(database.repos, now)).toEqual({
      sessions: 1,
      authorizationCodes: 1,
      tokens: 2,
    });

    const sessions = (await db.session.findMany({ select: { id: true } })).map((r) => r.id);
    expect(sessions).toEqual([rows.liveSession.id]);
    const codes = (await db.oAuthAuthorizationCode.findMany({ select: { id: true } })).map((r) => r.id);
    expect(codes.sort()).toEqual([rows.recentlyExpiredCode.id, rows.liveCode.id].sort());
    const tokens = (await db.oAuthToken.findMany({ select: { id: true } })).map((r) => r.id);
    expect(tokens.sort()).toEqual([rows.refreshStillUsable.id, rows.recentlyExpiredToken.id].sort());

    expect(await purgeExpired(database.repos, now)).toEqual({
      sessions: 0,
      authorizationCodes: 0,
      tokens: 0,
    });
  });
}

describe('purging expired credentials: sqlite', () => suite('sqlite'));

describe('the purge schedule of a running service', () => {
  test('runs by itself, logs what it removed, and a failing run is logged and retried', async () => {
    const database = await createTestDatabase('sqlite');
    const lines: Array<[string, object, string]> = [];
    const logger = {
      info: (obj: object, msg: string) => lines.push(['info', obj, msg]),
      warn: (obj: object, msg: string) => lines.push(['warn', obj, msg]),
    };
    try {
      await seed(database.prisma, new Date());
      const schedule = schedulePurge(database.repos, logger, { everyMs: 50 });
      // Waited for, not timed (on a busy machine timers run late); then a few more runs.
      await eventually(() => lines.length > 0);
      const runsSoFar = schedule.finishedRuns;
      await eventually(() => schedule.finishedRuns >= runsSoFar + 3);
      expect(schedule.finishedRuns).toBeGreaterThanOrEqual(runsSoFar + 3);
      expect(await database.prisma.session.count()).toBe(1);
      expect(lines[0]).toEqual([
        'info',
        { purged: { sessions: 1, authorizationCodes: 1, tokens: 2 } },
        expect.stringContaining('removed'),
      ]);
      // Nothing left to remove: later runs stay quiet.
      expect(lines.filter(([level]) => level === 'info')).toHaveLength(1);
      await database.prisma.$disconnect();
      const { users, oauth } = database.repos;
      const failing = {
        oauth,
        users: { ...users, deleteExpiredSessions: () => Promise.reject(new Error('database unreachable')) },
      };
      const broken = schedulePurge(failing, logger, { everyMs: 30 });
      // Two failed runs: the schedule outlives a failure.
      await eventually(() => lines.filter(([level]) => level === 'warn').length >= 2);
      broken.stop();
      schedule.stop();
      const warnings = lines.filter(([level]) => level === 'warn');
      expect(warnings.length).toBeGreaterThanOrEqual(2);
      expect(warnings[0]![2]).toMatch(/next run tries again/);
    } finally {
      await database.drop();
    }
  });
});

describe('the service process at start', () => {
  test('removes expired credentials before it accepts connections', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-purge-start-'));
    const databaseUrl = `file:${path.join(dir, 'quiz.db')}`;
    const database = await openDatabase(databaseUrl);
    await seed(database.prisma, new Date());
    const child = spawnService(
      { PORT: String(await freePort()), DATABASE_URL: databaseUrl, LOG_LEVEL: 'info' },
      dir,
    );
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await waitForLine(child, /quiz service listening/);
      const lines = output
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { msg: string });
      const removed = lines.findIndex(
        (line) => line.msg === 'expired sessions and OAuth credentials removed',
      );
      const listening = lines.findIndex((line) => line.msg.startsWith('quiz service listening'));
      expect(removed).toBeGreaterThanOrEqual(0);
      expect(removed).toBeLessThan(listening);
      expect(await database.prisma.session.count()).toBe(1);
    } finally {
      child.kill('SIGTERM');
      if (child.exitCode === null) await once(child, 'exit');
      await database.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 40_000);
});

describeWithPostgres('purging expired credentials: postgresql', () => suite('postgresql'));
