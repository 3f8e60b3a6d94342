// An upload link needs no credential, so what it stores is bounded: files and bytes per link,
// bytes of an account's kept uploads, files per address and minute. Each refusal is a problem
// answer that says what to do, a rate adds Retry-After, and a refused file is never stored. Through
// the real doors (the link from get_quiz_links, POSTed with supertest), on both databases.
import request from 'supertest';
import { testConfig, type Config, type UploadLimits } from '../../src/config';
import { UPLOAD_LIFETIME_MS } from '../../src/domain/uploads/uploads';
import { movableClock, type MovableClock } from '../helpers/clock';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  startTwoInstances,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import type { Provider } from '../../src/db/database';
import { clearPrefix, connectRedis, describeWithRedis, uniquePrefix, type TestRedis } from '../helpers/redis';
import { createTestDatabase } from '../helpers/test-database';
import { memoryLog } from '../helpers/memory-log';
import { createLogger } from '../../src/logger';

const KB = 1024;
const MB = 1024 * KB;
const many = 1_000_000;

describeEachDatabase('upload link limits', (provider: Provider) => {
  let app: TestApp;
  let user: TestUser;
  let client: AnyClient;
  let quizId: string;
  let clock: MovableClock;
  let log: ReturnType<typeof memoryLog>;

  async function start(uploads: Partial<UploadLimits>): Promise<void> {
    const limits = testConfig().limits;
    const config: Partial<Config> = {
      limits: {
        ...limits,
        uploads: {
          linkFiles: many,
          linkBytes: many * MB,
          accountBytes: many * MB,
          perAddressPerMinute: many,
          ...uploads,
        },
      },
    };
    log = memoryLog();
    app = await startTestApp({
      provider,
      config,
      now: () => Date.now(),
      logger: createLogger('error', log.stream),
    });
    user = await createTestUser(app, 'uploader');
    client = await connectClient(app, user.apiKey);
    const quiz = payload(
      await callTool(client, 'create_quiz', { title: 'Bank', questions: [{ type: 'yes_no', text: 'Ok?' }] }),
    );
    quizId = quiz.quiz_id;
  }
  const newLink = async (): Promise<string> => {
    const links = payload(await callTool(client, 'get_quiz_links', { quiz_id: quizId }));
    return (links.upload.url as string).slice(app.baseUrl.length);
  };
  const send = (link: string, bytes: number) =>
    request(app.app)
      .post(link)
      .attach('file', Buffer.alloc(bytes, 'a'), { filename: 'bank.xml', contentType: 'text/xml' });
  const stored = () => app.database.prisma.upload.count({ where: { ownerId: user.id } });
  const storedBytes = async () =>
    (await app.database.prisma.upload.aggregate({ where: { ownerId: user.id }, _sum: { size: true } }))._sum
      .size ?? 0;

  beforeEach(() => {
    clock = movableClock();
  });
  afterEach(async () => {
    clock.restore();
    await client.close();
    await app.close();
  });

  test('40 files sent at once through one link store what the defaults allow, and no more', async () => {
    await start(testConfig().limits.uploads);
    const link = await newLink();
    const answers = await Promise.all(Array.from({ length: 40 }, () => send(link, 1.1 * MB)));
    const created = answers.filter((answer) => answer.status === 201);
    // Anything but a store or a refusal is named with what the service logged for it.
    const unexpected = answers
      .filter((answer) => answer.status !== 201 && answer.status !== 429)
      .map((answer) => ({ status: answer.status, body: answer.body as unknown }));
    const logged = log
      .lines()
      .map((line) => (line.err as { message?: string } | undefined)?.message ?? line.msg);
    expect({ unexpected, logged }).toEqual({ unexpected: [], logged: [] });
    expect(created).toHaveLength(10);
    for (const refused of answers.filter((answer) => answer.status !== 201)) {
      expect(refused.status).toBe(429);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.body.hint).toMatch(/new upload link \(get_quiz_links\)|Retry-After/);
    }
    expect(await stored()).toBe(10);
    expect(await storedBytes()).toBeLessThanOrEqual(30 * MB);
  });

  test('one link takes so many files; the next is 429 without Retry-After, and a new link takes it', async () => {
    await start({ linkFiles: 3 });
    const link = await newLink();
    for (let i = 0; i < 3; i++) expect((await send(link, 2 * KB)).status).toBe(201);
    const refused = await send(link, 2 * KB);
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBeUndefined();
    expect(refused.body).toMatchObject({
      code: 'rate_limited',
      detail:
        'This upload link has already taken 3 files, the most one link takes; this file was not stored.',
      hint: 'Ask for a new upload link (get_quiz_links) and send the rest through it.',
    });
    expect(await stored()).toBe(3);
    clock.advance(1_000); // links made within one second are the same link
    expect((await send(await newLink(), 2 * KB)).status).toBe(201);
    expect(await stored()).toBe(4);
  });

  test('one link takes so many bytes; a file past them is 413, a smaller one still fits', async () => {
    await start({ linkBytes: 1 * MB });
    const link = await newLink();
    expect((await send(link, 600 * KB)).status).toBe(201);
    const refused = await send(link, 600 * KB);
    expect(refused.status).toBe(413);
    expect(refused.body).toMatchObject({
      code: 'payload_too_large',
      detail: expect.stringContaining('This upload link has already taken 0.6 MB, and takes at most 1 MB'),
      hint: expect.stringContaining('new upload link (get_quiz_links)'),
    });
    expect(await stored()).toBe(1);
    expect((await send(link, 300 * KB)).status).toBe(201);
    expect(await storedBytes()).toBe(900 * KB);
  });

  test("an account's kept uploads are bounded across links until they expire", async () => {
    await start({ accountBytes: 1 * MB });
    expect((await send(await newLink(), 700 * KB)).status).toBe(201);
    const refused = await send(await newLink(), 700 * KB);
    expect(refused.status).toBe(413);
    expect(refused.body.detail).toBe(
      'This account already keeps 0.7 MB of uploads, and keeps at most 1 MB; this file (0.7 MB) was not stored.',
    );
    expect(refused.body.hint).toContain('each upload is removed 24 hours after it was sent');
    expect(await stored()).toBe(1);
    clock.advance(UPLOAD_LIFETIME_MS + 60_000);
    expect((await send(await newLink(), 700 * KB)).status).toBe(201);
  });

  test('one address sends so many files a minute; then 429 with Retry-After, and again a minute later', async () => {
    await start({ perAddressPerMinute: 3 });
    for (let i = 0; i < 3; i++) expect((await send(await newLink(), KB)).status).toBe(201);
    const refused = await send(await newLink(), KB);
    expect(refused.status).toBe(429);
    const wait = Number(refused.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(60);
    expect(refused.body).toMatchObject({
      code: 'rate_limited',
      detail: expect.stringContaining(
        'More than 3 files were sent to upload links from this address in a minute',
      ),
      hint: `Wait ${wait} seconds (Retry-After), then send the file again.`,
    });
    expect(await stored()).toBe(3);
    clock.advance(61_000);
    expect((await send(await newLink(), KB)).status).toBe(201);
  });
});

describeWithRedis('upload link limits shared through Redis', () => {
  test("two instances count one link's files together", async () => {
    const database = await createTestDatabase('sqlite');
    const redis: [TestRedis, TestRedis] = [await connectRedis(), await connectRedis()];
    const redisKeyPrefix = uniquePrefix();
    const limits = testConfig().limits;
    const instances = await startTwoInstances(database, {
      config: { redisKeyPrefix, limits: { ...limits, uploads: { ...limits.uploads, linkFiles: 3 } } },
      redis,
    });
    try {
      const links = payload(
        await callTool(instances.viaOne, 'create_quiz', {
          title: 'Shared',
          questions: [{ type: 'yes_no', text: 'Ok?' }],
        }),
      );
      const link = payload(
        await callTool(instances.viaOne, 'get_quiz_links', { quiz_id: links.quiz_id }),
      ).upload.url.slice(instances.one.baseUrl.length) as string;
      const sendTo = (target: TestApp) =>
        request(target.app).post(link).set('Content-Type', 'text/plain').send('Q {T}');
      const statuses = [];
      for (const target of [instances.one, instances.two, instances.one, instances.two]) {
        statuses.push((await sendTo(target)).status);
      }
      expect(statuses).toEqual([201, 201, 201, 429]);
      expect(await database.prisma.upload.count()).toBe(3);
    } finally {
      await instances.close();
      await clearPrefix(redis[0], redisKeyPrefix);
      await Promise.all(redis.map((client) => client.quit()));
      await database.drop();
    }
  });
});
