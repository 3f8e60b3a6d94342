// A question that cannot be right is a warning, never an error: create_quiz, update_quiz and
// publish_quiz answer `warnings` through both eras' SDK clients, and the dashboard shows the same
// warnings where the owner decides to publish.
import { logIn, newAgent, squash } from '../dashboard/dashboard-helpers';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import { callTool, ERAS, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';

const NO_POINTS_MESSAGE = 'no option scores above 0, so nobody can earn points here';

/** Three good questions, then a multiple_choice whose options all score 0 (an assistant forgot `score`). */
const questionsWithZeroChoice = () => [
  { type: 'yes_no', text: 'Is the sky blue?', points: 1 },
  { type: 'short_text', text: 'Anything to add?' },
  { type: 'number', text: 'Seven times six?', points: 1, correct_number: 42 },
  { type: 'multiple_choice', text: 'Capital of Italy?', options: [{ label: 'Rome' }, { label: 'Milan' }] },
];

describe('warnings on written quizzes', () => {
  let app: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    user = await createTestUser(app);
  });
  afterAll(async () => {
    await app.close();
  });

  forEachEra((era) => {
    let client: AnyClient;
    beforeAll(async () => {
      client = await era.connect(app, user.apiKey);
    });
    afterAll(async () => {
      await client.close();
    });

    test('create_quiz accepts a question nobody can score on, and names it in warnings', async () => {
      const result = await callTool(client, 'create_quiz', {
        title: 'Zero choice',
        questions: questionsWithZeroChoice(),
      });
      expect(result.isError).toBeFalsy();
      const quiz = payload(result);
      expect(quiz.max_score).toBe(2);
      expect(quiz.warnings).toEqual([
        {
          code: 'no_points_possible',
          question_id: quiz.questions[3].question_id,
          field: 'questions[3].options',
          message: NO_POINTS_MESSAGE,
        },
      ]);
    });

    test('each question type warns on its own field; a text question without answers does not', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Every type at zero',
          questions: [
            { type: 'yes_no', text: 'Zero yes/no', points: 0 },
            {
              type: 'multiple_select',
              text: 'Zero select',
              options: [
                { label: 'A', score: 0 },
                { label: 'B', score: -1 },
              ],
            },
            { type: 'short_text', text: 'Zero text', points: 0, accepted_answers: ['x'] },
            { type: 'number', text: 'Zero number', points: 0, correct_number: 1 },
            { type: 'short_text', text: 'Survey text' },
          ],
        }),
      );
      expect(quiz.warnings.map((w: { field: string }) => w.field)).toEqual([
        'questions[0].points',
        'questions[1].options',
        'questions[2].points',
        'questions[3].points',
      ]);
      for (const warning of quiz.warnings) {
        expect(warning.code).toBe('no_points_possible');
        expect(warning.message).toMatch(/nobody can earn points here$/);
      }
    });

    test('update_quiz and publish_quiz answer the same warnings, and none once fixed', async () => {
      const created = payload(
        await callTool(client, 'create_quiz', { title: 'Fix me', questions: questionsWithZeroChoice() }),
      );
      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: created.quiz_id }));
      expect(published.warnings).toEqual(created.warnings);
      expect(published.warnings).toHaveLength(1);

      const questions: Record<string, unknown>[] = questionsWithZeroChoice();
      questions[3] = {
        type: 'multiple_choice',
        text: 'Capital of Italy?',
        options: [{ label: 'Rome', score: 1 }, { label: 'Milan' }],
      };
      const fixed = payload(
        await callTool(client, 'update_quiz', {
          quiz_id: created.quiz_id,
          questions,
          confirm_edit_published: true,
        }),
      );
      expect(fixed.warnings).toEqual([]);
      const again = payload(await callTool(client, 'publish_quiz', { quiz_id: created.quiz_id }));
      expect(again.already_published).toBe(true);
      expect(again.warnings).toEqual([]);
    });

    test('tools/list lists warnings in the three answers', async () => {
      const { tools } = await client.listTools();
      for (const name of ['create_quiz', 'update_quiz', 'publish_quiz']) {
        const tool = tools.find((t) => t.name === name)!;
        const warnings = (tool.outputSchema as any).properties.warnings;
        expect(Object.keys(warnings.items.properties).sort()).toEqual([
          'code',
          'field',
          'message',
          'question_id',
        ]);
      }
    });
  });

  test('the dashboard shows the warnings before publishing, and not once they are fixed', async () => {
    const agent = newAgent(app);
    expect((await logIn(agent, user.email, user.password)).status).toBe(303);
    const client = await ERAS[0]!.connect(app, user.apiKey);
    try {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Dashboard warn',
          questions: questionsWithZeroChoice(),
        }),
      );
      const page = squash((await agent.get(`/dashboard/quizzes/${quiz.quiz_id}`).expect(200)).text);
      expect(page).toContain('Check before publishing');
      expect(page).toContain(`Question 4: ${NO_POINTS_MESSAGE}.`);
      // Shown above the Publish button.
      expect(page.indexOf('Check before publishing')).toBeLessThan(page.indexOf('>Publish<'));

      const clean = payload(
        await callTool(client, 'create_quiz', {
          title: 'Dashboard clean',
          questions: questionsWithZeroChoice().slice(0, 3),
        }),
      );
      const cleanPage = (await agent.get(`/dashboard/quizzes/${clean.quiz_id}`).expect(200)).text;
      expect(cleanPage).not.toContain('Check before publishing');
    } finally {
      await client.close();
    }
  });
});
