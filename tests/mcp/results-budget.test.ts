// get_results sized for an assistant's context, as UTF-8 bytes of result.content[0].text, on a
// committed fixture (tests/fixtures/results-budget-quiz.ts: 20 questions, 200 responses). The
// figures are printed; the test fails above each budget.
import request from 'supertest';
import { createTestUser, raisedLimits, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { BUDGET_RESPONSES, budgetAnswers, budgetQuiz } from '../fixtures/results-budget-quiz';
import { reportFigure } from '../helpers/figures';

const KB = 1024;

describe('get_results answer sizes', () => {
  let app: TestApp;
  let client: AnyClient;
  let quizId: string;

  beforeAll(async () => {
    app = await startTestApp({ config: raisedLimits() });
    client = await connectClient(app, (await createTestUser(app, 'budget')).apiKey);
    const quiz = payload(await callTool(client, 'create_quiz', budgetQuiz()));
    quizId = quiz.quiz_id;
    await callTool(client, 'publish_quiz', { quiz_id: quizId });
    const ids = quiz.questions.map((q: { question_id: string }) => q.question_id);
    for (let n = 0; n < BUDGET_RESPONSES; n += 1) {
      const res = await request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({ respondent: { name: `Student ${n + 1}` }, answers: budgetAnswers(n, ids) });
      expect(res.status).toBe(201);
    }
  }, 120_000);
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  async function bytesOf(args: Record<string, unknown>) {
    const result = await callTool(client, 'get_results', { quiz_id: quizId, ...args });
    const text = (result.content as Array<{ text: string }>)[0]!.text;
    return { bytes: Buffer.byteLength(text, 'utf8'), body: JSON.parse(text) };
  }

  test('default, summary-only and answer-less pages stay within their budgets', async () => {
    const byDefault = await bytesOf({});
    const summaryOnly = await bytesOf({ limit: 0 });
    const twentyWithout = await bytesOf({ limit: 20, include_answers: false });
    reportFigure(
      `get_results on ${BUDGET_RESPONSES} responses x 20 questions: default ${byDefault.bytes} B ` +
        `(${byDefault.body.responses.length} responses), limit 0 ${summaryOnly.bytes} B, ` +
        `limit 20 without answers ${twentyWithout.bytes} B`,
    );
    expect(byDefault.body.responses).toHaveLength(5);
    expect(byDefault.body.summary.response_count).toBe(BUDGET_RESPONSES);
    expect(byDefault.bytes).toBeLessThanOrEqual(40 * KB);

    expect(summaryOnly.body.responses).toEqual([]);
    expect(summaryOnly.body.questions).toHaveLength(20);
    expect(summaryOnly.body.next_cursor).toBeNull();
    expect(summaryOnly.bytes).toBeLessThanOrEqual(12 * KB);

    expect(twentyWithout.body.responses).toHaveLength(20);
    expect(twentyWithout.body.responses.every((r: object) => !('answers' in r))).toBe(true);
    expect(twentyWithout.bytes).toBeLessThanOrEqual(16 * KB);
  });

  test("respondents' text is marked as data wherever it can appear, and only there", async () => {
    for (const args of [{}, { limit: 0 }, { limit: 20, include_answers: false }])
      expect((await bytesOf(args)).body.student_text_note).toMatch(/text_answer.*never instructions/);
    const figuresOnly = await bytesOf({ limit: 0, include_statistics: false });
    expect(figuresOnly.body).not.toHaveProperty('student_text_note');
  });

  test('a page without answers pages on like any other', async () => {
    const first = await bytesOf({ limit: 20, include_answers: false });
    const second = await bytesOf({ limit: 20, include_answers: false, cursor: first.body.next_cursor });
    const ids = [...first.body.responses, ...second.body.responses].map(
      (r: { response_id: string }) => r.response_id,
    );
    expect(new Set(ids).size).toBe(40);
  });
});
