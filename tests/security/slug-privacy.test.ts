// An attack suite found that creating a quiz with the title of another user's draft returned
// "-2" in its slug: anyone could learn which titles others have in draft. A new slug is made
// from the title and a random suffix alone, so it says nothing about anyone else's quizzes.
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, payload, forEachEra } from '../helpers/mcp-clients';

describe('slugs reveal nothing about other users', () => {
  forEachEra((era) => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(async () => {
      await app.close();
    });

    test("a title that another user has in draft gives a slug of the same shape as a fresh one's", async () => {
      const owner = await era.connect(app, (await createTestUser(app, 'owner')).apiKey);
      const prober = await era.connect(app, (await createTestUser(app, 'prober')).apiKey);
      try {
        payload(await callTool(owner, 'create_quiz', { title: 'Secret Merger Plans', questions: [] }));
        const probe = payload(
          await callTool(prober, 'create_quiz', { title: 'Secret Merger Plans', questions: [] }),
        );
        const control = payload(
          await callTool(prober, 'create_quiz', { title: 'Nobody Has This Title', questions: [] }),
        );
        expect(probe.slug).toMatch(/^secret-merger-plans-[a-z0-9]{6}$/);
        expect(control.slug).toMatch(/^nobody-has-this-title-[a-z0-9]{6}$/);
        expect(probe.slug).not.toMatch(/-\d+$/);
      } finally {
        await owner.close();
        await prober.close();
      }
    });

    test('slugs issued before keep working: a quiz is found by the slug it has', async () => {
      const user = await createTestUser(app, 'old-slug');
      const quiz = await app.database.prisma.quiz.create({
        data: {
          owner: { connect: { id: user.id } },
          title: 'Old quiz',
          titleKey: 'old quiz',
          slug: 'old-quiz',
          status: 'draft',
        },
      });
      const client = await era.connect(app, user.apiKey);
      try {
        expect(payload(await callTool(client, 'get_quiz_settings', { quiz_id: 'old-quiz' })).quiz_id).toBe(
          quiz.id,
        );
      } finally {
        await client.close();
      }
    });
  });
});
