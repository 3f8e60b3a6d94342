// The operations a teacher asks for by name, through the SDK clients of both eras: close now or
// at a time (attempts under way finish), reopen until a time read in the account's zone,
// duplicate for another class, and the signed links of get_quiz_links (preview, CSV, QR), each
// refused once expired, revoked, for another quiz, or after the quiz's link secret is rotated.
import request from 'supertest';
import { rotateLinkSecret } from '../../src/domain/links/quiz-links';
import { parseTime } from '../../src/domain/time-zone';
import { movableClock, type MovableClock } from '../helpers/clock';
import { callTool, ERAS, errorText, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  sampleQuestions,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { logIn } from '../dashboard/dashboard-helpers';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

function naiveIn(zone: string, at: number): string {
  // The wall-clock reading of `at` in `zone`, without an offset, as a teacher would type it.
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
  }).formatToParts(new Date(at));
  const get = (type: string) => parts.find((part) => part.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}T${get('hour')}:${get('minute')}`;
}

describeEachDatabase('close, reopen, duplicate and links over MCP', (provider) => {
  forEachEra((era) => {
    let app: TestApp;
    let user: TestUser;
    let client: AnyClient;
    let clock: MovableClock;

    beforeAll(async () => {
      app = await startTestApp({ provider });
      user = await createTestUser(app);
      client = await era.connect(app, user.apiKey);
    });
    afterAll(async () => {
      await client.close();
      await app.close();
    });
    beforeEach(() => {
      clock = movableClock();
    });
    afterEach(() => clock.restore());

    const call = async (tool: string, args: Record<string, unknown>) =>
      payload(await callTool(client, tool, args));
    async function published(title: string, settings: Record<string, unknown> = {}) {
      const quiz = await call('create_quiz', { title, questions: sampleQuestions(), settings });
      await call('publish_quiz', { quiz_id: quiz.quiz_id });
      return quiz as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
    }

    test('close now: a started timed attempt still submits, a new start is refused, a second close changes nothing', async () => {
      const quiz = await published('Closing now', { time_limit_minutes: 10, collect_name: false });
      const started = await request(app.app).post(`/api/quizzes/${quiz.slug}/attempts`).send({});
      expect(started.status).toBe(201);

      const closed = await call('close_quiz', { quiz_id: quiz.quiz_id });
      expect(closed).toMatchObject({ is_open: false, already_closed: false, in_progress_attempts: 1 });
      expect(closed.message).toMatch(/1 attempt is still under way/);
      // No published-edit confirmation was asked for, and the same call again changes nothing.
      expect(await call('close_quiz', { quiz_id: quiz.quiz_id })).toMatchObject({ already_closed: true });

      const refused = await request(app.app).post(`/api/quizzes/${quiz.slug}/attempts`).send({});
      expect(refused.status).toBeGreaterThanOrEqual(400);
      clock.advance(5 * MINUTE);
      const [first, second] = quiz.questions;
      const stored = await request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({
          attempt_token: started.body.attempt_token,
          answers: [
            { question_id: first!.question_id, answer: 'yes' },
            { question_id: second!.question_id, option_index: 0 },
          ],
        });
      expect(stored.status).toBe(201);
    });

    test('close at a time in the account zone; reopen until a time without an offset; drafts and the past refused', async () => {
      await app.database.repos.users.setTimeZone(user.id, 'Europe/Paris');
      const quiz = await published('Closing later');
      const later = naiveIn('Europe/Paris', Date.now() + 2 * DAY);
      const expected = parseTime(later, 'Europe/Paris');
      if (!expected.ok) throw new Error(expected.message);

      const scheduled = await call('close_quiz', { quiz_id: quiz.quiz_id, at: later });
      expect(scheduled).toMatchObject({ is_open: true, in_progress_attempts: 0 });
      expect(scheduled.closes_at).toEqual({
        utc: expected.at.toISOString(),
        local: expect.stringMatching(new RegExp(`^${later}:00\\+0[12]:00$`)),
        time_zone: 'Europe/Paris',
      });
      clock.advance(3 * DAY);
      expect(await call('get_quiz_settings', { quiz_id: quiz.quiz_id })).toMatchObject({ is_open: false });

      const until = naiveIn('America/New_York', Date.now() + DAY);
      const reopened = await call('reopen_quiz', {
        quiz_id: quiz.quiz_id,
        until,
        timezone: 'America/New_York',
      });
      expect(reopened).toMatchObject({ is_open: true, closes_at: { time_zone: 'America/New_York' } });
      expect(reopened.closes_at.local.startsWith(until)).toBe(true);
      expect(await call('get_quiz_settings', { quiz_id: quiz.quiz_id })).toMatchObject({
        is_open: true,
        closes_at: reopened.closes_at.utc,
      });

      expect(
        errorText(await callTool(client, 'reopen_quiz', { quiz_id: quiz.quiz_id, until: 'Friday' })),
      ).toMatch(/until: needs a date and a time, such as 2026-11-27T18:00 \(read in Europe\/Paris\)/);
      expect(
        errorText(await callTool(client, 'close_quiz', { quiz_id: quiz.quiz_id, timezone: 'Mars/Base' })),
      ).toMatch(/timezone: "Mars\/Base" is not an IANA time zone/);
      expect(
        errorText(await callTool(client, 'close_quiz', { quiz_id: quiz.quiz_id, at: '2001-01-01T10:00Z' })),
      ).toMatch(/at: 2001-01-01T10:00:00.000Z has already passed/);
      const draft = await call('create_quiz', { title: 'Draft', questions: sampleQuestions() });
      expect(errorText(await callTool(client, 'close_quiz', { quiz_id: draft.quiz_id }))).toMatch(/draft/);
      await app.database.repos.users.setTimeZone(user.id, 'UTC');
    });

    test('duplicate: questions and settings copied into a draft, past times cleared with a warning, no responses', async () => {
      const closesAt = new Date(Date.now() + DAY).toISOString();
      const original = await published('Week 1', {
        closes_at: closesAt,
        time_limit_minutes: 15,
        pass_mark_percent: 60,
      });
      await request(app.app).post(`/api/quizzes/${original.slug}/attempts`).send({}).expect(201);
      clock.advance(2 * DAY);
      const copy = await call('duplicate_quiz', {
        quiz_id: original.quiz_id,
        title: 'Week 1, class B',
        language: 'es',
      });
      expect(copy).toMatchObject({
        title: 'Week 1, class B',
        status: 'draft',
        language: 'es',
        question_count: 2,
        duplicated_from: { quiz_id: original.quiz_id, title: 'Week 1' },
        warnings: [
          {
            code: 'past_time_cleared',
            question_id: null,
            field: 'settings.closes_at',
            message: expect.stringContaining('already past'),
          },
        ],
      });
      const strip = (quiz: any) => quiz.questions.map(({ question_id: _id, ...rest }: any) => rest);
      const before = await call('get_quiz_questions', { quiz_id: original.quiz_id });
      const after = await call('get_quiz_questions', { quiz_id: copy.quiz_id });
      expect(strip(after)).toEqual(strip(before));
      expect(after.questions.map((q: any) => q.question_id)).not.toContain(before.questions[0].question_id);
      expect(await call('get_quiz_settings', { quiz_id: copy.quiz_id })).toMatchObject({
        closes_at: null,
        time_limit_minutes: 15,
        pass_mark_percent: 60,
        language: 'es',
        accepting_responses: true,
      });
      expect((await call('get_results', { quiz_id: copy.quiz_id })).summary).toMatchObject({
        response_count: 0,
      });
      // The default title.
      expect(await call('duplicate_quiz', { quiz_id: original.quiz_id })).toMatchObject({
        title: 'Week 1 (copy)',
      });
    });

    test("next term's copy and the original closed in one call; a draft is refused before anything is copied", async () => {
      const original = await published('Term 1', { collect_name: false });
      const copy = await call('duplicate_quiz', {
        quiz_id: original.quiz_id,
        title: 'Term 2',
        close_original: true,
      });
      expect(copy).toMatchObject({
        title: 'Term 2',
        status: 'draft',
        original_closed: { is_open: false, in_progress_attempts: 0 },
      });
      expect(await call('get_quiz_settings', { quiz_id: original.quiz_id })).toMatchObject({
        is_open: false,
      });
      expect(await call('get_quiz_settings', { quiz_id: copy.quiz_id })).toMatchObject({
        accepting_responses: true,
      });
      // Without close_original the answer is as it was.
      expect(await call('duplicate_quiz', { quiz_id: original.quiz_id })).not.toHaveProperty(
        'original_closed',
      );

      const draft = await call('create_quiz', { title: 'Still a draft', questions: sampleQuestions() });
      const before = (await call('list_quizzes', {})).quizzes.length;
      const refused = await callTool(client, 'duplicate_quiz', {
        quiz_id: draft.quiz_id,
        close_original: true,
      });
      expect(errorText(refused)).toMatch(/draft.*Leave close_original out/s);
      expect((await call('list_quizzes', {})).quizzes.length).toBe(before);
    });

    test('get_results answers the CSV link with csv_link, and only then', async () => {
      const quiz = await published('With its CSV', { collect_name: true });
      await request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({
          respondent: { name: 'Ann' },
          answers: [
            { question_id: quiz.questions[0]!.question_id, answer: 'yes' },
            { question_id: quiz.questions[1]!.question_id, option_index: 0 },
          ],
        })
        .expect(201);
      const plain = await call('get_results', { quiz_id: quiz.quiz_id, limit: 0 });
      expect(plain).not.toHaveProperty('csv');
      const results = await call('get_results', { quiz_id: quiz.quiz_id, limit: 0, csv_link: true });
      expect(results.csv.url).toContain(`/dashboard/quizzes/${quiz.quiz_id}/responses.csv?`);
      expect(Date.parse(results.csv.expires_at)).toBeGreaterThan(Date.now());
      const csv = await request(app.app).get(
        new URL(results.csv.url).pathname + new URL(results.csv.url).search,
      );
      expect(csv.status).toBe(200);
      expect(csv.text).toContain('Ann');
    });
  });
});

describeEachDatabase('signed links of get_quiz_links', (provider) => {
  let app: TestApp;
  let user: TestUser;
  let client: AnyClient;
  let clock: MovableClock;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    user = await createTestUser(app);
  });
  afterAll(async () => {
    await app.close();
  });
  beforeEach(async () => {
    clock = movableClock();
    client = await ERAS[0]!.connect(app, user.apiKey);
  });
  afterEach(async () => {
    clock.restore();
    await client.close();
  });

  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));
  const path = (url: string) => url.slice(app.baseUrl.length);

  test('a draft has a preview that stores nothing; its page is marked, and its answers are not sent', async () => {
    const draft = await call('create_quiz', { title: 'Draft to preview', questions: sampleQuestions() });
    const links = await call('get_quiz_links', { quiz_id: draft.quiz_id });
    expect(links).toMatchObject({ status: 'draft', public_url: null, qr_code: null, embed_html: null });
    const page = await request(app.app).get(path(links.preview.url));
    expect(page.status).toBe(200);
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.text).toContain('Preview: this is the page as respondents will see it');
    expect(page.text).toContain('Is the sky blue?');
    expect(page.text).toMatch(/<button type="submit" disabled/);
    expect(page.text).not.toContain('action="/q/');
    expect(Date.parse(links.preview.expires_at) - Date.now()).toBeLessThanOrEqual(DAY);
    // The public page of a draft stays a 404: only the signed link shows it.
    expect((await request(app.app).get(`/q/${draft.slug}`)).status).toBe(404);
    expect((await request(app.app).get(`/q/${draft.slug}/preview`)).status).toBe(403);
    expect(await app.database.prisma.attempt.count({ where: { quizId: draft.quiz_id } })).toBe(0);
  });

  test('the CSV link downloads the dashboard’s CSV; refused after expiry, revocation, for another quiz, after rotation', async () => {
    const quiz = await call('create_quiz', { title: 'CSV quiz', questions: sampleQuestions() });
    const other = await call('create_quiz', { title: 'Other quiz', questions: sampleQuestions() });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    for (const name of ['Ann', 'Bob']) {
      await request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({
          respondent: { name },
          answers: [
            { question_id: quiz.questions[0].question_id, answer: 'yes' },
            { question_id: quiz.questions[1].question_id, option_index: 0 },
          ],
        })
        .expect(201);
    }
    const result = await callTool(client, 'get_quiz_links', { quiz_id: quiz.quiz_id });
    const links = payload(result);
    expect(links.public_url).toBe(`${app.baseUrl}/q/${quiz.slug}`);
    expect(links.embed_html).toContain(`src="${links.public_url}"`);
    expect(result.content.slice(1)).toEqual([
      expect.objectContaining({ type: 'resource_link', uri: links.csv.url, mimeType: 'text/csv' }),
      expect.objectContaining({ type: 'resource_link', uri: links.qr_code.url, mimeType: 'image/png' }),
    ]);
    expect(Date.parse(links.csv.expires_at) - Date.now()).toBeLessThanOrEqual(10 * MINUTE);

    const viaLink = await request(app.app).get(path(links.csv.url));
    expect(viaLink.status).toBe(200);
    expect(viaLink.headers['referrer-policy']).toBe('no-referrer');
    expect(viaLink.headers['cache-control']).toBe('no-store');
    const agent = request.agent(app.app);
    await logIn(agent, user.email, user.password);
    const dashboard = await agent.get(`/dashboard/quizzes/${quiz.quiz_id}/responses.csv`);
    expect(dashboard.status).toBe(200);
    expect(viaLink.text).toBe(dashboard.text);
    expect(viaLink.text).toContain('Ann');
    const qr = await request(app.app).get(path(links.qr_code.url));
    expect(qr.status).toBe(200);
    expect(qr.headers['content-type']).toBe('image/png');

    // For another quiz: the same signature on another quiz's address.
    const sig = new URL(links.csv.url).searchParams.get('sig');
    expect(
      (await request(app.app).get(`/dashboard/quizzes/${other.quiz_id}/responses.csv?sig=${sig}`)).status,
    ).toBe(403);
    // For another purpose: the CSV signature on the QR address.
    expect((await request(app.app).get(`/dashboard/quizzes/${quiz.quiz_id}/qr.png?sig=${sig}`)).status).toBe(
      403,
    );

    // Expired: 10 minutes later.
    clock.advance(10 * MINUTE + 1000);
    const expired = await request(app.app).get(path(links.csv.url));
    expect(expired.status).toBe(410);
    expect(expired.text).toContain('expired');

    // Rotation: a fresh link works, then stops when the owner rotates the quiz's link secret.
    const fresh = await call('get_quiz_links', { quiz_id: quiz.quiz_id });
    expect((await request(app.app).get(path(fresh.csv.url))).status).toBe(200);
    await rotateLinkSecret(app.deps, user.id, quiz.quiz_id);
    expect((await request(app.app).get(path(fresh.csv.url))).status).toBe(403);
    expect((await request(app.app).get(path(fresh.preview.url))).status).toBe(403);

    // The dashboard's "Renew shared links" button does the same.
    const beforeRenew = await call('get_quiz_links', { quiz_id: quiz.quiz_id });
    const quizPage = await agent.get(`/dashboard/quizzes/${quiz.quiz_id}`);
    expect(quizPage.text).toContain('Renew shared links');
    const csrf = /name="_csrf" value="([^"]+)"/.exec(quizPage.text)![1]!;
    const renewed = await agent
      .post(`/dashboard/quizzes/${quiz.quiz_id}/links/renew`)
      .type('form')
      .send({ _csrf: csrf });
    expect(renewed.status).toBe(303);
    expect((await request(app.app).get(path(beforeRenew.csv.url))).status).toBe(403);

    // Revoked: the key that made the link is revoked.
    const again = await call('get_quiz_links', { quiz_id: quiz.quiz_id });
    expect((await request(app.app).get(path(again.preview.url))).status).toBe(200);
    const keyId = (await app.database.prisma.apiKey.findFirstOrThrow({ where: { userId: user.id } })).id;
    await app.database.repos.users.revokeApiKey(user.id, keyId, new Date());
    const revoked = await request(app.app).get(path(again.csv.url));
    expect(revoked.status).toBe(403);
    expect(revoked.text).toContain('revoked');
    expect((await request(app.app).get(path(again.preview.url))).status).toBe(403);
  });
});
