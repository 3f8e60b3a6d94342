// Answers saved as the student goes, through the attempt: a save restores on another GET of the
// attempt's address (reload, tab, device) with the name; saves have their own budget and never
// spend the submissions'; at time-up the sweep stores the saved answers once, even with a page
// posting at the same moment; an untimed attempt's saved answers go at its expiry; after
// submission the address shows no answers. Both databases, the clock moved.
import request from 'supertest';
import { sweepTimeUps } from '../../src/domain/taking/saved-answers';
import { movableClock, type MovableClock } from '../helpers/clock';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const MINUTE = 60_000;
const FIVE = ['Is the Sun a star?', 'Is ice cold?', 'Is fire wet?', 'Is the Moon cheese?', 'Is 2 prime?'].map(
  (text) => ({ type: 'yes_no', text }),
);

describeEachDatabase('answers saved as the student goes', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  let clock: MovableClock;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'autosave')).apiKey);
  });
  beforeEach(() => {
    clock = movableClock();
  });
  afterEach(() => clock.restore());
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  async function publish(title: string, settings: Record<string, unknown>) {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title,
        questions: FIVE,
        settings: { collect_name: true, ...settings },
      }),
    ) as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz;
  }
  async function startFromPage(slug: string) {
    const res = await request(app.app).post(`/q/${slug}/start`).type('form').send({});
    expect(res.status).toBe(303);
    return new URL(res.headers.location!, 'http://x').searchParams.get('attempt')!;
  }
  const save = (slug: string, body: Record<string, string>) =>
    request(app.app).post(`/q/${slug}/save`).type('form').send(body);
  const results = async (quizId: string) =>
    payload(await callTool(client, 'get_results', { quiz_id: quizId }));

  test('a save by script and by the Save button restores answers and name on the attempt address', async () => {
    const quiz = await publish('Kept answers', { time_limit_minutes: 5 });
    const token = await startFromPage(quiz.slug);
    const [q1, q2] = quiz.questions;
    const saved = await save(quiz.slug, {
      attempt_token: token,
      name: 'Ada Lovelace',
      [`q_${q1!.question_id}`]: 'yes',
    });
    expect(saved.status).toBe(200);
    expect(saved.body.saved_at).toEqual(expect.any(String));
    // Without script: the whole form, back to the same place.
    const button = await save(quiz.slug, {
      attempt_token: token,
      name: 'Ada Lovelace',
      [`q_${q1!.question_id}`]: 'yes',
      [`q_${q2!.question_id}`]: 'no',
      save_place: 'save-answers',
    });
    expect(button.status).toBe(303);
    expect(button.headers.location).toMatch(/\?attempt=.+&saved=1#save-answers$/);
    // A reload, another tab or another device: the same address.
    const page = await request(app.app).get(`/q/${quiz.slug}`).query({ attempt: token });
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="Ada Lovelace"');
    expect(page.text).toMatch(new RegExp(`name="q_${q1!.question_id}"[^>]*value="yes"[^>]*checked`));
    expect(page.text).toMatch(new RegExp(`name="q_${q2!.question_id}"[^>]*value="no"[^>]*checked`));
    expect(page.text).toContain('id="quiz-timer"');
  });

  test('saves have their own budget: 200 students saving every 5 s behind one address never spend a submission', async () => {
    const quiz = await publish('Busy class', { time_limit_minutes: 5 });
    const token = await startFromPage(quiz.slug);
    // More saves from one address than the whole submission ceiling allows in a minute.
    const ceiling = 130;
    for (let i = 0; i < ceiling; i += 1) {
      const res = await save(quiz.slug, { attempt_token: i < 50 ? token : 'x', name: 'Ada' });
      if (i < 50) expect(res.status).toBe(200);
    }
    const sent = await request(app.app)
      .post(`/q/${quiz.slug}`)
      .type('form')
      .send({
        attempt_token: token,
        name: 'Ada',
        ...Object.fromEntries(quiz.questions.map((q) => [`q_${q.question_id}`, 'yes'])),
      });
    expect(sent.status).toBe(303);
    // One attempt past its own budget: 429 with Retry-After, the page keeps its answers and retries.
    const other = await startFromPage(quiz.slug);
    let refused: request.Response | undefined;
    for (let i = 0; i < 61 && !refused; i += 1) {
      const res = await save(quiz.slug, { attempt_token: other, name: 'Bo' });
      if (res.status === 429) refused = res;
    }
    expect(refused?.headers['retry-after']).toBeDefined();
  });

  test('at time-up the sweep stores the saved answers once, blanks out of time, even against a page posting at zero', async () => {
    const quiz = await publish('Time runs out', { time_limit_minutes: 1, require_all_answers: true });
    const [q1, q2] = quiz.questions;
    const token = await startFromPage(quiz.slug);
    await save(quiz.slug, {
      attempt_token: token,
      name: 'Ada',
      [`q_${q1!.question_id}`]: 'yes',
      [`q_${q2!.question_id}`]: 'no',
    }).expect(200);
    // Not before the deadline and its grace.
    clock.advance(MINUTE + 5_000);
    expect((await sweepTimeUps(app.deps)).submitted).toBe(0);
    // The page posts at zero while a sweep, run as if the grace were over, races it.
    const later = new Date(Date.now() + 40_000);
    const [posted, swept] = await Promise.all([
      request(app.app)
        .post(`/q/${quiz.slug}`)
        .type('form')
        .send({ attempt_token: token, name: 'Ada', [`q_${q1!.question_id}`]: 'yes' }),
      sweepTimeUps(app.deps, later),
    ]);
    expect([303, 409]).toContain(posted.status);
    expect(swept.submitted + (posted.status === 303 ? 1 : 0)).toBe(1);
    const stored = await results(quiz.quiz_id);
    expect(stored.responses).toHaveLength(1);
    expect(stored.responses[0].time_up).toBe(true);

    // No page left open at all: the sweep alone stores both answers and three blanks.
    const alone = await startFromPage(quiz.slug);
    await save(quiz.slug, {
      attempt_token: alone,
      name: 'Bo',
      [`q_${q1!.question_id}`]: 'yes',
      [`q_${q2!.question_id}`]: 'no',
    }).expect(200);
    clock.advance(MINUTE + 31_000);
    expect((await sweepTimeUps(app.deps)).submitted).toBe(1);
    expect((await sweepTimeUps(app.deps)).submitted).toBe(0);
    const after = await results(quiz.quiz_id);
    expect(after.responses).toHaveLength(2);
    const bo = after.responses.find((r: any) => r.respondent?.name === 'Bo');
    expect(bo.time_up).toBe(true);
    // The address shows no answers once submitted.
    const page = await request(app.app).get(`/q/${quiz.slug}`).query({ attempt: alone });
    expect(page.status).toBe(409);
    expect(page.text).not.toContain('value="Bo"');
    const attempt = await app.deps.repos.attempts.byResponseId(bo.response_id);
    expect(attempt).toMatchObject({ autoSubmitted: true, savedAnswers: null });
  });

  test('an untimed attempt is never submitted by the server; its saved answers go at its expiry', async () => {
    const quiz = await publish('No clock', { shuffle_questions: true });
    const token = await startFromPage(quiz.slug);
    const [q1] = quiz.questions;
    await save(quiz.slug, { attempt_token: token, name: 'Cy', [`q_${q1!.question_id}`]: 'yes' }).expect(200);
    clock.advance(25 * 3_600_000);
    const swept = await sweepTimeUps(app.deps);
    expect(swept.forgotten).toBeGreaterThanOrEqual(1);
    expect((await results(quiz.quiz_id)).responses).toHaveLength(0);
    const page = await request(app.app).get(`/q/${quiz.slug}`).query({ attempt: token });
    expect(page.text).not.toContain('value="Cy"');
  });
});
