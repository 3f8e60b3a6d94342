// A formula that does not typeset is never a refusal: the quiz is written, the formula is shown
// as written, and create_quiz, update_quiz, edit_questions and publish_quiz name it in
// `warnings`, through both eras' SDK clients. The tools' own answers keep the text as sent.
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import { callTool, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';

const BROKEN = '\\(\\frac{1\\)';

interface Warning {
  code: string;
  question_id: string | null;
  field: string;
  message: string;
}
const formulaWarnings = (answer: Record<string, unknown>) =>
  (answer.warnings as Warning[]).filter((warning) => warning.code === 'formula_not_typeset');

describe('formula_not_typeset', () => {
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

    test('create_quiz writes the quiz and names each formula that does not typeset, by question and field', async () => {
      const result = await callTool(client, 'create_quiz', {
        title: 'Fractions',
        description: `Warm-up ${BROKEN}`,
        questions: [
          { type: 'yes_no', text: 'Is \\(\\frac{1}{2} = 0.5\\)?', points: 1, correct_answer: 'yes' },
          {
            type: 'multiple_choice',
            text: `Which is ${BROKEN}?`,
            options: [{ label: '\\(\\sqrt{2}\\)', score: 1 }, { label: `Half of ${BROKEN}` }],
            explanation: 'See \\[\\frac{1}{2}\\] and \\(\\left( x\\).',
          },
        ],
      });
      expect(result.isError).toBeFalsy();
      const quiz = payload(result);
      const second = quiz.questions[1].question_id;
      expect(formulaWarnings(quiz)).toEqual([
        {
          code: 'formula_not_typeset',
          question_id: null,
          field: 'description',
          message: expect.stringContaining(`the formula ${BROKEN} is shown as written`),
        },
        expect.objectContaining({ question_id: second, field: 'questions[1].text' }),
        expect.objectContaining({ question_id: second, field: 'questions[1].options[1].label' }),
        expect.objectContaining({
          question_id: second,
          field: 'questions[1].explanation',
          message: expect.stringContaining('\\(\\left( x\\)'),
        }),
      ]);
      // The tools answer the text as written: only pages typeset it.
      expect(quiz.questions[1].text).toBe(`Which is ${BROKEN}?`);
      expect(quiz.description).toBe(`Warm-up ${BROKEN}`);

      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      expect(published.status).toBe('published');
      expect(formulaWarnings(published)).toHaveLength(4);
    });

    test('"$5 and $10" is text with math_dollars off; with it on, a broken $...$ is named', async () => {
      const money = payload(
        await callTool(client, 'create_quiz', {
          title: 'Prices',
          questions: [
            { type: 'short_text', text: 'Which is cheaper, $5 or $10?' },
            { type: 'short_text', text: 'Expand $(a+b)^{2$.' },
          ],
        }),
      );
      expect(formulaWarnings(money)).toEqual([]);

      const updated = payload(
        await callTool(client, 'update_quiz', { quiz_id: money.quiz_id, settings: { math_dollars: true } }),
      );
      expect(formulaWarnings(updated)).toEqual([
        expect.objectContaining({
          question_id: money.questions[1].question_id,
          field: 'questions[1].text',
          message: expect.stringContaining('the formula $(a+b)^{2$ is shown as written'),
        }),
      ]);
      const settings = payload(await callTool(client, 'get_quiz_settings', { quiz_id: money.quiz_id }));
      expect(settings.math_dollars).toBe(true);
    });

    test('edit_questions names the formula of the question it wrote, at its operation', async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Roots',
          questions: [
            { type: 'number', text: 'What is \\(\\sqrt{16}\\)?', points: 1, correct_number: 4 },
            { type: 'short_text', text: 'Name a prime.' },
          ],
        }),
      );
      expect(formulaWarnings(quiz)).toEqual([]);
      const edited = payload(
        await callTool(client, 'edit_questions', {
          quiz_id: quiz.quiz_id,
          operations: [{ op: 'update', question_id: quiz.questions[1].question_id, text: `Name ${BROKEN}.` }],
        }),
      );
      expect(formulaWarnings(edited)).toEqual([
        expect.objectContaining({ question_id: quiz.questions[1].question_id, field: 'operations[0].text' }),
      ]);
    });
  });
});
