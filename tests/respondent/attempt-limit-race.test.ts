// The attempt limit per email under parallel submissions: eight attempts started for one address
// (each start sees no submission yet), then all eight submitted at once. The count and the insert
// run under one lock, so exactly one response is stored and the other seven are refused.
import request from 'supertest';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

describeEachDatabase('attempt limit per email, in parallel', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'race')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('8 parallel submissions with max_attempts_per_email: 1 store exactly 1', async () => {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Once only',
        questions: [{ type: 'yes_no', text: 'Is water wet?', points: 1 }],
        settings: { collect_email: true, collect_name: false, max_attempts_per_email: 1 },
      }),
    ) as { quiz_id: string; slug: string };
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    const starts = [];
    for (let i = 0; i < 8; i += 1) {
      const started = await request(app.app)
        .post(`/api/quizzes/${quiz.slug}/attempts`)
        .send({ respondent: { email: 'ada@example.com' } });
      expect(started.status).toBe(201);
      starts.push(started.body as { attempt_token: string; questions: Array<{ question_id: string }> });
    }
    const answers = [{ question_id: starts[0]!.questions[0]!.question_id, answer: 'yes' }];
    const submitted = await Promise.all(
      starts.map((started) =>
        request(app.app)
          .post(`/api/quizzes/${quiz.slug}/responses`)
          .send({ attempt_token: started.attempt_token, respondent: { email: 'ada@example.com' }, answers }),
      ),
    );
    const statuses = submitted.map((res) => res.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const res of submitted.filter((r) => r.status === 409)) {
      expect(res.body.detail).toMatch(/ada@example\.com has already submitted "Once only" 1 time/);
    }
    const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
    expect(results.responses).toHaveLength(1);
    // A refused attempt was not spent: nothing of it was stored, and it is not marked submitted.
    const refused = submitted.findIndex((res) => res.status === 409);
    const again = await request(app.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .send({ attempt_token: starts[refused]!.attempt_token, answers });
    expect(again.status).toBe(409);
    expect(again.body.detail).toMatch(/^ada@example\.com has already submitted/);
  });
});
