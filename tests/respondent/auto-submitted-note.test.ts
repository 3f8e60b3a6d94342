// A response the server submitted at time-up from the answers saved as the student went says so,
// with the moment they were saved: on the student's result page and on the owner's response page;
// a response the page sent does not. The attempt's address, once submitted (by the page or by the
// sweep) or expired, shows neither the name nor any saved value. Both databases, the clock moved.
import request from 'supertest';
import { sweepTimeUps } from '../../src/domain/taking/saved-answers';
import { logIn, newAgent, type Agent } from '../dashboard/dashboard-helpers';
import { movableClock, type MovableClock } from '../helpers/clock';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';

const MINUTE = 60_000;
const NOTE = 'submitted automatically when the time ran out';
// Words that appear nowhere on a quiz page but in what the student typed.
const NAME = 'Zelda Quartermaine';
const TYPED = 'marmalade-7731';

describeEachDatabase('the note on a response submitted from saved answers', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  let owner: Agent;
  let clock: MovableClock;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    const user = await createTestUser(app, 'autonote');
    client = await connectClient(app, user.apiKey);
    owner = newAgent(app);
    expect((await logIn(owner, user.email, user.password)).status).toBe(303);
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
        questions: [
          { type: 'short_text', text: 'Name a spread.', accepted_answers: ['jam'] },
          { type: 'yes_no', text: 'Is ice cold?', correct_answer: 'yes' },
          { type: 'yes_no', text: 'Is fire wet?', correct_answer: 'no' },
        ],
        settings: { collect_name: true, require_all_answers: false, ...settings },
      }),
    ) as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz;
  }
  async function start(slug: string) {
    const res = await request(app.app).post(`/q/${slug}/start`).type('form').send({});
    expect(res.status).toBe(303);
    return new URL(res.headers.location!, 'http://x').searchParams.get('attempt')!;
  }
  const form = (quiz: Awaited<ReturnType<typeof publish>>, token: string) => ({
    attempt_token: token,
    name: NAME,
    [`q_${quiz.questions[0]!.question_id}`]: TYPED,
    [`q_${quiz.questions[1]!.question_id}`]: 'yes',
  });
  async function saveAll(quiz: Awaited<ReturnType<typeof publish>>, token: string): Promise<string> {
    const saved = await request(app.app).post(`/q/${quiz.slug}/save`).type('form').send(form(quiz, token));
    expect(saved.status).toBe(200);
    return saved.body.saved_at as string;
  }
  /** The attempt's address: whatever it shows, nothing the student typed or saved. */
  async function addressKeepsNothing(slug: string, token: string) {
    const page = await request(app.app).get(`/q/${slug}`).query({ attempt: token });
    expect(page.status).toBeLessThan(500);
    expect(page.text).not.toContain(NAME);
    expect(page.text).not.toContain(TYPED);
    expect(page.text).not.toMatch(/value="yes"[^>]*checked/);
  }
  const responsesOf = async (quizId: string) =>
    payload(await callTool(client, 'get_results', { quiz_id: quizId })).responses as Array<{
      response_id: string;
      time_up: boolean;
      respondent?: { name?: string };
    }>;
  const ownerPage = (quizId: string, responseId: string) =>
    owner.get(`/dashboard/quizzes/${quizId}/responses/${responseId}`);
  const resultPage = (slug: string, responseId: string) => request(app.app).get(`/q/${slug}/r/${responseId}`);

  test('the sweep’s response says it was submitted from the answers saved at their time; the page’s does not', async () => {
    const quiz = await publish('Saved and sent', {
      time_limit_minutes: 1,
      show_correct_answers: 'after_submit',
    });

    // Sent by the page in time: no note anywhere, and the address keeps nothing.
    const byPage = await start(quiz.slug);
    await saveAll(quiz, byPage);
    const posted = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(form(quiz, byPage));
    expect(posted.status).toBe(303);
    await addressKeepsNothing(quiz.slug, byPage);

    // Saved, then no page left open: the sweep sends it once the deadline and its grace are past.
    const bySweep = await start(quiz.slug);
    const savedAt = await saveAll(quiz, bySweep);
    clock.advance(MINUTE + 31_000);
    // Past the deadline, before the sweep: expired, and the address still shows nothing saved.
    await addressKeepsNothing(quiz.slug, bySweep);
    expect((await sweepTimeUps(app.deps)).submitted).toBe(1);
    await addressKeepsNothing(quiz.slug, bySweep);

    const responses = await responsesOf(quiz.quiz_id);
    expect(responses).toHaveLength(2);
    const swept = responses.find((r) => r.time_up)!;
    const sent = responses.find((r) => !r.time_up)!;
    expect(swept).toBeDefined();
    expect(sent).toBeDefined();
    expect(await app.deps.repos.attempts.byResponseId(swept.response_id)).toMatchObject({
      autoSubmitted: true,
    });

    // The student's result page: the note, with the moment of the save.
    const result = await resultPage(quiz.slug, swept.response_id);
    expect(result.status).toBe(200);
    expect(result.text).toContain('Your answers were submitted automatically when the time ran out');
    expect(result.text).toMatch(new RegExp(`class="auto-submitted">[^]*datetime="${savedAt}"`));
    // The owner's response page: the same, in the owner's words.
    const ownerView = await ownerPage(quiz.quiz_id, swept.response_id);
    expect(ownerView.status).toBe(200);
    expect(ownerView.text).toContain(
      `Submitted automatically when the time ran out, from the answers saved at`,
    );
    expect(ownerView.text).toContain(`datetime="${savedAt}"`);

    // The response the page sent: neither says it.
    const plain = await resultPage(quiz.slug, sent.response_id);
    expect(plain.status).toBe(200);
    expect(plain.text.toLowerCase()).not.toContain(NOTE);
    const plainOwner = await ownerPage(quiz.quiz_id, sent.response_id);
    expect(plainOwner.status).toBe(200);
    expect(plainOwner.text.toLowerCase()).not.toContain(NOTE);
  });

  test('a page posting at zero is a time-up but not an automatic submission: no note', async () => {
    const quiz = await publish('Sent at zero', { time_limit_minutes: 1 });
    const token = await start(quiz.slug);
    await saveAll(quiz, token);
    clock.advance(MINUTE + 2_000);
    const posted = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(form(quiz, token));
    expect(posted.status).toBe(303);
    await addressKeepsNothing(quiz.slug, token);
    const [response] = await responsesOf(quiz.quiz_id);
    expect(response!.time_up).toBe(true);
    const result = await resultPage(quiz.slug, response!.response_id);
    expect(result.status).toBe(200);
    expect(result.text.toLowerCase()).not.toContain(NOTE);
    const ownerView = await ownerPage(quiz.quiz_id, response!.response_id);
    expect(ownerView.text).toContain('When the time ran out');
    expect(ownerView.text.toLowerCase()).not.toContain(NOTE);
  });

  test('an untimed attempt’s address shows nothing saved once it has expired, before and after the sweep', async () => {
    const quiz = await publish('No clock', {});
    const token = await start(quiz.slug);
    await saveAll(quiz, token);
    clock.advance(25 * 3_600_000);
    await addressKeepsNothing(quiz.slug, token);
    expect((await sweepTimeUps(app.deps)).forgotten).toBeGreaterThanOrEqual(1);
    await addressKeepsNothing(quiz.slug, token);
    expect(await responsesOf(quiz.quiz_id)).toHaveLength(0);
  });
});
