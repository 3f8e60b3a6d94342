// show_correct_answers "after_close": the key shows on the result page once the quiz is closed,
// by close_quiz or by its closes_at. By closes_at it waits for the last attempt that may still be
// sent: closes_at plus the time limit plus the 30-second grace, so a student who started just
// before the close cannot read the key from a friend's result page while still answering. On
// SQLite and PostgreSQL, with the clock moved rather than waited for.
import request from 'supertest';
import { movableClock, type MovableClock } from '../helpers/clock';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';

const MINUTE = 60_000;

describeEachDatabase('after_close by closes_at', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  let clock: MovableClock;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'after-close')).apiKey);
  });
  beforeEach(() => {
    clock = movableClock();
  });
  afterEach(() => clock.restore());
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  async function publish(settings: Record<string, unknown>) {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: `After close ${Math.random()}`,
        settings: { show_correct_answers: 'after_close', ...settings },
        questions: [
          {
            type: 'yes_no',
            text: 'Is Milan the capital?',
            correct_answer: 'no',
            explanation: 'EXPLAIN-ROME',
          },
        ],
      }),
    );
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
  }

  async function submit(quiz: { slug: string; questions: Array<{ question_id: string }> }, token?: string) {
    const sent = await request(app.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .send({
        respondent: { name: 'Ann' },
        ...(token ? { attempt_token: token } : {}),
        answers: [{ question_id: quiz.questions[0]!.question_id, answer: 'yes' }],
      });
    expect(sent.status).toBe(201);
    return sent.body as { review: unknown; result_url: string };
  }
  const start = async (slug: string) => {
    const res = await request(app.app).post(`/api/quizzes/${slug}/attempts`).send({});
    expect(res.status).toBe(201);
    return res.body.attempt_token as string;
  };
  const keyShown = async (resultUrl: string) =>
    (await request(app.app).get(new URL(resultUrl).pathname)).text.includes('EXPLAIN-ROME');

  test('timed: hidden while a late-started attempt may still be sent, shown once the last one is in', async () => {
    const closesAt = Date.now() + 60 * MINUTE;
    const quiz = await publish({ time_limit_minutes: 10, closes_at: new Date(closesAt).toISOString() });
    const early = await submit(quiz, await start(quiz.slug));
    expect(early.review).toBeNull();
    expect(await keyShown(early.result_url)).toBe(false);

    // A student starts a minute before the close and may answer for ten minutes after it.
    clock.advance(closesAt - Date.now() - MINUTE);
    const late = await start(quiz.slug);
    clock.advance(2 * MINUTE);
    expect(await keyShown(early.result_url)).toBe(false);
    clock.advance(7 * MINUTE);
    const lateResult = await submit(quiz, late);
    expect(lateResult.review).toBeNull();
    expect(await keyShown(early.result_url)).toBe(false);

    // closes_at + the time limit + the 30-second grace: nothing more can arrive, the key shows.
    clock.advance(closesAt + 10 * MINUTE + 29_000 - Date.now());
    expect(await keyShown(early.result_url)).toBe(false);
    clock.advance(2_000);
    expect(await keyShown(early.result_url)).toBe(true);
    expect(await keyShown(lateResult.result_url)).toBe(true);
  });

  test('untimed: shown 30 seconds after closes_at; moving closes_at later hides it again', async () => {
    const closesAt = Date.now() + 60 * MINUTE;
    const quiz = await publish({ closes_at: new Date(closesAt).toISOString() });
    const result = await submit(quiz);
    expect(result.review).toBeNull();
    clock.advance(closesAt - Date.now() + 10_000);
    expect(await keyShown(result.result_url)).toBe(false);
    clock.advance(21_000);
    expect(await keyShown(result.result_url)).toBe(true);

    await callTool(client, 'update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      settings: { closes_at: new Date(Date.now() + 60 * MINUTE).toISOString(), accepting_responses: true },
    });
    expect(await keyShown(result.result_url)).toBe(false);
  });

  test('close_quiz: shown once the attempts under way may no longer be sent', async () => {
    const quiz = await publish({ time_limit_minutes: 5 });
    const result = await submit(quiz, await start(quiz.slug));
    // Without closes_at, time alone never shows it.
    clock.advance(365 * 24 * 60 * MINUTE);
    expect(await keyShown(result.result_url)).toBe(false);
    const under = await start(quiz.slug);
    await callTool(client, 'close_quiz', { quiz_id: quiz.quiz_id });
    expect(await keyShown(result.result_url)).toBe(false);
    clock.advance(4 * MINUTE);
    expect((await submit(quiz, under)).review).toBeNull();
    clock.advance(MINUTE + 31_000);
    expect(await keyShown(result.result_url)).toBe(true);
  });

  test('accepting_responses off: shown at once, since nothing more is taken', async () => {
    const quiz = await publish({ time_limit_minutes: 5 });
    const result = await submit(quiz, await start(quiz.slug));
    await callTool(client, 'update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      settings: { accepting_responses: false },
    });
    expect(await keyShown(result.result_url)).toBe(true);
  });
});
