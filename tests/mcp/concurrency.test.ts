// Parallel writes lose nothing and mix nothing, on both databases.
import { createApiKey, MAX_ACTIVE_KEYS } from '../../src/domain/api-keys';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { callTool, payload, type AnyClient, forEachEra } from '../helpers/mcp-clients';

describeEachDatabase('concurrent tool calls', (provider) => {
  forEachEra((era) => {
    let app: TestApp;
    let user: TestUser;
    let clients: AnyClient[];

    beforeAll(async () => {
      app = await startTestApp({ provider });
      user = await createTestUser(app);
      // Several clients, so requests really travel in parallel over separate connections.
      clients = await Promise.all(Array.from({ length: 5 }, () => era.connect(app, user.apiKey)));
    });
    afterAll(async () => {
      await Promise.all(clients.map((client) => client.close()));
      await app.close();
    });

    test('parallel create_quiz with one title gives distinct IDs and slugs', async () => {
      const results = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          callTool(clients[i % clients.length]!, 'create_quiz', { title: 'Same Title', questions: [] }),
        ),
      );
      const quizzes = results.map((result) => payload(result));
      expect(new Set(quizzes.map((quiz) => quiz.quiz_id)).size).toBe(12);
      const slugs = quizzes.map((quiz) => quiz.slug).sort();
      expect(new Set(slugs).size).toBe(12);
      for (const slug of slugs) expect(slug).toMatch(/^same-title-[a-z0-9]{6}$/);
    });

    test('parallel update_quiz on one quiz leaves one complete set of questions, never a mix', async () => {
      const quiz = payload(await callTool(clients[0]!, 'create_quiz', { title: 'Contended', questions: [] }));
      const writers = 10;
      const setFor = (writer: number) =>
        Array.from({ length: 6 }, (_, i) =>
          i % 2 === 0
            ? { type: 'yes_no', text: `writer ${writer} question ${i}`, points: writer }
            : {
                type: 'multiple_choice',
                text: `writer ${writer} question ${i}`,
                options: [
                  { label: `w${writer} a`, score: 1 },
                  { label: `w${writer} b`, score: 0 },
                ],
              },
        );
      const results = await Promise.all(
        Array.from({ length: writers }, (_, writer) =>
          callTool(clients[writer % clients.length]!, 'update_quiz', {
            quiz_id: quiz.quiz_id,
            questions: setFor(writer),
          }),
        ),
      );
      for (const result of results) payload(result); // every call succeeded
      const final = payload(await callTool(clients[0]!, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
      expect(final.questions).toHaveLength(6);
      const winner = Number(/writer (\d+)/.exec(final.questions[0].text)![1]);
      expect(final.questions.map((q: { text: string }) => q.text)).toEqual(setFor(winner).map((q) => q.text));
      for (const question of final.questions) {
        if (question.type === 'multiple_choice') expect(question.options[0].label).toBe(`w${winner} a`);
      }
      const rows = await app.database.prisma.question.count({ where: { quizId: quiz.quiz_id } });
      expect(rows).toBe(6);
    });

    test(`parallel API key creations never exceed ${MAX_ACTIVE_KEYS} active keys`, async () => {
      const fresh = await createTestUser(app, 'keys'); // already holds one key
      const attempts = await Promise.allSettled(
        Array.from({ length: 15 }, (_, i) => createApiKey(app.database.repos, fresh.id, `parallel ${i}`)),
      );
      const created = attempts.filter((attempt) => attempt.status === 'fulfilled').length;
      expect(created).toBe(MAX_ACTIVE_KEYS - 1);
      for (const attempt of attempts) {
        if (attempt.status === 'rejected') expect(String(attempt.reason)).toMatch(/already have 10 API keys/);
      }
      expect(await app.database.prisma.apiKey.count({ where: { userId: fresh.id, revokedAt: null } })).toBe(
        MAX_ACTIVE_KEYS,
      );
    });
  });
});
