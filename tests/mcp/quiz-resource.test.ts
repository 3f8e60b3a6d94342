// Quizzes as resources, in both eras: quiz://{quiz_id} reads the caller's quiz as
// get_quiz_questions returns it (by ID, slug or title); another user's quiz is
// resource-not-found (SEP-2164: -32602 with the URI in its data), exactly as a quiz that does
// not exist, and never its content;
// resources/list does not enumerate quizzes.
import { callTool, connectClient, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  sampleQuestions,
  startTestApp,
  type TestApp,
} from '../helpers/test-app';

/** The JSON-RPC error a rejected request carried (both SDK lines keep its code and data). */
async function errorOf(
  promise: Promise<unknown>,
): Promise<{ code: number; message: string; data?: { uri?: string } }> {
  return promise.then(
    () => {
      throw new Error('expected the read to fail');
    },
    (error: { code: number; message: string; data?: { uri?: string } }) => error,
  );
}

describe('quiz resources', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  forEachEra((era) => {
    let alice: AnyClient;
    let bob: AnyClient;
    let quiz: Record<string, any>;
    beforeAll(async () => {
      alice = await era.connect(app, (await createTestUser(app, `alice-${era.era}`)).apiKey);
      bob = await era.connect(app, (await createTestUser(app, `bob-${era.era}`)).apiKey);
      quiz = payload(
        await callTool(alice, 'create_quiz', { title: 'Private rocks', questions: sampleQuestions() }),
      );
    });
    afterAll(async () => {
      await alice.close();
      await bob.close();
    });

    test('the template is listed, and resources/list enumerates no quiz', async () => {
      const { resourceTemplates } = await alice.listResourceTemplates();
      // Beside the skills extension's own template for its skill:// files.
      expect(resourceTemplates).toEqual([
        expect.objectContaining({ name: 'quiz', uriTemplate: 'quiz://{quiz_id}' }),
        expect.objectContaining({ name: 'io.modelcontextprotocol/skills', uriTemplate: 'skill://{+path}' }),
      ]);
      const { resources } = await alice.listResources();
      expect(resources.filter((resource) => resource.uri.startsWith('quiz:'))).toEqual([]);
    });

    test.each(['quiz_id', 'slug', 'title'])(
      'reading quiz://{%s} returns the get_quiz_questions document',
      async (form) => {
        const ref = encodeURIComponent(quiz[form]);
        const { contents } = await alice.readResource(`quiz://${ref}`);
        expect(contents).toHaveLength(1);
        expect(contents[0]).toMatchObject({ uri: `quiz://${quiz.quiz_id}`, mimeType: 'application/json' });
        const document = payload(await callTool(alice, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
        expect(JSON.parse(contents[0]!.text!)).toEqual(document);
      },
    );

    test("another user's quiz is resource-not-found, as a missing one, and never its content", async () => {
      const owned = await errorOf(bob.readResource(`quiz://${quiz.quiz_id}`));
      const missing = await errorOf(bob.readResource(`quiz://${quiz.quiz_id}x`));
      expect(owned).toMatchObject({ code: -32602, data: { uri: `quiz://${quiz.quiz_id}` } });
      expect(missing).toMatchObject({ code: -32602, data: { uri: `quiz://${quiz.quiz_id}x` } });
      expect(owned.message.replace(`${quiz.quiz_id}`, '')).toBe(
        missing.message.replace(`${quiz.quiz_id}x`, ''),
      );
      expect(owned.message).not.toContain('Private rocks');
      const bySlug = await errorOf(bob.readResource(`quiz://${quiz.slug}`));
      expect(bySlug).toMatchObject({ code: -32602, data: { uri: `quiz://${quiz.slug}` } });
    });

    test("the template's quiz_id completes from the caller's own quizzes only", async () => {
      const own = await alice.completeResource('quiz://{quiz_id}', 'quiz_id', 'Priv');
      expect(own.completion.values).toEqual(['Private rocks', quiz.slug]);
      const other = await bob.completeResource('quiz://{quiz_id}', 'quiz_id', 'Priv');
      expect(other.completion.values).toEqual([]);
    });
  });
});

// A reference no quiz can have is not found on either database: PostgreSQL refuses a NUL in a
// query outright, which must not become an internal error.
describeEachDatabase('quiz resources with references no quiz can have', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'odd-refs')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test.each([
    ['a NUL', 'a%00b'],
    ['a lone surrogate', '%ED%A0%80'],
    ['5,000 characters', 'x'.repeat(5_000)],
  ])('a reference holding %s is resource-not-found', async (_what, ref) => {
    const error = await errorOf(client.readResource(`quiz://${ref}`));
    expect(error.code).toBe(-32602);
  });
});
