// A quiz whose owner turned on allow_embedding may be framed by any site on its public pages
// (the form, the closed notice, a result); every other page, and every quiz without it, keeps
// `frame-ancestors 'none'` and `X-Frame-Options: DENY` against clickjacking.
import request from 'supertest';
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { publishQuiz } from '../../src/domain/quizzes/publish-quiz';
import { updateQuiz } from '../../src/domain/quizzes/update-quiz';
import type { QuestionInput } from '../../src/domain/quiz-input';
import { createTestUser, sampleQuestions, startTestApp, type TestApp } from '../helpers/test-app';

const framable = (res: request.Response) => {
  const csp = String(res.headers['content-security-policy']);
  return csp.includes('frame-ancestors *') && res.headers['x-frame-options'] === undefined;
};
const deniesFraming = (res: request.Response) =>
  String(res.headers['content-security-policy']).includes("frame-ancestors 'none'") &&
  res.headers['x-frame-options'] === 'DENY';

describe('allow_embedding and frame-ancestors', () => {
  let app: TestApp;
  type Published = { slug: string; id: string; questionIds: string[] };
  let embedded: Published;
  let plain: Published;

  async function published(ownerId: string, title: string, allow: boolean) {
    const quiz = await createQuiz(app.deps, ownerId, {
      title,
      questions: sampleQuestions() as QuestionInput[],
      settings: { allow_embedding: allow, show_score_to_respondent: true },
    });
    await publishQuiz(app.deps, ownerId, quiz.quiz_id);
    return { slug: quiz.slug, id: quiz.quiz_id, questionIds: quiz.questions.map((q) => q.question_id) };
  }

  beforeAll(async () => {
    app = await startTestApp();
    const owner = await createTestUser(app, 'embed');
    embedded = await published(owner.id, 'Embedded quiz', true);
    plain = await published(owner.id, 'Plain quiz', false);
  });
  afterAll(() => app.close());

  test('the public page and a result page of an embeddable quiz may be framed by any site', async () => {
    const page = await request(app.app).get(`/q/${embedded.slug}`);
    expect(page.status).toBe(200);
    expect(framable(page)).toBe(true);
    const [yesNo, choice] = embedded.questionIds;
    const submitted = await request(app.app)
      .post(`/q/${embedded.slug}`)
      .type('form')
      .send({ name: 'Framed', [`q_${yesNo}`]: 'yes', [`q_${choice}`]: '0' });
    expect(submitted.status).toBe(303);
    const result = await request(app.app).get(String(submitted.headers.location));
    expect(result.status).toBe(200);
    expect(framable(result)).toBe(true);
    const refused = await request(app.app).post(`/q/${embedded.slug}`).type('form').send({});
    expect(refused.status).toBe(422);
    expect(framable(refused)).toBe(true);
  });

  test('a quiz without it, unknown slugs and every other page refuse framing', async () => {
    for (const path of [`/q/${plain.slug}`, '/q/no-such-quiz', '/', '/login', '/signup', '/dashboard']) {
      const res = await request(app.app).get(path);
      expect({ path, denies: deniesFraming(res) }).toEqual({ path, denies: true });
    }
  });

  test('the closed notice of an embeddable quiz may be framed too', async () => {
    const owner = await createTestUser(app, 'closer');
    const quiz = await published(owner.id, 'Closed embedded', true);
    await updateQuiz(app.deps, owner.id, {
      ref: quiz.id,
      settings: { accepting_responses: false },
      confirmEditPublished: true,
    });
    const res = await request(app.app).get(`/q/${quiz.slug}`);
    expect(res.text).toMatch(/closed|not accepting/i);
    expect(framable(res)).toBe(true);
  });
});
