// On a quiz taken without an attempt, refusals are counted per quiz and address. Once that
// budget is spent it turns away further invalid submissions only: the next valid one from the
// same address is stored, on both databases.
import request from 'supertest';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createPublishedQuiz, sampleAnswers } from '../respondent/respondent-fixtures';

describeEachDatabase('refusals spent from one address', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider, config: { submissionRefusalsPerMinute: 30 } });
    client = await connectClient(app, (await createTestUser(app, 'refusals')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('30 invalid submissions, then a 429 for the next invalid one, and the valid one is still stored (201)', async () => {
    const quiz = await createPublishedQuiz(client, 'Refusals spent');
    const submit = (body: object) =>
      request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .set('Content-Type', 'application/json')
        .send(body);
    const statuses: number[] = [];
    for (let i = 0; i < 30; i += 1) statuses.push((await submit({ answers: 'not a list' })).status);
    expect(statuses.every((status) => status === 422 || status === 400)).toBe(true);

    const over = await submit({ answers: 'not a list' });
    expect(over.status).toBe(429);
    expect(over.headers['retry-after']).toMatch(/^\d+$/);
    expect(over.headers['content-type']).toMatch(/problem\+json/);

    const valid = await submit({ respondent: { name: 'Ada' }, answers: sampleAnswers(quiz, 'yes', 0) });
    expect(valid.status).toBe(201);
    const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
    expect(results.summary.response_count).toBe(1);

    // Still spent: the next invalid one is turned away again.
    expect((await submit({ answers: 'not a list' })).status).toBe(429);
  });
});
