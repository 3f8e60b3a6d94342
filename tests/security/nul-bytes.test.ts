// An attack suite found that a NUL byte in any text answered 500 on PostgreSQL (error 22021),
// on unauthenticated routes and in tool arguments alike. A NUL is refused at every door, naming
// the field, on both databases (SQLite would have stored it).
import request from 'supertest';
import { expectProblem } from '../helpers/http';
import {
  createTestUser,
  describeEachDatabase,
  sampleQuestions,
  startTestApp,
  type TestApp,
} from '../helpers/test-app';
import { callTool, errorText, payload, forEachEra } from '../helpers/mcp-clients';

describeEachDatabase('NUL bytes are refused, naming the field', (provider) => {
  forEachEra((era) => {
    let app: TestApp;
    let apiKey: string;
    let slug: string;

    beforeAll(async () => {
      app = await startTestApp({ provider });
      apiKey = (await createTestUser(app, 'nul')).apiKey;
      const client = await era.connect(app, apiKey);
      const quiz = payload(
        await callTool(client, 'create_quiz', { title: 'Nul quiz', questions: sampleQuestions() }),
      );
      payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      slug = quiz.slug;
      await client.close();
    });
    afterAll(async () => {
      await app.close();
    });

    test.each([
      ['create_quiz', { title: 'a\u0000b', questions: [] }, 'title'],
      [
        'create_quiz',
        { title: 'ok', questions: [{ type: 'yes_no', text: 'Q\u0000', points: 1 }] },
        'questions[0].text',
      ],
      ['get_quiz_questions', { quiz_id: 'x\u0000' }, 'quiz_id'],
    ])('tool %s: isError naming %s, nothing stored', async (tool, args, field) => {
      const client = await era.connect(app, apiKey);
      try {
        const before = payload(await callTool(client, 'list_quizzes', { limit: 100 })).quizzes.length;
        const text = errorText(await callTool(client, tool, args));
        expect(text).toContain(`- ${field}: must not contain a NUL character`);
        expect(payload(await callTool(client, 'list_quizzes', { limit: 100 })).quizzes).toHaveLength(before);
      } finally {
        await client.close();
      }
    });

    test('the JSON submission route: 422 naming the field', async () => {
      const res = await request(app.app)
        .post(`/api/quizzes/${slug}/responses`)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ respondent: { name: 'Ann\u0000', email: 'a@b.c' }, answers: [] }));
      expect(res.status).toBe(422);
      expectProblem(res, app.baseUrl, 'validation_failed');
      expect(res.body.errors).toEqual([{ field: 'respondent.name', message: expect.stringMatching(/NUL/) }]);
    });

    test('the quiz form: a 400 page naming the field', async () => {
      const res = await request(app.app).post(`/q/${slug}`).type('form').send('name=Ann%00&email=a%40b.c');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).toMatch(/The field name must not contain a NUL character/);
    });

    test.each([
      `/q/${'quiz'}%00`,
      '/oauth/authorize?client_id=%00',
      '/api/quizzes/x%00/responses',
      '/dashboard?x=%00',
    ])('an address holding %%00 (%s) is a 400 problem', async (path) => {
      const res = await request(app.app).get(path);
      expect(res.status).toBe(400);
      expectProblem(res, app.baseUrl, 'bad_request');
    });

    test('a dashboard form (sign up): a 400 page naming the field', async () => {
      const res = await request(app.app).post('/signup').type('form').send('email=a%00%40b.c&password=x');
      expect(res.status).toBe(400);
      expect(res.text).toMatch(/The field email must not contain a NUL character/);
    });

    test('OAuth registration and token requests: an OAuth error naming the field', async () => {
      const register = await request(app.app)
        .post('/oauth/register')
        .set('Content-Type', 'application/json')
        .send(JSON.stringify({ client_name: 'Evil\u0000', redirect_uris: ['https://client.example/cb'] }));
      expect(register.status).toBe(400);
      expect(register.body).toMatchObject({
        error: 'invalid_client_metadata',
        error_description: expect.stringMatching(/client_name/),
      });
      const token = await request(app.app)
        .post('/oauth/token')
        .type('form')
        .send('grant_type=authorization_code&code=%00');
      expect(token.status).toBe(400);
      expect(token.body).toMatchObject({
        error: 'invalid_request',
        error_description: expect.stringMatching(/code/),
      });
    });
  });
});
