// Every page that refuses a respondent speaks the quiz's language, not the browser's: a student
// on an English phone taking an Arabic quiz reads each refusal in Arabic, right to left. Only a
// page with no quiz behind it (an unknown address) follows the browser (messages.test.ts).
import request from 'supertest';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const QUESTIONS = ['Is the Sun a star?', 'Is ice cold?'].map((text) => ({ type: 'yes_no', text, points: 1 }));

describeEachDatabase("refusal pages in the quiz's language", (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'refusals')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const arabic = (status: number, text: string) => {
    expect({ status, lang: /<html lang="ar"\s+dir="rtl"/.test(text) }).toEqual({ status, lang: true });
  };

  test('422, 409 (submitted twice, closed), and a token the quiz does not know: each in Arabic', async () => {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'اختبار قصير',
        questions: QUESTIONS,
        settings: { time_limit_minutes: 10, collect_name: false, language: 'ar' },
      }),
    ) as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    const english = () => ({ 'Accept-Language': 'en-US,en;q=0.9' });
    const start = await request(app.app).post(`/q/${quiz.slug}/start`).set(english()).type('form').send({});
    expect(start.status).toBe(303);
    const token = decodeURIComponent(/attempt=([^&]+)/.exec(start.headers.location!)![1]!);
    const form = (answered: number) =>
      [
        `attempt_token=${encodeURIComponent(token)}`,
        ...quiz.questions.slice(0, answered).map((q) => `q_${q.question_id}=yes`),
      ].join('&');

    const missing = await request(app.app).post(`/q/${quiz.slug}`).set(english()).type('form').send(form(1));
    arabic(422, missing.text);
    expect(missing.status).toBe(422);

    const stored = await request(app.app).post(`/q/${quiz.slug}`).set(english()).type('form').send(form(2));
    expect(stored.status).toBe(303);
    const again = await request(app.app).get(`/q/${quiz.slug}`).query({ attempt: token }).set(english());
    expect(again.status).toBe(409);
    arabic(409, again.text);

    const unknown = await request(app.app)
      .get(`/q/${quiz.slug}`)
      .query({ attempt: 'not-a-token' })
      .set(english());
    expect(unknown.status).toBe(404);
    arabic(404, unknown.text);

    await callTool(client, 'close_quiz', { quiz_id: quiz.quiz_id });
    const closedForm = await request(app.app)
      .post(`/q/${quiz.slug}`)
      .set(english())
      .type('form')
      .send(form(2));
    expect(closedForm.status).toBe(409);
    arabic(409, closedForm.text);
    const closedPage = await request(app.app).get(`/q/${quiz.slug}`).set(english());
    arabic(closedPage.status, closedPage.text);
  });
});
