// An attack suite found 500s for malformed percent-encoding (/q/%ff) on several routes and for
// a corrupt gzip body on the respondent routes. Each is the client's error: a 4xx in the
// surface's own format (an HTML page, or a problem body), never a 500.
import request from 'supertest';
import { expectProblem } from '../helpers/http';
import { startTestApp, type TestApp } from '../helpers/test-app';

describe('malformed requests answer 4xx', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  test.each([
    ['GET', '/q/%ff', 'html'],
    ['POST', '/q/%ff', 'html'],
    ['GET', '/q/%ff/r/x', 'html'],
    ['GET', '/q/quiz/r/%E0%A4%A', 'html'],
    ['GET', '/dashboard/quizzes/%ff', 'html'],
    ['POST', '/settings/security/api-keys/%ff/revoke', 'html'],
    ['GET', '/dashboard/quizzes/%ff/responses.csv', 'html'],
    ['POST', '/api/quizzes/%ff/responses', 'problem'],
    ['GET', '/api/quizzes/%C0%AF/responses', 'problem'],
  ])('%s %s', async (method, path, format) => {
    const agent = request(app.app);
    const res = await (method === 'GET' ? agent.get(path) : agent.post(path))
      .set('Content-Type', 'application/json')
      .send('{}');
    expect(res.status).toBe(400);
    if (format === 'html') expect(res.headers['content-type']).toMatch(/^text\/html/);
    else expectProblem(res, app.baseUrl, 'bad_request');
  });

  test('a corrupt gzip body on the JSON submission route is a 400 problem', async () => {
    const res = await request(app.app)
      .post('/api/quizzes/some-quiz/responses')
      .set('Content-Type', 'application/json')
      .set('Content-Encoding', 'gzip')
      .send(Buffer.from('this is not gzip'));
    expect(res.status).toBe(400);
    expectProblem(res, app.baseUrl, 'bad_request');
    expect(res.body.detail).toMatch(/could not be decompressed/);
  });

  test('a corrupt gzip body on the quiz form is a 400 page', async () => {
    const res = await request(app.app)
      .post('/q/some-quiz')
      .set('Content-Type', 'application/x-www-form-urlencoded')
      .set('Content-Encoding', 'gzip')
      .send(Buffer.from('this is not gzip'));
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/could not be decompressed/);
  });
});
