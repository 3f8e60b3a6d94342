// An attack suite found the quiz form unthrottled: one client could fill a quiz's results with
// junk. The form and the JSON API now count together, per quiz and client address; a page gets a
// 429 page, the API a problem body, both with Retry-After and the RateLimit headers.
import request from 'supertest';
import {
  createPublishedQuiz,
  sampleAnswers,
  sampleForm,
  type PublishedQuiz,
} from '../respondent/respondent-fixtures';
import { expectProblem } from '../helpers/http';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

describe('respondent submissions are limited per quiz and address', () => {
  let app: TestApp;
  let client: AnyClient;
  let quiz: PublishedQuiz;
  let other: PublishedQuiz;

  beforeAll(async () => {
    app = await startTestApp({ config: { submissionsPerMinute: 3 } });
    client = await connectClient(app, (await createTestUser(app, 'limits')).apiKey);
    quiz = await createPublishedQuiz(client, 'Limited quiz');
    other = await createPublishedQuiz(client, 'Another quiz');
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const submitJson = (target: PublishedQuiz) =>
    request(app.app)
      .post(`/api/quizzes/${target.slug}/responses`)
      .send({ respondent: { name: 'Ann' }, answers: sampleAnswers(target) });
  const submitForm = (target: PublishedQuiz) =>
    request(app.app)
      .post(`/q/${target.slug}`)
      .type('form')
      .send(sampleForm(target, { name: 'Ann', yes: 'yes', option: '0' }));

  test('the form and the API share one count; past it, each door answers in its own format', async () => {
    expect((await submitJson(quiz)).status).toBe(201);
    expect((await submitForm(quiz)).status).toBe(303);
    const third = await submitJson(quiz);
    expect(third.status).toBe(201);
    expect(third.headers['ratelimit-remaining']).toBe('0');

    const page = await submitForm(quiz);
    expect(page.status).toBe(429);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(Number(page.headers['retry-after'])).toBeGreaterThan(0);
    expect(page.headers['ratelimit-policy']).toBe('"default";q=3;w=60');
    expect(page.text).toMatch(/Too many submissions/);

    const api = await submitJson(quiz);
    expect(api.status).toBe(429);
    expectProblem(api, app.baseUrl, 'rate_limited');
    expect(Number(api.headers['retry-after'])).toBeGreaterThan(0);
    expect(api.headers.ratelimit).toMatch(/^"default";r=0;t=\d+$/);

    const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
    expect(results.summary.response_count).toBe(3);
  });

  test('another quiz from the same address has its own count, and the page itself is not counted', async () => {
    expect((await request(app.app).get(`/q/${quiz.slug}`)).status).toBe(200);
    expect((await submitForm(other)).status).toBe(303);
  });
});
