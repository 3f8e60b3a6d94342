// Object-level access (spec rule 2): user B can do nothing to user A's quiz, by ID, slug or
// title, and learns nothing about whether it exists.
import { prismaQuizReads } from '../../src/db/quiz-reads';
import { createRepositories } from '../../src/db/repositories';
import { resolveQuiz } from '../../src/domain/owned/resolve-quiz';
import { submitResponse } from '../../src/domain/taking/submit-response';
import { createTestUser, sampleQuestions, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, errorText, payload, type AnyClient, forEachEra } from '../helpers/mcp-clients';

describe("object-level access to another user's quiz", () => {
  forEachEra((era) => {
    let app: TestApp;
    let alice: AnyClient;
    let bob: AnyClient;
    let aliceQuiz: Record<string, any>;

    beforeAll(async () => {
      app = await startTestApp();
      alice = await era.connect(app, (await createTestUser(app, 'alice')).apiKey);
      bob = await era.connect(app, (await createTestUser(app, 'bob')).apiKey);
      aliceQuiz = payload(
        await callTool(alice, 'create_quiz', { title: 'Alice Private Quiz', questions: sampleQuestions() }),
      );
      await callTool(alice, 'publish_quiz', { quiz_id: aliceQuiz.quiz_id });
      await submitResponse(app.deps, aliceQuiz.slug, {
        respondent: { name: 'Resp' },
        answers: [
          { question_id: aliceQuiz.questions[0].question_id, answer: 'yes' },
          { question_id: aliceQuiz.questions[1].question_id, option_index: 0 },
        ],
      });
    });
    afterAll(async () => {
      await alice.close();
      await bob.close();
      await app.close();
    });

    const calls = (ref: string): Array<[string, Record<string, unknown>]> => [
      ['get_quiz_questions', { quiz_id: ref }],
      ['get_quiz_settings', { quiz_id: ref }],
      ['get_results', { quiz_id: ref }],
      [
        'update_quiz',
        {
          quiz_id: ref,
          questions: [{ type: 'yes_no', text: 'hijacked', points: 1 }],
          confirm_edit_published: true,
        },
      ],
      ['publish_quiz', { quiz_id: ref }],
      ['delete_quiz', { quiz_id: ref, confirm: true }],
    ];

    test.each(['quiz_id', 'slug', 'title'])(
      'by %s: every tool answers exactly as for a quiz that does not exist',
      async (form) => {
        const ref = form === 'title' ? aliceQuiz.title : aliceQuiz[form];
        for (const [tool, args] of calls(ref)) {
          const owned = errorText(await callTool(bob, tool, args));
          const missing = errorText(await callTool(bob, tool, { ...args, quiz_id: `${ref}-nonexistent` }));
          expect(owned).toBe(
            `No quiz that you own matches "${ref}". Pass the quiz_id, slug or exact title of one of your quizzes; list_quizzes shows them.`,
          );
          expect(missing.replace(`${ref}-nonexistent`, ref)).toBe(owned);
          expect(owned).not.toContain(aliceQuiz.quiz_id === ref ? 'Alice Private' : aliceQuiz.quiz_id);
        }
      },
    );

    test("nothing of Alice's quiz changed, and Bob's list does not show it", async () => {
      const questions = payload(await callTool(alice, 'get_quiz_questions', { quiz_id: aliceQuiz.quiz_id }));
      expect(questions.questions.map((q: { text: string }) => q.text)).toEqual([
        'Is the sky blue?',
        'Capital of Italy?',
      ]);
      expect(questions.status).toBe('published');
      const results = payload(await callTool(alice, 'get_results', { quiz_id: aliceQuiz.quiz_id }));
      expect(results.summary.response_count).toBe(1);
      expect(payload(await callTool(bob, 'list_quizzes')).quizzes).toEqual([]);
    });

    test("a title shared by Alice's and Bob's quizzes resolves to Bob's own, never ambiguous", async () => {
      const own = payload(await callTool(bob, 'create_quiz', { title: aliceQuiz.title, questions: [] }));
      expect(own.slug).not.toBe(aliceQuiz.slug);
      expect(payload(await callTool(bob, 'get_quiz_questions', { quiz_id: aliceQuiz.title })).quiz_id).toBe(
        own.quiz_id,
      );
      // Alice's slug still names nothing for Bob, even though Bob now has a quiz with that title.
      expect(errorText(await callTool(bob, 'get_quiz_questions', { quiz_id: aliceQuiz.slug }))).toMatch(
        /No quiz that you own/,
      );
    });
  });
});

describe('naming a quiz among many', () => {
  forEachEra((era) => {
    let app: TestApp;
    let carol: AnyClient;
    let carolId: string;

    beforeAll(async () => {
      app = await startTestApp();
      const user = await createTestUser(app, 'carol');
      carolId = user.id;
      carol = await era.connect(app, user.apiKey);
    });
    afterAll(async () => {
      await carol.close();
      await app.close();
    });

    test('an ID or slug wins even when a dozen older quizzes carry it as their title', async () => {
      const older = [];
      for (let i = 0; i < 12; i += 1) {
        older.push(payload(await callTool(carol, 'create_quiz', { title: `Older ${i}`, questions: [] })));
      }
      const target = payload(await callTool(carol, 'create_quiz', { title: 'Target', questions: [] }));
      for (const ref of [target.quiz_id, target.slug]) {
        // Every older quiz is renamed to the newest one's ID (then slug): a title match for each.
        for (const quiz of older) {
          expect(
            payload(await callTool(carol, 'update_quiz', { quiz_id: quiz.quiz_id, title: ref })).title,
          ).toBe(ref);
        }
        const found = payload(await callTool(carol, 'get_quiz_settings', { quiz_id: ref }));
        expect(found.quiz_id).toBe(target.quiz_id);
        // Resolution itself (get_quiz_settings loads an ID directly), through the raw-driver
        // candidates query and through Prisma.
        const { prisma, reads } = app.database;
        for (const quizReads of [reads, prismaQuizReads(prisma)]) {
          const repos = createRepositories(prisma, {
            hot: app.database.hot,
            reads: quizReads,
            writes: app.database.writes,
            dialect: app.database.dialect,
          });
          expect((await resolveQuiz({ repos }, carolId, ref)).id).toBe(target.quiz_id);
        }
      }
    });
  });
});
