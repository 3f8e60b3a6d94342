// A submission sent twice stores one response: a JSON submission repeated with the same
// Idempotency-Key answers as the first did, and a form posted twice with its one-time token is sent
// to the first result. Without a key, identical answers from one address stay two responses.
import request from 'supertest';
import { purgeExpired } from '../../src/domain/purge-expired';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

describeEachDatabase('repeated submissions', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'repeat')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  async function publishedQuiz(settings: Record<string, unknown> = {}) {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Repeats',
        questions: [{ type: 'yes_no', text: 'Is the Sun a star?', correct_answer: 'yes', points: 1 }],
        settings: { collect_name: false, show_correct_answers: 'after_submit', ...settings },
      }),
    ) as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz;
  }
  const stored = (quizId: string) => app.database.prisma.response.count({ where: { quizId } });
  const body = (quiz: { questions: Array<{ question_id: string }> }, answer = 'yes') => ({
    answers: [{ question_id: quiz.questions[0]!.question_id, answer }],
  });
  const post = (slug: string, sent: object, key?: string) => {
    const req = request(app.app).post(`/api/quizzes/${slug}/responses`);
    return (key === undefined ? req : req.set('Idempotency-Key', key)).send(sent);
  };

  test('the same key twice stores one response and answers the same 201 body, but for the kept link', async () => {
    const quiz = await publishedQuiz();
    const first = await post(quiz.slug, body(quiz), 'key-one');
    const second = await post(quiz.slug, body(quiz), 'key-one');
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    // The kept link's secret is stored only hashed: given with the first answer alone.
    const { kept_result_url: kept, ...rest } = first.body as Record<string, unknown>;
    expect(kept).toEqual(expect.stringContaining('/result?key='));
    expect(second.body).toEqual(rest);
    expect(second.headers.location).toBe(first.headers.location);
    expect(await stored(quiz.quiz_id)).toBe(1);
  });

  test('five concurrent posts with one key store one response, all naming it', async () => {
    const quiz = await publishedQuiz();
    const answers = await Promise.all(Array.from({ length: 5 }, () => post(quiz.slug, body(quiz), 'race')));
    expect(answers.map((res) => res.status)).toEqual([201, 201, 201, 201, 201]);
    expect(new Set(answers.map((res) => res.body.response_id)).size).toBe(1);
    expect(await stored(quiz.quiz_id)).toBe(1);
  });

  test('a key reused with another body is a 422 that says so, and stores nothing', async () => {
    const quiz = await publishedQuiz();
    expect((await post(quiz.slug, body(quiz, 'yes'), 'reused')).status).toBe(201);
    const res = await post(quiz.slug, body(quiz, 'no'), 'reused');
    expect(res.status).toBe(422);
    expect(res.body.detail).toMatch(/Idempotency-Key was already used with a different body/);
    expect(await stored(quiz.quiz_id)).toBe(1);
    const tooLong = await post(quiz.slug, body(quiz), 'k'.repeat(256));
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.detail).toMatch(/1 to 255/);
    expect(await stored(quiz.quiz_id)).toBe(1);
  });

  test('without a key, the same answers from one address are two responses', async () => {
    const quiz = await publishedQuiz();
    const [a, b] = [await post(quiz.slug, body(quiz)), await post(quiz.slug, body(quiz))];
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.response_id).not.toBe(b.body.response_id);
    expect(await stored(quiz.quiz_id)).toBe(2);
  });

  test('a key is kept a day: the purge then removes it, and the key stores anew', async () => {
    const quiz = await publishedQuiz();
    expect((await post(quiz.slug, body(quiz), 'daily')).status).toBe(201);
    const purgedNow = await purgeExpired(app.database.repos, new Date());
    expect(purgedNow.submissionKeys).toBe(0);
    const later = new Date(Date.now() + 24 * 60 * 60 * 1000 + 60_000);
    expect((await purgeExpired(app.database.repos, later)).submissionKeys).toBeGreaterThanOrEqual(1);
    expect((await post(quiz.slug, body(quiz), 'daily')).status).toBe(201);
    expect(await stored(quiz.quiz_id)).toBe(2);
  });

  const formToken = (page: string) => /name="submission_token" value="([^"]+)"/.exec(page)![1]!;

  test('a form posted twice with its one-time token stores one response; the second post goes to the first result', async () => {
    const quiz = await publishedQuiz();
    const page = await request(app.app).get(`/q/${quiz.slug}`);
    const token = formToken(page.text);
    // Another rendering, another token: two students' pages are never merged.
    expect(formToken((await request(app.app).get(`/q/${quiz.slug}`)).text)).not.toBe(token);
    const form = `submission_token=${token}&q_${quiz.questions[0]!.question_id}=yes`;
    const first = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(form);
    const second = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(form);
    expect(first.status).toBe(303);
    expect(second.status).toBe(303);
    expect(second.headers.location).toBe(first.headers.location);
    expect(first.headers.location).toMatch(new RegExp(`^/q/${quiz.slug}/r/`));
    expect(await stored(quiz.quiz_id)).toBe(1);
  });

  test('a timed attempt’s form posted twice stores one response and sends the second post to it', async () => {
    const quiz = await publishedQuiz({ time_limit_minutes: 10 });
    const start = await request(app.app).post(`/q/${quiz.slug}/start`).type('form').send({});
    expect(start.status).toBe(303);
    const page = await request(app.app).get(start.headers.location!);
    const attempt = /name="attempt_token" value="([^"]+)"/.exec(page.text)![1]!;
    const form = [
      `attempt_token=${encodeURIComponent(attempt.replace(/&amp;/g, '&'))}`,
      `submission_token=${formToken(page.text)}`,
      `q_${quiz.questions[0]!.question_id}=yes`,
    ].join('&');
    const [first, second] = await Promise.all([
      request(app.app).post(`/q/${quiz.slug}`).type('form').send(form),
      request(app.app).post(`/q/${quiz.slug}`).type('form').send(form),
    ]);
    expect([first.status, second.status]).toEqual([303, 303]);
    expect(second.headers.location).toBe(first.headers.location);
    const third = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(form);
    expect(third.status).toBe(303);
    expect(third.headers.location).toBe(first.headers.location);
    expect(await stored(quiz.quiz_id)).toBe(1);
  });

  test('an attempt submitted under a key: the same key again is a 303 to the first result, nothing stored', async () => {
    const quiz = await publishedQuiz({ time_limit_minutes: 10 });
    const started = await request(app.app).post(`/api/quizzes/${quiz.slug}/attempts`).send({});
    expect(started.status).toBe(201);
    const sent = { attempt_token: started.body.attempt_token as string, ...body(quiz) };
    const first = await post(quiz.slug, sent, 'attempt-key');
    expect(first.status).toBe(201);
    const again = await post(quiz.slug, sent, 'attempt-key');
    expect(again.status).toBe(303);
    expect(again.headers.location).toBe(first.body.result_url);
    // Without the key the attempt is refused as before.
    expect((await post(quiz.slug, sent)).status).toBe(409);
    expect(await stored(quiz.quiz_id)).toBe(1);
  });
});
