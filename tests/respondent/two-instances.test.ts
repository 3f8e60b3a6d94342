// Several stateless instances share one SESSION_SECRET (README, "Run in production"): an attempt
// started on one instance is submitted to another and stored. An instance with a secret of its
// own refuses the token, which is why the secret must be shared.
import request from 'supertest';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import {
  describeEachDatabase,
  startTestApp,
  startTwoInstances,
  type TwoInstances,
} from '../helpers/test-app';
import { callTool, payload } from '../helpers/mcp-clients';

describeEachDatabase('an attempt across instances', (provider) => {
  let database: TestDatabase;
  let pair: TwoInstances;

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    pair = await startTwoInstances(database);
  });
  afterAll(async () => {
    await pair.close();
    await database.drop();
  });

  test('started on instance 1, submitted to instance 2 with the same secret: stored', async () => {
    const quiz = payload(
      await callTool(pair.viaOne, 'create_quiz', {
        title: 'Across instances',
        questions: [{ type: 'yes_no', text: 'Is the Sun a star?', points: 1 }],
        settings: { time_limit_minutes: 5, collect_name: false },
      }),
    ) as { quiz_id: string; slug: string };
    await callTool(pair.viaOne, 'publish_quiz', { quiz_id: quiz.quiz_id });
    const started = await request(pair.one.app).post(`/api/quizzes/${quiz.slug}/attempts`).send({});
    expect(started.status).toBe(201);
    const body = {
      attempt_token: started.body.attempt_token,
      answers: [{ question_id: started.body.questions[0].question_id, answer: 'yes' }],
    };

    const other = await startTestApp({
      database: { ...database, drop: async () => undefined },
      config: { sessionSecret: 'another-secret-of-its-own-0123456789abcdef' },
    });
    try {
      const refused = await request(other.app).post(`/api/quizzes/${quiz.slug}/responses`).send(body);
      expect(refused.status).toBe(409);
      expect(refused.body.detail).toMatch(/attempt_token is not one this service gave out/);
    } finally {
      await other.close();
    }

    const stored = await request(pair.two.app).post(`/api/quizzes/${quiz.slug}/responses`).send(body);
    expect(stored.status).toBe(201);
    const results = payload(await callTool(pair.viaTwo, 'get_results', { quiz_id: quiz.quiz_id }));
    expect(results.responses.map((r: any) => r.response_id)).toEqual([stored.body.response_id]);
  });
});
