// A timed attempt that ends with questions still blank: sent after the deadline and within the
// grace, it is stored with what it holds, whatever require_all_answers says, even with nothing
// answered; its blanks score 0 and the answer says which ran out of time. JSON and form alike,
// on both databases, with the clock moved rather than waited for.
import request from 'supertest';
import { movableClock, type MovableClock } from '../helpers/clock';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const MINUTE = 60_000;
const FIVE = ['Is the Sun a star?', 'Is ice cold?', 'Is fire wet?', 'Is the Moon cheese?', 'Is 2 prime?'].map(
  (text, index) => ({
    type: 'yes_no',
    text,
    points: index + 1,
    ...(index === 2 || index === 3 ? { correct_answer: 'no' } : {}),
  }),
);

describeEachDatabase('time-up submissions', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  let clock: MovableClock;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'timeup')).apiKey);
  });
  beforeEach(() => {
    clock = movableClock();
  });
  afterEach(() => clock.restore());
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  async function publish(title: string, settings: Record<string, unknown> = {}) {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title,
        questions: FIVE,
        settings: {
          time_limit_minutes: 1,
          collect_name: false,
          show_correct_answers: 'after_submit',
          ...settings,
        },
      }),
    ) as { quiz_id: string; slug: string; questions: Array<{ question_id: string; text: string }> };
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz;
  }
  const start = async (slug: string) => {
    const res = await request(app.app).post(`/api/quizzes/${slug}/attempts`).send({});
    expect(res.status).toBe(201);
    return res.body as { attempt_token: string; questions: Array<{ question_id: string; text: string }> };
  };
  const submit = (slug: string, body: object) =>
    request(app.app).post(`/api/quizzes/${slug}/responses`).send(body);
  const results = async (quizId: string) =>
    payload(await callTool(client, 'get_results', { quiz_id: quizId }));

  test('JSON: 2 of 5 answered is refused before the deadline, then stored at time-up with 3 blanks out of time', async () => {
    const quiz = await publish('Two of five');
    const attempt = await start(quiz.slug);
    const [first, second, ...rest] = attempt.questions;
    const answers = [
      { question_id: first!.question_id, answer: 'yes' },
      { question_id: second!.question_id, answer: 'yes' },
    ];
    // Before the deadline, require_all_answers still holds.
    const early = await submit(quiz.slug, { attempt_token: attempt.attempt_token, answers });
    expect(early.status).toBe(422);
    clock.advance(MINUTE + 5_000);
    const late = await submit(quiz.slug, { attempt_token: attempt.attempt_token, answers });
    expect(late.status).toBe(201);
    expect(late.body).toMatchObject({ score: 3, max_score: 15, time_up: true });
    expect(late.body.out_of_time).toEqual(rest.map((q) => q.question_id));
    expect(late.body.review.map((item: any) => [item.your_answer, item.points])).toEqual([
      ['yes', 1],
      ['yes', 2],
      [null, 0],
      [null, 0],
      [null, 0],
    ]);
    const stored = await results(quiz.quiz_id);
    expect(stored.responses).toHaveLength(1);
    expect(stored.responses[0].time_up).toBe(true);
    expect(stored.responses[0].score).toBe(3);
    expect(stored.responses[0].answers.map((a: any) => a.answer)).toEqual(['yes', 'yes', null, null, null]);
    // One submission per attempt, time-up or not.
    const again = await submit(quiz.slug, { attempt_token: attempt.attempt_token, answers });
    expect(again.status).toBe(409);
  });

  test('JSON: nothing answered at time-up is stored as five blanks; an answer not valid counts as blank', async () => {
    const quiz = await publish('Nothing answered');
    const empty = await start(quiz.slug);
    const typo = await start(quiz.slug);
    clock.advance(MINUTE + 1_000);
    const stored = await submit(quiz.slug, { attempt_token: empty.attempt_token, answers: [] });
    expect(stored.status).toBe(201);
    expect(stored.body).toMatchObject({ score: 0, time_up: true });
    expect(stored.body.out_of_time).toHaveLength(5);
    const half = await submit(quiz.slug, {
      attempt_token: typo.attempt_token,
      answers: [
        { question_id: typo.questions[0]!.question_id, answer: 'yes' },
        { question_id: typo.questions[1]!.question_id, text: 'maybe' },
      ],
    });
    expect(half.status).toBe(201);
    expect(half.body.score).toBe(1);
    expect(half.body.out_of_time).toEqual(typo.questions.slice(1).map((q) => q.question_id));
    // A question id that is not the quiz's is still refused: that is not an answer left blank.
    const other = await start(quiz.slug);
    clock.advance(MINUTE + 1_000);
    const wrong = await submit(quiz.slug, {
      attempt_token: other.attempt_token,
      answers: [{ question_id: 'nope', answer: 'yes' }],
    });
    expect(wrong.status).toBe(422);
    // Past the grace, nothing is stored.
    clock.advance(60_000);
    const expired = await submit(quiz.slug, { attempt_token: other.attempt_token, answers: [] });
    expect(expired.status).toBe(409);
    expect((await results(quiz.quiz_id)).responses).toHaveLength(2);
    // A submission in time keeps every rule: nothing answered is refused.
    const inTime = await start(quiz.slug);
    expect((await submit(quiz.slug, { attempt_token: inTime.attempt_token, answers: [] })).status).toBe(422);
  });

  test('form: a German time-up submission is stored and its result page says, in German, which ran out of time', async () => {
    const quiz = await publish('Zwei von fünf', { language: 'de', show_correct_answers: 'never' });
    const started = await request(app.app).post(`/q/${quiz.slug}/start`).type('form').send({});
    expect(started.status).toBe(303);
    const token = decodeURIComponent(/attempt=([^&]+)/.exec(started.headers.location!)![1]!);
    const [first, second, ...rest] = quiz.questions;
    clock.advance(MINUTE + 2_000);
    const sent = await request(app.app)
      .post(`/q/${quiz.slug}`)
      .type('form')
      .send(
        `attempt_token=${encodeURIComponent(token)}&q_${first!.question_id}=yes&q_${second!.question_id}=no`,
      );
    expect(sent.status).toBe(303);
    const page = await request(app.app).get(sent.headers.location!);
    expect(page.status).toBe(200);
    expect(page.text).toContain('lang="de"');
    expect(page.text).toContain('Die Zeit ist abgelaufen, deshalb wurden deine Antworten so gesendet');
    expect(page.text).toContain('Leer gelassen, als die Zeit ablief:');
    for (const question of rest) expect(page.text).toContain(`<li dir="auto">${question.text}</li>`);
    expect(page.text).not.toContain(`<li dir="auto">${first!.text}</li>`);
    const stored = await results(quiz.quiz_id);
    expect(stored.responses[0].answers.map((a: any) => a.answer)).toEqual(['yes', 'no', null, null, null]);
  });
});
