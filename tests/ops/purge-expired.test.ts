// Expired credentials are removed, live ones and the rows that still detect misuse are kept,
// on both databases.
import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase, type Db } from '../../src/db/database';
import {
  ATTEMPT_RETENTION_MS,
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
      attempts: 0,
      submissionKeys: 0,
      webhookDeliveries: 0,
      webhookAttempts: 0,
      uploads: 0,
      ltiRegistrationLinks: 0,
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
      attempts: 0,
      submissionKeys: 0,
      webhookDeliveries: 0,
      webhookAttempts: 0,
      uploads: 0,
      ltiRegistrationLinks: 0,
    });
  });

  test('attempts that ran out unsubmitted go a day later; submitted and live ones stay', async () => {
    const db = database.prisma;
    const now = new Date();
    const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
    const user = await db.user.create({
      data: { email: `a-${unique()}@example.test`, passwordHash: 'hash' },
    });
    const slug = `q-${unique()}`;
    const quiz = await db.quiz.create({ data: { ownerId: user.id, title: slug, titleKey: slug, slug } });
    const attempt = (startedAt: Date, deadline: Date | null, submittedAt: Date | null = null) =>
      db.attempt.create({
        data: { quizId: quiz.id, quizVersion: 1, layout: '[]', startedAt, deadline, submittedAt },
      });
    const dayAndMore = -ATTEMPT_RETENTION_MS - HOUR;
    const gone = [
      await attempt(at(-2 * HOUR + dayAndMore), at(-HOUR + dayAndMore)), // timed, ran out a day ago
      await attempt(at(-24 * HOUR + dayAndMore), null), // untimed, a day past its 24 hours
    ];
    const kept = [
      await attempt(at(-2 * HOUR + dayAndMore), at(-HOUR + dayAndMore), at(-HOUR + dayAndMore)), // submitted
      await attempt(at(-2 * HOUR), at(-HOUR)), // ran out an hour ago: a late submission is told so
      await attempt(at(-HOUR), at(HOUR)), // under way
      await attempt(at(-20 * HOUR), null), // untimed, still within its 24 hours
    ];
    const counts = await purgeExpired(database.repos, now, { batch: 1 });
    expect(counts.attempts).toBe(gone.length);
    const left = (await db.attempt.findMany({ where: { quizId: quiz.id }, select: { id: true } })).map(
      (r) => r.id,
    );
    expect(left.sort()).toEqual(kept.map((row) => row.id).sort());
  });

  test('LTI registration addresses go once their hour is over, used or not; live ones stay', async () => {
    const db = database.prisma;
    const now = new Date();
    const user = await db.user.create({
      data: { email: `l-${unique()}@example.test`, passwordHash: 'hash' },
    });
    const link = (expiresAt: Date, usedAt: Date | null = null) =>
      db.ltiRegistrationLink.create({ data: { tokenHash: unique(), ownerId: user.id, expiresAt, usedAt } });
    const live = await link(new Date(now.getTime() + 30 * 60 * 1000));
    await link(new Date(now.getTime() - 1000));
    await link(new Date(now.getTime() - 1000), new Date(now.getTime() - 60 * 60 * 1000));
    const counts = await purgeExpired(database.repos, now, { batch: 1 });
    expect(counts.ltiRegistrationLinks).toBe(2);
    const kept = await db.ltiRegistrationLink.findMany({ where: { ownerId: user.id } });
    expect(kept.map((row) => row.tokenHash)).toEqual([live.tokenHash]);
  });

  test('webhook deliveries and attempts past the retention go; waiting ones and each log stay', async () => {
    const db = database.prisma;
    const now = new Date();
    const DAY = 24 * HOUR;
    const at = (offsetMs: number) => new Date(now.getTime() + offsetMs);
    const user = await db.user.create({
      data: { email: `w-${unique()}@example.test`, passwordHash: 'hash' },
    });
    const endpoint = () =>
      db.webhookEndpoint.create({
        data: {
          ownerId: user.id,
          url: 'https://hooks.example/x',
          events: '["response.submitted"]',
          secret: 's',
        },
      });
    const busy = await endpoint(); // more than its log shows
    const quiet = await endpoint(); // fewer: everything it has is in its log
    let n = 0;
    const delivery = async (endpointId: string, state: string, updatedAt: Date, attempts: Date[]) => {
      n += 1;
      const id = `msg_${unique()}:${endpointId}`;
      await db.webhookDelivery.create({
        data: {
          id,
          eventId: `msg_${n}`,
          endpointId,
          ownerId: user.id,
          type: 'response.submitted',
          payload: '{}',
          state,
          attempts: attempts.length,
          nextAttemptAt: updatedAt,
          createdAt: updatedAt,
          updatedAt,
        },
      });
      for (const attemptedAt of attempts) {
        await db.webhookAttempt.create({
          data: { deliveryId: id, endpointId, attemptedAt, outcome: 'success', status: 200, latencyMs: 5 },
        });
      }
      return id;
    };
    // The busy endpoint: 60 old delivered events, one attempt each, a day apart (the oldest first).
    const old: string[] = [];
    for (let i = 0; i < 60; i += 1) {
      const when = at(-40 * DAY - (60 - i) * HOUR);
      old.push(await delivery(busy.id, 'delivered', when, [when]));
    }
    // Recent ones: within the retention, they stay whatever the log size.
    const recent = await delivery(busy.id, 'delivered', at(-DAY), [at(-DAY)]);
    // Waiting for a retry after old failures: never removed, nor its attempts in the log.
    const retrying = await delivery(busy.id, 'pending', at(-35 * DAY), [at(-35 * DAY)]);
    // Old and quiet: its log is short, so it all stays.
    const quietOld = await delivery(quiet.id, 'failed', at(-90 * DAY), [at(-90 * DAY), at(-89 * DAY)]);
    // A failed delivery with no attempt logged (never sent) past the retention: goes.
    const neverSent = await delivery(quiet.id, 'failed', at(-60 * DAY), []);

    const counts = await purgeExpired(database.repos, now, { deliveryRetentionDays: 30, batch: 7 });
    // The busy log shows the latest 50: recent, retrying's attempt and the 48 newest old ones.
    const shown = await db.webhookAttempt.findMany({
      where: { endpointId: busy.id },
      orderBy: [{ attemptedAt: 'desc' }, { id: 'desc' }],
    });
    expect(shown).toHaveLength(50);
    expect(counts.webhookAttempts).toBe(12);
    expect(counts.webhookDeliveries).toBe(12 + 1);
    const deliveries = new Set(
      (await db.webhookDelivery.findMany({ select: { id: true } })).map((r) => r.id),
    );
    expect(deliveries.has(recent)).toBe(true);
    expect(deliveries.has(retrying)).toBe(true);
    expect(deliveries.has(quietOld)).toBe(true);
    expect(deliveries.has(neverSent)).toBe(false);
    expect(old.filter((id) => deliveries.has(id))).toEqual(old.slice(12));
    expect(await db.webhookAttempt.count({ where: { endpointId: quiet.id } })).toBe(2);
    // Every attempt the log shows still has its delivery (Replay works).
    expect(shown.every((row) => deliveries.has(row.deliveryId))).toBe(true);

    // With the clock moved a year on, waiting deliveries and the logs' latest attempts still stay.
    await purgeExpired(database.repos, at(365 * DAY), { deliveryRetentionDays: 30 });
    expect(await db.webhookAttempt.count({ where: { endpointId: busy.id } })).toBe(50);
    expect(await db.webhookDelivery.count({ where: { id: retrying } })).toBe(1);
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
        {
          purged: {
            sessions: 1,
            authorizationCodes: 1,
            tokens: 2,
            attempts: 0,
            submissionKeys: 0,
            webhookDeliveries: 0,
            webhookAttempts: 0,
            uploads: 0,
            ltiRegistrationLinks: 0,
          },
        },
        expect.stringContaining('removed'),
      ]);
      // Nothing left to remove: later runs stay quiet.
      expect(lines.filter(([level]) => level === 'info')).toHaveLength(1);
      await database.prisma.$disconnect();
      const { users } = database.repos;
      const failing = {
        ...database.repos,
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
