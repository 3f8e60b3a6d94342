// The read contract: every implementation of the request-path reads (QuizReads for quizzes,
// HotQueries for credentials) answers exactly what the Prisma reference answers, field by field,
// dates to the millisecond, on SQLite and PostgreSQL, in a time zone that is not UTC. And the
// SQLite snapshot cache never serves a quiz edit or a revocation late, whichever instance wrote it.
import { prismaHotQueries, type HotQueries } from '../../src/db/hot-queries';
import { prismaQuizReads, type QuizReads } from '../../src/db/quiz-reads';
import { openDatabase } from '../../src/db/database';
import { createApiKey, revokeApiKey } from '../../src/domain/api-keys';
import type { DomainDeps } from '../../src/domain/deps';
import { approveGrant, revokeGrant } from '../../src/domain/oauth/oauth-grants';
import { registerOAuthClient } from '../../src/domain/oauth/oauth-clients';
import { hashSecret } from '../../src/domain/oauth/oauth-secrets';
import { generateAccessToken, issueTokens } from '../../src/domain/oauth/oauth-tokens';
import { QuestionsInputSchema } from '../../src/domain/quiz-input';
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { titleKey } from '../../src/domain/owned/resolve-quiz';
import { updateQuiz } from '../../src/domain/quizzes/update-quiz';
import { createUser } from '../../src/domain/users';
import { describeEachDatabase, sampleQuestions } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

// Dates are written and read back in a zone with an offset: a driver that reads a UTC timestamp
// as local time is off by hours there. Jest's global set-up puts the whole suite in that zone
// (tests/setup/build-once.ts); a run in UTC would prove nothing here, so it fails.
test('the suite runs in a time zone that is not UTC', () => {
  expect(new Date(Date.UTC(2026, 0, 15)).getTimezoneOffset()).not.toBe(0);
});

describeEachDatabase('the request-path reads match their Prisma reference', (provider) => {
  let database: TestDatabase;
  let deps: DomainDeps;
  let ownerId: string;
  let otherId: string;
  const implementations = (): Array<[string, QuizReads, HotQueries]> => [
    ['raw driver', database.reads, database.hot],
    ['Prisma', prismaQuizReads(database.prisma), prismaHotQueries(database.prisma)],
  ];

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    deps = { repos: database.repos, baseUrl: 'http://quiz.test' };
    ownerId = (
      await createUser(database.repos, {
        email: `owner-${provider}@example.com`,
        password: 'long enough pw',
      })
    ).id;
    otherId = (
      await createUser(database.repos, {
        email: `other-${provider}@example.com`,
        password: 'long enough pw',
      })
    ).id;
  });
  afterAll(async () => {
    await database?.drop();
  });

  test('a quiz with its questions and options, and a quiz without any', async () => {
    const full = await createQuiz(deps, ownerId, {
      title: 'Contract',
      questions: QuestionsInputSchema.parse([
        ...sampleQuestions(),
        { type: 'yes_no', text: 'No points given?' },
      ]),
      settings: { pass_mark_percent: 60, show_score_to_respondent: false },
    });
    const empty = await createQuiz(deps, ownerId, { title: 'Empty one', questions: [] });
    await database.prisma.quiz.update({
      where: { id: full.quiz_id },
      // An instant far from now and from midnight, in a month São Paulo once kept summer time.
      data: { status: 'published', publishedAt: new Date('2018-12-31T23:59:58.123Z') },
    });
    const reference = prismaQuizReads(database.prisma);
    const expected = await reference.quizWithQuestions(ownerId, full.quiz_id);
    expect(
      expected?.questions.map((question) => (question.key as { options?: unknown[] }).options?.length ?? 0),
    ).toEqual([0, 3, 0]);
    expect(expected?.publishedAt?.toISOString()).toBe('2018-12-31T23:59:58.123Z');
    expect(expected?.passMarkPercent).toBe(60);
    for (const [name, reads] of implementations()) {
      expect([name, await reads.quizWithQuestions(ownerId, full.quiz_id)]).toEqual([name, expected]);
      expect([name, await reads.quizWithQuestions(ownerId, empty.quiz_id)]).toEqual([
        name,
        await reference.quizWithQuestions(ownerId, empty.quiz_id),
      ]);
      // Another owner's quiz, or no quiz at all, reads as nothing.
      expect(await reads.quizWithQuestions(otherId, full.quiz_id)).toBeNull();
      expect(await reads.quizWithQuestions(ownerId, 'no-such-id')).toBeNull();
      // By public slug, whoever asks: the read every submission starts with.
      expect([name, await reads.quizBySlug(full.slug)]).toEqual([
        name,
        await reference.quizBySlug(full.slug),
      ]);
      expect([name, await reads.quizBySlug(empty.slug)]).toEqual([
        name,
        await reference.quizBySlug(empty.slug),
      ]);
      expect(await reads.quizBySlug('no-such-slug')).toBeNull();
    }
  });

  test('reference candidates: the ID match, then the slug match, then title matches oldest first', async () => {
    const first = await createQuiz(deps, ownerId, { title: 'Twins', questions: [] });
    const second = await createQuiz(deps, ownerId, { title: 'twins ', questions: [] });
    const third = await createQuiz(deps, ownerId, { title: 'TWINS', questions: [] });
    await createQuiz(deps, otherId, { title: 'Twins', questions: [] });
    const reference = prismaQuizReads(database.prisma);
    const cases: Array<[string, number]> = [
      ['Twins', 10],
      ['Twins', 2],
      [second.quiz_id, 10],
      [third.slug, 10],
      ['nothing like it', 10],
    ];
    for (const [wanted, limit] of cases) {
      const expected = await reference.quizCandidates(ownerId, wanted, titleKey(wanted), limit);
      for (const [name, reads] of implementations()) {
        const got = await reads.quizCandidates(ownerId, wanted, titleKey(wanted), limit);
        expect([name, wanted, limit, got]).toEqual([name, wanted, limit, expected]);
      }
    }
    const all = await reference.quizCandidates(ownerId, 'Twins', 'twins', 10);
    expect(all.map((quiz) => quiz.id)).toEqual([first.quiz_id, second.quiz_id, third.quiz_id]);
  });

  test('credentials: an API key and an OAuth access token with its grant, before and after revocation', async () => {
    const key = await createApiKey(database.repos, ownerId, 'contract key');
    const { client } = await registerOAuthClient(database.repos, {
      name: 'Contract client',
      redirectUris: ['https://client.example/cb'],
      grantTypes: ['authorization_code', 'refresh_token'],
      tokenEndpointAuthMethod: 'none',
      authMethodDeclared: true,
      scope: null,
    });
    const grant = await approveGrant(database.repos, {
      userId: ownerId,
      clientId: client.id,
      scopes: ['quizzes:read'],
      redirectUri: 'https://client.example/cb',
    });
    const accessToken = generateAccessToken();
    const tokenId = await issueTokens(
      database.repos,
      { accessToken, refreshToken: null },
      {
        grantId: grant.id,
        clientId: client.id,
        userId: ownerId,
        familyId: 'family-1',
        parentId: null,
        scopes: ['quizzes:read'],
        resource: 'http://quiz.test/api/mcp',
        accessExpiresAt: new Date('2030-06-30T23:30:00.456Z'),
        refreshExpiresAt: null,
      },
    );
    const keyHash = hashSecret(key.key);
    const tokenHash = hashSecret(accessToken);
    const reference = prismaHotQueries(database.prisma);

    const compare = async () => {
      const expectedKey = await reference.apiKeyByHash(keyHash);
      const expectedToken = await reference.oauthAccessTokenByHash(tokenHash);
      for (const [name, , hot] of implementations()) {
        expect([name, await hot.apiKeyByHash(keyHash)]).toEqual([name, expectedKey]);
        expect([name, await hot.oauthAccessTokenByHash(tokenHash)]).toEqual([name, expectedToken]);
        expect(await hot.apiKeyByHash(hashSecret('qz_not_a_key'))).toBeNull();
        expect(await hot.oauthAccessTokenByHash(hashSecret('not a token'))).toBeNull();
      }
      return { expectedKey, expectedToken };
    };
    const before = await compare();
    expect(before.expectedKey).toMatchObject({ id: key.id, userId: ownerId, revokedAt: null });
    expect(before.expectedToken).toMatchObject({ id: tokenId, grantRevokedAt: null });
    expect(before.expectedToken?.accessExpiresAt.toISOString()).toBe('2030-06-30T23:30:00.456Z');

    await revokeApiKey(database.repos, ownerId, key.id);
    expect(await revokeGrant(database.repos, ownerId, grant.id)).toBe(true);
    const after = await compare();
    expect(after.expectedKey?.revokedAt).toBeInstanceOf(Date);
    expect(after.expectedToken?.grantRevokedAt).toBeInstanceOf(Date);
  });
});

describe('the SQLite snapshot cache, with two instances on one file', () => {
  test('an edit or a revocation written by one instance is seen by the other on its next read', async () => {
    const first = await createTestDatabase('sqlite');
    const second = await openDatabase(first.url, { migrate: false });
    try {
      const deps: DomainDeps = { repos: first.repos, baseUrl: 'http://quiz.test' };
      const owner = await createUser(first.repos, {
        email: 'cache@example.com',
        password: 'long enough pw',
      });
      const quiz = await createQuiz(deps, owner.id, {
        title: 'Before',
        questions: QuestionsInputSchema.parse(sampleQuestions()),
      });
      const key = await createApiKey(first.repos, owner.id, 'cached key');
      const keyHash = hashSecret(key.key);

      // The second instance reads (and keeps) both.
      expect((await second.reads.quizWithQuestions(owner.id, quiz.quiz_id))?.title).toBe('Before');
      expect((await second.hot.apiKeyByHash(keyHash))?.revokedAt).toBeNull();
      expect((await second.reads.quizCandidates(owner.id, 'After', titleKey('After'), 12)).length).toBe(0);

      // The first instance edits the quiz and revokes the key...
      await updateQuiz(deps, owner.id, { ref: quiz.quiz_id, title: 'After' });
      await revokeApiKey(first.repos, owner.id, key.id);

      // ...and the second sees both on its very next read.
      expect((await second.reads.quizWithQuestions(owner.id, quiz.quiz_id))?.title).toBe('After');
      expect((await second.reads.quizCandidates(owner.id, 'After', titleKey('After'), 12)).length).toBe(1);
      expect((await second.hot.apiKeyByHash(keyHash))?.revokedAt).toBeInstanceOf(Date);
    } finally {
      await second.close();
      await first.drop();
    }
  });
});
