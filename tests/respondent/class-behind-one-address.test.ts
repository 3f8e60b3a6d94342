// One student's page cannot lock out a class: with the default limits, one page's refused
// submissions (the loop a page at zero once made: 60 POSTs in two seconds) are counted apart,
// per attempt, so 40 students behind the same address then Start and submit within one minute
// and all 40 are stored. The looping page meets its own refusal limit, in the quiz's language.
import request from 'supertest';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const QUESTIONS = ['Is the Sun a star?', 'Is ice cold?', 'Is 2 prime?'].map((text) => ({
  type: 'yes_no',
  text,
  points: 1,
}));

describeEachDatabase('a class behind one address', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'class')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('after one page’s refused submissions, 40 students Start and submit within a minute and all 40 are stored', async () => {
    const began = Date.now();
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'اختبار الصف',
        questions: QUESTIONS,
        settings: { time_limit_minutes: 10, collect_name: false, language: 'ar' },
      }),
    ) as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    const startPage = async () => {
      const res = await request(app.app).post(`/q/${quiz.slug}/start`).type('form').send({});
      expect(res.status).toBe(303);
      return decodeURIComponent(/attempt=([^&]+)/.exec(res.headers.location!)![1]!);
    };
    const form = (token: string, answered: number) =>
      [
        `attempt_token=${encodeURIComponent(token)}`,
        ...quiz.questions.slice(0, answered).map((q) => `q_${q.question_id}=yes`),
      ].join('&');

    // One page sends a form with a blank again and again: each one is refused (422).
    const looping = await startPage();
    const refused: number[] = [];
    for (let i = 0; i < 60; i += 1) {
      const res = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(form(looping, 1));
      refused.push(res.status);
      if (res.status === 429) {
        // Its own limit, per attempt; the page in the quiz's language, not the browser's.
        expect(res.text).toContain('lang="ar"');
        expect(res.text).toContain('إرسالات كثيرة جدًا');
      }
    }
    expect(refused.filter((status) => status === 422)).toHaveLength(30);
    expect(refused.filter((status) => status === 429)).toHaveLength(30);

    // 40 students behind the same address, all at once.
    const stored = await Promise.all(
      Array.from({ length: 40 }, async () => {
        const token = await startPage();
        const res = await request(app.app)
          .post(`/q/${quiz.slug}`)
          .set('Accept-Language', 'en')
          .type('form')
          .send(form(token, 3));
        return res.status;
      }),
    );
    expect(stored).toEqual(Array.from({ length: 40 }, () => 303));
    expect(Date.now() - began).toBeLessThan(60_000);
    const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
    expect(results.summary.response_count).toBe(40);
  });
});
