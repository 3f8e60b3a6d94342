// The repository contract: what the domain relies on from each repository (db/repositories/),
// asked of every implementation: SQLite and PostgreSQL, each with the raw-driver reads the
// service uses and with their Prisma reference. Dates go in and come back to the millisecond in a
// zone that is not UTC (the suite's global set-up; read-contract.test.ts fails in UTC), and a
// check that refuses a write inside a transaction leaves nothing behind.
import { randomBytes } from 'node:crypto';
import { prismaHotQueries } from '../../src/db/hot-queries';
import { prismaQuizReads } from '../../src/db/quiz-reads';
import { createRepositories, type QuestionData, type Repositories } from '../../src/db/repositories';
import { describeEachDatabase } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// Keys as their types' modules store them (the repositories keep them whole).
const QUESTIONS: QuestionData[] = [
  {
    type: 'yes_no',
    text: 'Is the sky blue?',
    explanation: null,
    key: { points: 2, correctAnswer: 'yes' },
  },
  {
    type: 'multiple_choice',
    text: 'Capital of Italy?',
    explanation: 'Rome has been the capital since 1871.',
    key: {
      options: [
        { id: 'o1', label: 'Rome', score: 3 },
        { id: 'o2', label: 'Milan', score: 0 },
      ],
    },
  },
];
// Instants far from midnight and from now, in months São Paulo once kept summer time.
const JANUARY = new Date('2019-01-15T01:30:00.123Z');
const FEBRUARY = new Date('2031-02-28T23:59:59.999Z');

const unique = () => randomBytes(8).toString('hex');
const refused = () => {
  throw new Error('refused by the caller');
};

describeEachDatabase('the repository contract', (provider) => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase(provider);
  });
  afterAll(async () => {
    await database?.drop();
  });

  describe.each(['raw-driver reads', 'Prisma reads'])('with %s', (style) => {
    let repos: Repositories;
    let ownerId: string;
    let otherId: string;
    beforeAll(async () => {
      const raw = style === 'raw-driver reads';
      repos = createRepositories(database.prisma, {
        hot: raw ? database.hot : prismaHotQueries(database.prisma),
        reads: raw ? database.reads : prismaQuizReads(database.prisma),
        writes: database.writes,
        dialect: database.dialect,
      });
      ownerId = (await repos.users.create(`owner-${unique()}@example.com`, 'hash'))!.id;
      otherId = (await repos.users.create(`other-${unique()}@example.com`, 'hash'))!.id;
    });

    const newQuiz = (owner: string, title = 'Contract quiz') =>
      repos.quizzes.create({
        ownerId: owner,
        title,
        titleKey: title.toLowerCase(),
        description: 'What this quiz is about.\nOn two lines.',
        slug: `contract-${unique()}`,
        settings: { passMarkPercent: 50 },
        questions: QUESTIONS,
      });

    test('users: one account per email; a new password ends the other sessions', async () => {
      const email = `user-${unique()}@example.com`;
      const user = await repos.users.create(email, 'first-hash');
      expect(user).toMatchObject({ email, passwordHash: 'first-hash' });
      expect(await repos.users.create(email, 'second-hash')).toBeNull();
      expect(await repos.users.byEmail(email)).toEqual(user);
      expect(await repos.users.byId(user!.id)).toEqual(user);

      const session = (hash: string) =>
        repos.users.createSession({
          userId: user!.id,
          tokenHash: hash,
          csrfToken: unique(),
          createdAt: JANUARY,
          lastSeenAt: JANUARY,
          expiresAt: FEBRUARY,
        });
      const kept = await session(unique());
      await session(unique());
      await session(unique());
      expect(await repos.users.replacePasswordHash(user!.id, 'new-hash', kept.id)).toBe(2);
      expect((await repos.users.byId(user!.id))?.passwordHash).toBe('new-hash');
      expect(await repos.users.sessionByTokenHash(kept.tokenHash)).toEqual(kept);
      expect(await repos.users.replacePasswordHash(user!.id, 'newer-hash')).toBe(1);
      expect(await repos.users.sessionByTokenHash(kept.tokenHash)).toBeNull();
      // A rehash lands only over the hash it replaces, and ends no session.
      const other = await session(unique());
      expect(await repos.users.rehashPassword(user!.id, 'new-hash', 'rehashed')).toBe(false);
      expect(await repos.users.rehashPassword(user!.id, 'newer-hash', 'rehashed')).toBe(true);
      expect((await repos.users.byId(user!.id))?.passwordHash).toBe('rehashed');
      expect(await repos.users.sessionByTokenHash(other.tokenHash)).toEqual(other);
    });

    test('sessions: dates round-trip, expiry is inclusive, and only the user named is swept', async () => {
      const tokenHash = unique();
      const created = await repos.users.createSession({
        userId: ownerId,
        tokenHash,
        csrfToken: 'csrf',
        createdAt: JANUARY,
        lastSeenAt: JANUARY,
        expiresAt: FEBRUARY,
      });
      const found = await repos.users.sessionByTokenHash(tokenHash);
      expect(found).toEqual(created);
      expect(found?.expiresAt.toISOString()).toBe(FEBRUARY.toISOString());
      expect(found?.createdAt.toISOString()).toBe(JANUARY.toISOString());
      expect(found?.email).toMatch(/^owner-/);

      const later = new Date(JANUARY.getTime() + 60_000);
      await repos.users.touchSession(created.id, later, FEBRUARY);
      expect((await repos.users.sessionByTokenHash(tokenHash))?.lastSeenAt.toISOString()).toBe(
        later.toISOString(),
      );
      const justBefore = new Date(FEBRUARY.getTime() - 1);
      expect(await repos.users.deleteExpiredSessions(justBefore, ownerId)).toBe(0);
      expect(await repos.users.deleteExpiredSessions(FEBRUARY, otherId)).toBe(0);
      expect(await repos.users.deleteExpiredSessions(FEBRUARY, ownerId)).toBe(1);
      expect(await repos.users.sessionByTokenHash(tokenHash)).toBeNull();
    });

    test('API keys: a refusal inside the creation writes nothing; revocation is seen by the request-path read', async () => {
      const keyHash = unique();
      const before = await repos.users.activeApiKeyCount(ownerId);
      await expect(
        repos.users.createApiKey(
          ownerId,
          { name: 'no', keyHash, prefix: 'svc_abcd', last4: 'wxyz' },
          refused,
        ),
      ).rejects.toThrow('refused by the caller');
      expect(await repos.users.activeApiKeyCount(ownerId)).toBe(before);
      expect(await repos.users.apiKeyByHash(keyHash)).toBeNull();

      const seen: number[] = [];
      const key = await repos.users.createApiKey(
        ownerId,
        { name: 'yes', keyHash, prefix: 'svc_abcd', last4: 'wxyz' },
        (active) => void seen.push(active),
      );
      expect(seen).toEqual([before]);
      expect(await repos.users.activeApiKeys(ownerId)).toContainEqual(key);
      expect(await repos.users.apiKeyByHash(keyHash)).toEqual({
        id: key.id,
        userId: ownerId,
        revokedAt: null,
        lastUsedAt: null,
      });

      await repos.users.recordApiKeyUse(key.id, JANUARY, 60_000);
      await repos.users.recordApiKeyUse(key.id, new Date(JANUARY.getTime() + 30_000), 60_000);
      expect((await repos.users.apiKeyByHash(keyHash))?.lastUsedAt?.toISOString()).toBe(
        JANUARY.toISOString(),
      );

      expect(await repos.users.revokeApiKey(otherId, key.id, FEBRUARY)).toBe(false);
      expect(await repos.users.revokeApiKey(ownerId, key.id, FEBRUARY)).toBe(true);
      expect(await repos.users.revokeApiKey(ownerId, key.id, FEBRUARY)).toBe(false);
      expect((await repos.users.apiKeyByHash(keyHash))?.revokedAt?.toISOString()).toBe(
        FEBRUARY.toISOString(),
      );
      expect(await repos.users.activeApiKeys(ownerId)).not.toContainEqual(key);
    });

    test('quizzes: created, read back alike, a taken slug is null, another owner sees nothing', async () => {
      const quiz = (await newQuiz(ownerId))!;
      expect(quiz.questions.map((question) => question.key)).toEqual(
        QUESTIONS.map((question) => question.key),
      );
      expect(await repos.quizzes.quizWithQuestions(ownerId, quiz.id)).toEqual(quiz);
      expect(await repos.quizzes.bySlug(quiz.slug)).toEqual(quiz);
      expect(await repos.quizzes.quizWithQuestions(otherId, quiz.id)).toBeNull();
      expect(await repos.quizzes.ownedId(ownerId, quiz.id)).toBe(quiz.id);
      expect(await repos.quizzes.ownedId(otherId, quiz.id)).toBeNull();
      const clash = repos.quizzes.create({
        ownerId,
        title: 'Clash',
        titleKey: 'clash',
        description: null,
        slug: quiz.slug,
        settings: {},
        questions: [],
      });
      await expect(clash).resolves.toBeNull();
      const candidates = await repos.quizzes.quizCandidates(ownerId, quiz.slug, 'contract quiz', 12);
      expect(candidates[0]).toEqual({ id: quiz.id, slug: quiz.slug, title: quiz.title });
    });

    test('quizzes: an update refused by its check changes nothing; an accepted one replaces the questions', async () => {
      const quiz = (await newQuiz(ownerId))!;
      const change = {
        title: { title: 'Renamed', titleKey: 'renamed' },
        settings: {},
        questions: [QUESTIONS[0]!],
      };
      await expect(repos.quizzes.update(ownerId, quiz.id, change, refused)).rejects.toThrow('refused');
      expect(await repos.quizzes.quizWithQuestions(ownerId, quiz.id)).toEqual(quiz);
      expect(await repos.quizzes.update(otherId, quiz.id, change, () => undefined)).toBeNull();

      const states: unknown[] = [];
      const updated = await repos.quizzes.update(
        ownerId,
        quiz.id,
        change,
        (current) => void states.push(current),
      );
      expect(states).toEqual([{ status: 'draft', title: 'Contract quiz' }]);
      expect(updated).toMatchObject({ title: 'Renamed', titleKey: 'renamed', version: quiz.version + 1 });
      expect(updated?.questions).toHaveLength(1);
      expect(updated?.questions[0]?.id).not.toBe(quiz.questions[0]?.id);
      expect(await repos.quizzes.quizWithQuestions(ownerId, quiz.id)).toEqual(updated);

      // An id to keep is kept when the quiz is still at the version it was chosen against...
      const kept = await repos.quizzes.update(
        ownerId,
        quiz.id,
        {
          settings: {},
          questions: [{ ...QUESTIONS[0]!, id: updated!.questions[0]!.id }],
          basedOnVersion: updated!.version,
        },
        () => undefined,
      );
      expect(kept?.questions[0]?.id).toBe(updated!.questions[0]!.id);
      // ...and not when another edit came in between: ids are never kept against other questions.
      const stale = await repos.quizzes.update(
        ownerId,
        quiz.id,
        {
          settings: {},
          questions: [{ ...QUESTIONS[0]!, id: kept!.questions[0]!.id }],
          basedOnVersion: updated!.version,
        },
        () => undefined,
      );
      expect(stale?.questions[0]?.id).not.toBe(kept!.questions[0]!.id);
      expect(stale?.version).toBe(kept!.version + 1);

      await repos.quizzes.publish(quiz.id, JANUARY);
      await repos.quizzes.publish(quiz.id, FEBRUARY);
      const published = await repos.quizzes.byId(quiz.id);
      expect(published?.status).toBe('published');
      expect(published?.publishedAt?.toISOString()).toBe(JANUARY.toISOString());
      expect(
        await repos.quizzes.update(
          ownerId,
          quiz.id,
          { settings: {} },
          (current) => void states.push(current),
        ),
      ).not.toBeNull();
      expect(states[1]).toEqual({ status: 'published', title: 'Renamed' });
    });

    test('quizzes: the owner list pages by (created, id) even when creation times are equal', async () => {
      const owner = (await repos.users.create(`lister-${unique()}@example.com`, 'hash'))!.id;
      const ids: string[] = [];
      for (let i = 0; i < 5; i += 1) ids.push((await newQuiz(owner, `List ${i}`))!.id);
      // Three share one instant: only the id tells them apart.
      await database.prisma.quiz.updateMany({
        where: { id: { in: ids.slice(1, 4) } },
        data: { createdAt: JANUARY },
      });
      const seen: string[] = [];
      let after: { at: Date; id: string } | undefined;
      for (;;) {
        const page = await repos.quizzes.listByOwner(owner, 2, after);
        seen.push(...page.map((quiz) => quiz.id));
        const last = page[page.length - 1];
        if (page.length < 2 || !last) break;
        after = { at: last.createdAt, id: last.id };
      }
      expect(seen).toHaveLength(5);
      expect(new Set(seen).size).toBe(5);
      const first = (await repos.quizzes.listByOwner(owner, 1))[0];
      expect(first).toMatchObject({ questionCount: 2, responseCount: 0 });
      expect(await repos.quizzes.countByOwner(owner)).toBe(5);
      await repos.quizzes.publish(ids[4]!, JANUARY);
      expect(await repos.quizzes.countByOwner(owner, 'published')).toBe(1);
      expect(await repos.quizzes.delete(otherId, ids[0]!)).toBe(false);
      expect(await repos.quizzes.delete(owner, ids[0]!)).toBe(true);
      expect(await repos.quizzes.delete(owner, ids[0]!)).toBe(false);
      expect(await repos.quizzes.countByOwner(owner)).toBe(4);
    });

    test('responses: stored with their answers, counted, paged both ways, and deleted by their owner only', async () => {
      const quiz = (await newQuiz(ownerId))!;
      const [yesNo, choice] = quiz.questions as [(typeof quiz.questions)[0], (typeof quiz.questions)[0]];
      const respond = (answer: 'yes' | 'no', score: number) =>
        repos.responses.create({
          quizId: quiz.id,
          quizVersion: quiz.version,
          respondentName: 'Ana',
          respondentEmail: null,
          score,
          maxScore: 5,
          percent: score * 20,
          passed: score * 20 >= 50,
          answers: [
            {
              questionId: yesNo.id,
              position: 0,
              questionText: yesNo.text,
              type: 'yes_no',
              value: { choice: answer },
              statKey: answer,
              statValue: null,
              statNum: null,
              points: answer === 'yes' ? 2 : 0,
              maxPoints: 2,
            },
            {
              questionId: choice.id,
              position: 1,
              questionText: choice.text,
              type: 'multiple_choice',
              value: { optionIndex: 0, label: 'Rome' },
              statKey: '0',
              statValue: null,
              statNum: null,
              points: 3,
              maxPoints: 3,
            },
          ],
        });
      const ids = [await respond('yes', 5), await respond('no', 3), await respond('yes', 5)] as string[];
      await database.prisma.response.updateMany({
        where: { id: { in: ids } },
        data: { submittedAt: FEBRUARY },
      });

      expect(await repos.responses.countForQuiz(quiz.id)).toBe(3);
      // The running figures written with each response: one row per score, one per answer key.
      const figures = await repos.responses.figures(quiz.id);
      expect(figures.firstSubmittedAt?.toISOString()).toBe(FEBRUARY.toISOString());
      expect(figures.lastSubmittedAt?.toISOString()).toBe(FEBRUARY.toISOString());
      const byKey = (a: object, b: object) => JSON.stringify(a).localeCompare(JSON.stringify(b));
      expect([...figures.scores].sort(byKey)).toEqual([
        { score: 3, maxScore: 5, passed: 1, count: 1 },
        { score: 5, maxScore: 5, passed: 1, count: 2 },
      ]);
      const item = (
        questionId: string,
        bucket: number,
        choiceKey: string,
        x: number,
        t: number[],
        max: number,
      ) => ({
        questionId,
        bucket,
        choiceKey,
        count: t.length,
        sumX: x * t.length,
        sumX2: x * x * t.length,
        sumXT: t.reduce((sum, total) => sum + x * total, 0),
        sumT: t.reduce((sum, total) => sum + total, 0),
        sumT2: t.reduce((sum, total) => sum + total * total, 0),
        sumMax: max * t.length,
      });
      expect([...figures.items].sort(byKey)).toEqual(
        [
          item(yesNo.id, 100, 'yes', 2, [5, 5], 2),
          item(yesNo.id, 60, 'no', 0, [3], 2),
          item(choice.id, 100, '0', 3, [5, 5], 3),
          item(choice.id, 60, '0', 3, [3], 3),
        ].sort(byKey),
      );

      // Equal submission times: the id orders them, each way, with nothing repeated or lost.
      const newest = await repos.responses.newestFirst(quiz.id, 10);
      expect(newest.map((response) => response.id)).toEqual([...ids].sort().reverse());
      expect(newest[0]?.submittedAt.toISOString()).toBe(FEBRUARY.toISOString());
      expect(newest[0]?.answers.map((answer) => answer.position)).toEqual([0, 1]);
      const rest = await repos.responses.newestFirst(quiz.id, 10, { at: FEBRUARY, id: newest[0]!.id });
      expect(rest.map((response) => response.id)).toEqual(newest.slice(1).map((response) => response.id));
      const oldest = await repos.responses.oldestFirst(quiz.id, 2);
      const after = oldest[1]!;
      const next = await repos.responses.oldestFirst(quiz.id, 2, { at: after.submittedAt, id: after.id });
      expect([...oldest, ...next].map((response) => response.id)).toEqual([...ids].sort());

      // By percent (60, then the two 100s), ties on (submittedAt, id) the same way; a score
      // position resumes right after itself; bounds are strict and count only responses with a percent.
      const full = [ids[0]!, ids[2]!].sort();
      const idsOf = (rows: Array<{ id: string }>) => rows.map((row) => row.id);
      const ranked = (order: 'score_asc' | 'score_desc', limit: number, after?: (typeof newest)[0]) =>
        repos.responses.ranked(quiz.id, {
          bounds: {},
          order,
          limit,
          after: after ? { at: after.submittedAt, id: after.id, percent: after.percent! } : undefined,
        });
      const ascending = await ranked('score_asc', 2);
      expect(idsOf(ascending)).toEqual([ids[1], full[0]]);
      expect(idsOf(await ranked('score_asc', 2, ascending[1]))).toEqual([full[1]]);
      expect(idsOf(await ranked('score_desc', 3))).toEqual([full[1], full[0], ids[1]]);
      const below = { below: 100 };
      expect(
        idsOf(await repos.responses.ranked(quiz.id, { bounds: below, order: 'time_desc', limit: 5 })),
      ).toEqual([ids[1]]);
      expect(
        idsOf(await repos.responses.ranked(quiz.id, { bounds: { above: 60 }, order: 'time_asc', limit: 5 })),
      ).toEqual(full);
      expect(await repos.responses.percentCounts(quiz.id, below)).toEqual({ inside: 1, noPercent: 0 });

      // The questions are replaced: the answers keep naming the earlier ones.
      await repos.quizzes.update(
        ownerId,
        quiz.id,
        { settings: {}, questions: [QUESTIONS[1]!] },
        () => undefined,
      );
      const current = (await repos.quizzes.quizWithQuestions(ownerId, quiz.id))!;
      expect(
        await repos.responses.earlierQuestions(
          quiz.id,
          current.questions.map((q) => q.id),
        ),
      ).toEqual([
        { questionId: yesNo.id, position: 0, questionText: yesNo.text },
        { questionId: choice.id, position: 1, questionText: choice.text },
      ]);

      expect(await repos.responses.publicResult(quiz.slug, ids[0]!)).toBeNull(); // still a draft
      await repos.quizzes.publish(quiz.id, JANUARY);
      expect(await repos.responses.publicResult(quiz.slug, ids[0]!)).toMatchObject({
        score: 5,
        quiz: { slug: quiz.slug, showScoreToRespondent: true },
      });
      expect(await repos.responses.owned(otherId, quiz.id, ids[0]!)).toBeNull();
      expect(await repos.responses.owned(ownerId, quiz.id, ids[0]!)).toMatchObject({ id: ids[0], score: 5 });
      expect(await repos.responses.ownedWithAnswers(otherId, quiz.id, ids[0]!)).toBeNull();
      const withAnswers = await repos.responses.ownedWithAnswers(ownerId, quiz.id, ids[0]!);
      expect(withAnswers).toMatchObject({ id: ids[0], score: 5 });
      expect(withAnswers?.answers).toEqual(newest.find((response) => response.id === ids[0])?.answers);
      expect(await repos.responses.countForOwner(otherId)).toBe(0);
      expect(await repos.responses.delete(quiz.id, ids[0]!)).toBe(true);
      expect(await repos.responses.delete(quiz.id, ids[0]!)).toBe(false);
      expect(await repos.responses.countForQuiz(quiz.id)).toBe(2);

      // A response to a quiz deleted meanwhile is refused with null, not an error.
      await repos.quizzes.delete(ownerId, quiz.id);
      await expect(respond('yes', 5)).resolves.toBeNull();
    });

    test("responses: the webhook event is built and written only when one of the owner's endpoints takes it", async () => {
      const owner = (await repos.users.create(`hooks-${unique()}@example.com`, 'hash'))!.id;
      const quiz = (await newQuiz(owner))!;
      const other = (await newQuiz(owner, 'Another quiz'))!;
      const built: string[] = [];
      const respond = () =>
        repos.responses.create(
          {
            quizId: quiz.id,
            quizVersion: quiz.version,
            respondentName: null,
            respondentEmail: null,
            score: 0,
            maxScore: 5,
            percent: 0,
            passed: false,
            answers: [],
          },
          {
            ownerId: owner,
            quizId: quiz.id,
            type: 'response.submitted',
            build: (created) => {
              built.push(created.id);
              return {
                id: `msg_${created.id}`,
                ownerId: owner,
                quizId: quiz.id,
                type: 'response.submitted',
                payload: JSON.stringify({ response_id: created.id }),
                at: created.submittedAt,
              };
            },
          },
        );
      const deliveries = () => database.prisma.webhookDelivery.findMany({ where: { ownerId: owner } });
      const endpoint = (events: string[], quizIds: string[] | null) =>
        repos.webhooks.createEndpoint(
          owner,
          { url: 'https://hooks.example.com/in', events, quizIds, secret: 'sealed' },
          () => undefined,
        );

      // No endpoint, or none taking this event or this quiz: stored, no body built, nothing queued.
      expect(await respond()).toEqual(expect.any(String));
      await endpoint(['quiz.published'], null);
      await endpoint(['response.submitted'], [other.id]);
      expect(await respond()).toEqual(expect.any(String));
      expect(built).toEqual([]);
      expect(await deliveries()).toEqual([]);
      expect(await repos.responses.countForQuiz(quiz.id)).toBe(2);

      // An endpoint that takes it: built once, one delivery per such endpoint, in the same commit.
      const taking = await endpoint(['response.submitted'], [quiz.id]);
      const id = await respond();
      expect(built).toEqual([id]);
      expect((await deliveries()).map((row) => [row.endpointId, row.eventId])).toEqual([
        [taking.id, `msg_${id}`],
      ]);
    });

    test('OAuth: one grant per user and client, codes redeemed once, revocation reaches every token', async () => {
      const client = await repos.oauth.createClient({
        id: `qci_${unique()}`,
        source: 'registration',
        name: 'Contract client',
        redirectUris: '["https://client.example/cb"]',
        grantTypes: '["authorization_code","refresh_token"]',
        tokenEndpointAuthMethod: 'none',
        authMethodDeclared: true,
        secretHash: null,
        scope: null,
      });
      expect(await repos.oauth.clientById(client.id)).toEqual(client);
      const approval = {
        userId: ownerId,
        clientId: client.id,
        scope: 'quizzes:read',
        redirectUri: 'https://client.example/cb',
      };
      const [one, two] = await Promise.all([
        repos.oauth.upsertActiveGrant({ ...approval, approvedAt: JANUARY }),
        repos.oauth.upsertActiveGrant({ ...approval, approvedAt: JANUARY }),
      ]);
      expect(one.id).toBe(two.id);
      await repos.oauth.setGrantScope(one.id, 'quizzes:read quizzes:write');
      // A use is written at most once per interval.
      await repos.oauth.recordGrantUse(one.id, JANUARY, 60_000);
      await repos.oauth.recordGrantUse(one.id, new Date(JANUARY.getTime() + 30_000), 60_000);
      const listed = await repos.oauth.activeGrants(ownerId);
      expect(listed.find((grant) => grant.id === one.id)).toMatchObject({
        scope: 'quizzes:read quizzes:write',
        clientName: 'Contract client',
        lastUsedAt: JANUARY,
      });
      await repos.oauth.recordGrantUse(one.id, new Date(JANUARY.getTime() + 60_001), 60_000);
      const later = (await repos.oauth.activeGrants(ownerId)).find((grant) => grant.id === one.id);
      expect(later?.lastUsedAt?.getTime()).toBe(JANUARY.getTime() + 60_001);
      // No token yet: an approval, not a connected app.
      expect((await repos.oauth.activeGrants(ownerId, JANUARY)).map((grant) => grant.id)).not.toContain(
        one.id,
      );
      const connectedBefore = await repos.oauth.activeGrantCount(ownerId, JANUARY);

      const codeHash = unique();
      await repos.oauth.createCode({
        codeHash,
        grantId: one.id,
        clientId: client.id,
        userId: ownerId,
        redirectUri: null,
        scope: 'quizzes:read',
        resource: 'http://quiz.test/api/mcp',
        codeChallenge: 'challenge',
        codeChallengeMethod: 'S256',
        expiresAt: FEBRUARY,
      });
      const code = (await repos.oauth.codeByHash(codeHash))!;
      expect(code.expiresAt.toISOString()).toBe(FEBRUARY.toISOString());
      const redemptions = await Promise.all([1, 2, 3].map(() => repos.oauth.consumeCode(code.id, JANUARY)));
      expect(redemptions.filter(Boolean)).toHaveLength(1);
      expect(await repos.oauth.codeReplayed(code.id)).toBe(false);
      await repos.oauth.markCodeReplayed(code.id, JANUARY);
      expect(await repos.oauth.codeReplayed(code.id)).toBe(true);

      const tokens = (parentId: string | null) => {
        const accessTokenHash = unique();
        const refreshTokenHash = unique();
        return repos.oauth
          .createTokens({
            accessTokenHash,
            refreshTokenHash,
            grantId: one.id,
            clientId: client.id,
            userId: ownerId,
            familyId: code.id,
            parentId,
            scope: 'quizzes:read',
            resource: 'http://quiz.test/api/mcp',
            accessExpiresAt: FEBRUARY,
            refreshExpiresAt: FEBRUARY,
          })
          .then((id) => ({ id, accessTokenHash, refreshTokenHash }));
      };
      const at = (seconds: number) => new Date(JANUARY.getTime() + seconds * 1000);
      const claim = (id: string, seconds: number) =>
        repos.oauth.claimRefresh(id, at(seconds), at(seconds - 60));
      const parent = await tokens(null);
      expect((await repos.oauth.activeGrants(ownerId, JANUARY)).map((grant) => grant.id)).toContain(one.id);
      expect(await repos.oauth.activeGrantCount(ownerId, JANUARY)).toBe(connectedBefore + 1);
      // Past every token's expiry it holds none.
      const afterExpiry = new Date(FEBRUARY.getTime() + 1);
      expect((await repos.oauth.activeGrants(ownerId, afterExpiry)).map((grant) => grant.id)).not.toContain(
        one.id,
      );
      // The parent's first exchange is its rotation; its replacement never reaches the client.
      expect(await claim(parent.id, 0)).toBe('rotated');
      const lost = await tokens(parent.id);
      // One retry within the window, which revokes the lost replacement; no second one.
      expect(await claim(parent.id, 30)).toBe('retry');
      expect(await repos.oauth.refreshRetired(lost.id)).toBe(true);
      const child = await tokens(parent.id);
      expect(await claim(parent.id, 40)).toBe('reuse');
      expect(await repos.oauth.accessTokenByHash(parent.accessTokenHash)).toMatchObject({
        id: parent.id,
        grantRevokedAt: null,
        accessExpiresAt: FEBRUARY,
      });
      expect(await repos.oauth.tokenByRefreshHash(child.refreshTokenHash)).toEqual({
        id: child.id,
        clientId: client.id,
        familyId: code.id,
      });
      // The child's first use retires its parent, not itself; past the window, a retry is a reuse.
      expect(await claim(child.id, 50)).toBe('rotated');
      expect(await repos.oauth.refreshRetired(parent.id)).toBe(true);
      expect(await repos.oauth.refreshRetired(child.id)).toBe(false);
      expect(await claim(child.id, 111)).toBe('reuse');
      // Simultaneous exchanges of one token: one rotation, one retry, the rest reuses.
      const grandchild = await tokens(child.id);
      const claims = await Promise.all([0, 1, 2, 3].map(() => claim(grandchild.id, 120)));
      expect(claims.sort()).toEqual(['retry', 'reuse', 'reuse', 'rotated']);
      expect((await repos.oauth.refreshTokenByHash(child.refreshTokenHash))?.refreshExpiresAt).toEqual(
        FEBRUARY,
      );

      expect(await repos.oauth.revokeGrant(otherId, one.id, FEBRUARY)).toBe(false);
      expect(await repos.oauth.revokeGrant(ownerId, one.id, FEBRUARY)).toBe(true);
      expect(await repos.oauth.revokeGrant(ownerId, one.id, FEBRUARY)).toBe(false);
      for (const token of [parent, lost, child, grandchild]) {
        const row = await repos.oauth.accessTokenByHash(token.accessTokenHash);
        // The lost replacement was revoked already, by the retry.
        const revokedAt = token === lost ? at(30) : FEBRUARY;
        expect(row?.revokedAt?.toISOString()).toBe(revokedAt.toISOString());
        expect(row?.grantRevokedAt?.toISOString()).toBe(FEBRUARY.toISOString());
      }
      expect(await repos.oauth.activeGrantCount(ownerId)).toBe(0);

      // Nothing is swept before its cutoff; then the code and the four token rows go.
      expect(await repos.oauth.deleteExpired(FEBRUARY, FEBRUARY)).toEqual({ codes: 0, tokens: 0 });
      const justAfter = new Date(FEBRUARY.getTime() + 1);
      const swept = await repos.oauth.deleteExpired(justAfter, justAfter);
      expect(swept.codes).toBeGreaterThanOrEqual(1);
      expect(swept.tokens).toBeGreaterThanOrEqual(4);
      expect(await repos.oauth.codeByHash(codeHash)).toBeNull();
    });
  });
});
