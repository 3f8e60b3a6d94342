// Attempts through the JSON route and the form alike: POST /api/quizzes/:slug/attempts gives a
// signed token, the deadline and the questions drawn (canonical option_index, no key); every
// refusal is checked (late, outside the window, one attempt too many, a question not drawn, a
// timed submission without a token) with the clock moved, never waited for.
import request from 'supertest';
import { movableClock, type MovableClock } from '../helpers/clock';
import { expectProblem } from '../helpers/http';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const MINUTE = 60_000;

const FOUR_QUESTIONS = [
  { type: 'yes_no', text: 'Is water wet?', points: 1 },
  { type: 'yes_no', text: 'Is fire cold?', points: 2, correct_answer: 'no' },
  {
    type: 'multiple_choice',
    text: 'Largest planet?',
    options: [
      { label: 'Mars', score: 0 },
      { label: 'Jupiter', score: 4 },
      { label: 'Venus', score: 0 },
    ],
  },
  {
    type: 'multiple_choice',
    text: 'Smallest prime?',
    options: [
      { label: 'One', score: 0 },
      { label: 'Two', score: 8 },
    ],
  },
];

/** The right answer to each question by its text, whatever order an attempt shows. */
function rightAnswers(questions: Array<{ question_id: string; text: string; options?: any[] }>) {
  return questions.map((question) => {
    if (!question.options) {
      return { question_id: question.question_id, answer: question.text === 'Is fire cold?' ? 'no' : 'yes' };
    }
    const best = question.options.find((option) => ['Jupiter', 'Two'].includes(option.label));
    return { question_id: question.question_id, option_index: best.option_index };
  });
}

describeEachDatabase('attempts', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  let clock: MovableClock;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'attempts')).apiKey);
  });
  beforeEach(() => {
    clock = movableClock();
  });
  afterEach(() => clock.restore());
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  async function publish(title: string, settings: Record<string, unknown>, questions = FOUR_QUESTIONS) {
    const quiz = payload(await callTool(client, 'create_quiz', { title, questions, settings }));
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz as { quiz_id: string; slug: string; questions: Array<{ question_id: string; text: string }> };
  }
  const start = (slug: string, body: unknown = {}) =>
    request(app.app)
      .post(`/api/quizzes/${slug}/attempts`)
      .send(body as object);
  const submit = (slug: string, body: unknown) =>
    request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send(body as object);
  const problem = (res: any, status: number, code: string) => {
    expect(res.status).toBe(status);
    expectProblem(res, app.baseUrl, code);
  };
  const results = async (quizId: string) =>
    payload(await callTool(client, 'get_results', { quiz_id: quizId }));

  test('a timed quiz: token, deadline, no key; submitted once within the limit; late and token-less refused on every route', async () => {
    const quiz = await publish('Timed', { time_limit_minutes: 10, collect_name: false });
    const started = await start(quiz.slug);
    expect(started.status).toBe(201);
    expect(started.body).toMatchObject({
      attempt_token: expect.stringMatching(/^[a-z0-9]+\.\d+\.[A-Za-z0-9_-]{43}$/),
      time_limit_minutes: 10,
      submit_url: `${app.baseUrl}/api/quizzes/${quiz.slug}/responses`,
    });
    const deadline = Date.parse(started.body.deadline);
    expect(deadline - Date.parse(started.body.started_at)).toBe(10 * MINUTE);
    // Questions in the quiz's order (no shuffle), options with their canonical index, no scores or key.
    expect(started.body.questions.map((q: any) => q.text)).toEqual(FOUR_QUESTIONS.map((q) => q.text));
    expect(started.body.questions[2].options).toEqual([
      { option_index: 0, label: 'Mars' },
      { option_index: 1, label: 'Jupiter' },
      { option_index: 2, label: 'Venus' },
    ]);
    expect(JSON.stringify(started.body)).not.toMatch(/score|correct|points/);

    const answers = rightAnswers(started.body.questions);
    // No route gets around the limit: without a token, with a forged one, by the form with or without the version.
    problem(await submit(quiz.slug, { answers }), 409, 'conflict');
    const noToken = await submit(quiz.slug, { answers });
    expect(noToken.body.detail).toMatch(/taken through an attempt/);
    const [id, expiry] = started.body.attempt_token.split('.');
    const forged = `${id}.${Number(expiry) + 3600}.${'A'.repeat(43)}`;
    expect((await submit(quiz.slug, { attempt_token: forged, answers })).body.detail).toMatch(
      /not one this service gave out/,
    );
    const formAnswers = Object.fromEntries(
      answers.map((a: any) => [`q_${a.question_id}`, a.answer ?? String(a.option_index)]),
    );
    const form = (fields: Record<string, string>) =>
      request(app.app).post(`/q/${quiz.slug}`).type('form').send(fields);
    expect((await form(formAnswers)).status).toBe(409);
    expect((await form({ ...formAnswers, version: '1' })).status).toBe(409);
    expect((await form({ ...formAnswers, attempt_token: forged })).status).toBe(409);
    expect((await results(quiz.quiz_id)).summary.response_count).toBe(0);

    // Within the limit plus the grace: stored once; the same token again is refused.
    clock.advance(10 * MINUTE + 20_000);
    const ok = await submit(quiz.slug, { attempt_token: started.body.attempt_token, answers });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ score: 15, max_score: 15 });
    const again = await submit(quiz.slug, { attempt_token: started.body.attempt_token, answers });
    problem(again, 409, 'conflict');
    expect(again.body.detail).toMatch(/already been submitted/);

    // A second attempt past its deadline and grace: refused with the time it ended.
    const late = await start(quiz.slug);
    clock.advance(10 * MINUTE + 31_000);
    const refused = await submit(quiz.slug, { attempt_token: late.body.attempt_token, answers });
    problem(refused, 409, 'conflict');
    expect(refused.body.detail).toBe(
      `The time limit of this attempt ended at ${late.body.deadline}; nothing was stored.`,
    );
    const lateForm = await form({ ...formAnswers, attempt_token: late.body.attempt_token });
    expect(lateForm.status).toBe(409);
    expect(lateForm.text).toContain('so these answers were not recorded');
    // The answers typed are still on the page.
    expect(lateForm.text).toMatch(/value="yes"\s+checked/);
    expect((await results(quiz.quiz_id)).summary.response_count).toBe(1);
  });

  test('a pool of shuffled questions: the drawn ones only, scored out of their own maximum, in the quiz order in results', async () => {
    const quiz = await publish('Pooled', {
      question_pool_size: 2,
      shuffle_questions: true,
      shuffle_options: true,
      collect_name: false,
    });
    const seen = new Set<string>();
    let started: any;
    // Draw until an attempt leaves out a multiple_choice question, to answer one not drawn (bounded).
    for (let i = 0; i < 40; i += 1) {
      const attempt = await start(quiz.slug);
      expect(attempt.body.questions).toHaveLength(2);
      for (const q of attempt.body.questions) seen.add(q.text);
      if (!started && attempt.body.questions.some((q: any) => q.options)) started = attempt;
      if (seen.size === 4 && started) break;
    }
    expect(seen.size).toBe(4);
    const drawn = started.body.questions as Array<{ question_id: string; text: string; options?: any[] }>;
    const notDrawn = quiz.questions.find((q) => !drawn.some((d) => d.question_id === q.question_id))!;
    const answers = rightAnswers(drawn);
    const refused = await submit(quiz.slug, {
      attempt_token: started.body.attempt_token,
      answers: [...answers, { question_id: notDrawn.question_id, answer: 'yes' }],
    });
    problem(refused, 422, 'validation_failed');
    expect(refused.body.errors).toEqual([
      {
        field: 'answers[2].question_id',
        message: 'was not drawn for this attempt: answer only the questions the attempt lists.',
      },
    ]);
    const ok = await submit(quiz.slug, { attempt_token: started.body.attempt_token, answers });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.status).toBe(201);
    const maxima: Record<string, number> = {
      'Is water wet?': 1,
      'Is fire cold?': 2,
      'Largest planet?': 4,
      'Smallest prime?': 8,
    };
    const expectedMax = drawn.reduce((sum, q) => sum + maxima[q.text]!, 0);
    expect(ok.body).toMatchObject({ score: expectedMax, max_score: expectedMax, percent: 100 });
    const stored = (await results(quiz.quiz_id)).responses[0];
    // Stored in the quiz's own order, only what was drawn.
    const order = quiz.questions.map((q) => q.question_id);
    expect(stored.answers.map((a: any) => a.question_id)).toEqual(
      order.filter((qid) => drawn.some((d) => d.question_id === qid)),
    );
  });

  test('the window: nothing before opens_at or after closes_at; a timed attempt started before the close may finish', async () => {
    const now = Date.now();
    const later = await publish('Later', {
      opens_at: new Date(now + 60 * MINUTE).toISOString(),
      collect_name: false,
    });
    const beforeOpen = await submit(later.slug, {
      answers: [{ question_id: later.questions[0]!.question_id, answer: 'yes' }],
    });
    problem(beforeOpen, 409, 'conflict');
    expect(beforeOpen.body.detail).toMatch(/opens at/);
    expect((await start(later.slug)).status).toBe(409);

    const closing = await publish('Closing', {
      closes_at: new Date(now + 5 * MINUTE).toISOString(),
      time_limit_minutes: 10,
      collect_name: false,
    });
    const started = await start(closing.slug);
    clock.advance(6 * MINUTE);
    const tooLate = await start(closing.slug);
    problem(tooLate, 409, 'conflict');
    expect(tooLate.body.detail).toMatch(/closed at/);
    const finished = await submit(closing.slug, {
      attempt_token: started.body.attempt_token,
      answers: rightAnswers(started.body.questions),
    });
    expect(finished.status).toBe(201);
  });

  test('attempts per email: asked at the start, compared trimmed and lower-cased, checked again at submission', async () => {
    const quiz = await publish('Once', {
      collect_email: true,
      max_attempts_per_email: 1,
      collect_name: false,
    });
    const missing = await start(quiz.slug);
    problem(missing, 422, 'validation_failed');
    expect(missing.body.errors).toEqual([
      { field: 'respondent.email', message: 'Enter your email address.' },
    ]);
    const first = await start(quiz.slug, { respondent: { email: 'Ada@Example.com' } });
    const second = await start(quiz.slug, { respondent: { email: 'ada@example.com' } });
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    const answers = rightAnswers(first.body.questions);
    expect((await submit(quiz.slug, { attempt_token: first.body.attempt_token, answers })).status).toBe(201);
    const limited = await start(quiz.slug, { respondent: { email: '  ADA@example.COM ' } });
    problem(limited, 409, 'conflict');
    expect(limited.body.detail).toMatch(/ada@example\.com has already submitted "Once" 1 time/);
    // An attempt started before the first submission is checked again when it is submitted.
    const over = await submit(quiz.slug, { attempt_token: second.body.attempt_token, answers });
    problem(over, 409, 'conflict');
    expect((await results(quiz.quiz_id)).responses.map((r: any) => r.respondent.email)).toEqual([
      'ada@example.com',
    ]);
  });

  test('an edit while an attempt is in flight: refused with a message, then the same token takes the kept questions', async () => {
    const quiz = await publish('Edited', { shuffle_questions: true, collect_name: false });
    const started = await start(quiz.slug);
    const kept = quiz.questions[0]!;
    await callTool(client, 'update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      questions: [{ ...FOUR_QUESTIONS[0], question_id: kept.question_id }, FOUR_QUESTIONS[3]],
    });
    const answers = rightAnswers(started.body.questions);
    const changed = await submit(quiz.slug, { attempt_token: started.body.attempt_token, answers });
    problem(changed, 409, 'conflict');
    expect(changed.body.detail).toMatch(/edited after this attempt started, so nothing was stored/);
    const again = await submit(quiz.slug, {
      attempt_token: started.body.attempt_token,
      answers: answers.filter((a) => a.question_id === kept.question_id),
    });
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ score: 1, max_score: 1 });
  });

  test('the form of an attempt in flight when the owner edits: the answers come back with a message, then go through', async () => {
    const quiz = await publish('Edited form', { time_limit_minutes: 10, collect_name: false });
    const started = await request(app.app).post(`/q/${quiz.slug}/start`).type('form').send({});
    const token = decodeURIComponent(String(started.headers.location).split('attempt=')[1] ?? '');
    const kept = quiz.questions[0]!;
    await callTool(client, 'update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      questions: [{ ...FOUR_QUESTIONS[0], question_id: kept.question_id }, FOUR_QUESTIONS[3]],
    });
    const fields = { attempt_token: token, [`q_${kept.question_id}`]: 'yes' };
    const changed = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(fields);
    expect(changed.status).toBe(409);
    expect(changed.text).toContain('This quiz has changed');
    expect(changed.text).toMatch(new RegExp(`name="q_${kept.question_id}"\\s+value="yes"\\s+checked`));
    expect(changed.text).toContain('id="quiz-timer"');
    const sent = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(fields);
    expect(sent.status).toBe(303);
    expect(sent.headers.location).toMatch(new RegExp(`^/q/${quiz.slug}/r/`));
  });

  test('a quiz without these settings takes token-less submissions as before; GET starts nothing', async () => {
    const quiz = await publish('Plain', { collect_name: false });
    const page = await request(app.app).get(`/q/${quiz.slug}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('name="version"');
    const ok = await submit(quiz.slug, {
      answers: rightAnswers(
        payload(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id })).questions.map(
          (q: any) => ({ ...q, options: q.options?.map((o: any, i: number) => ({ ...o, option_index: i })) }),
        ),
      ),
    });
    expect(ok.status).toBe(201);

    const timed = await publish('Intro', { time_limit_minutes: 5, collect_name: false });
    const intro = await request(app.app).get(`/q/${timed.slug}`);
    expect(intro.text).toContain(`action="/q/${timed.slug}/start"`);
    expect(intro.text).not.toContain('name="attempt_token"');
    await request(app.app).get(`/q/${timed.slug}`);
    // A GET hands out no token: only Start, a POST, makes an attempt.
    const started = await request(app.app).post(`/q/${timed.slug}/start`).type('form').send({});
    expect(started.status).toBe(303);
    expect(started.headers.location).toMatch(new RegExp(`^/q/${timed.slug}\\?attempt=`));
    expect(started.headers['set-cookie']).toBeUndefined();
    const form = await request(app.app).get(String(started.headers.location));
    expect(form.text).toContain('name="attempt_token"');
    expect(form.text).toContain('id="quiz-timer"');
    expect(form.text).toContain('/assets/quiz-taking.js');
  });
});
