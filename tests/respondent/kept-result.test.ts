// The kept link: a student's way back to their result, the final grade too once the teacher has
// graded an essay. A random secret in the address (never the response id), stored only hashed;
// the page is never cached nor sent on as a Referer, shows what the quiz's settings allow and never
// the email, and an unknown key is the 404 page in the reader's language. On SQLite and PostgreSQL.
import { createHash } from 'node:crypto';
import request from 'supertest';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { csrfFrom, logIn, newAgent, type Agent } from '../dashboard/dashboard-helpers';

/** A page's text: tags dropped, spaces collapsed. */
const squash = (page: string) =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

const ESSAY = {
  type: 'essay',
  text: 'Should homework be banned? Argue your case.',
  rubric: [
    {
      criterion: 'Thesis',
      levels: [
        { label: 'none', points: 0 },
        { label: 'vague', points: 1 },
        { label: 'clear', points: 2 },
      ],
    },
  ],
};
const CAPITAL = {
  type: 'yes_no',
  text: 'Is Lima the capital of Peru?',
  points: 2,
  correct_answer: 'yes',
  explanation: 'EXPLAIN-LIMA',
};
const EMAIL = 'kept.student@example.com';

describeEachDatabase('the kept link', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  let owner: Agent;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    const user = await createTestUser(app, 'kept');
    client = await connectClient(app, user.apiKey);
    owner = newAgent(app);
    expect((await logIn(owner, user.email, user.password)).status).toBe(303);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  async function essayQuiz(settings: Record<string, unknown> = {}) {
    const created = payload(
      await callTool(client, 'create_quiz', {
        title: `Kept ${Math.random()}`,
        questions: [ESSAY, CAPITAL],
        settings: { collect_email: true, ...settings },
      }),
    );
    await callTool(client, 'publish_quiz', { quiz_id: created.quiz_id });
    const [essay, capital] = created.questions.map((q: { question_id: string }) => q.question_id);
    return { quizId: created.quiz_id as string, slug: created.slug as string, essay, capital };
  }

  const submit = (quiz: { slug: string; essay: string; capital: string }) =>
    request(app.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .send({
        respondent: { name: 'Kim', email: EMAIL },
        answers: [
          { question_id: quiz.essay, text: 'Homework should stay, because practice helps.' },
          { question_id: quiz.capital, answer: 'yes' },
        ],
      });

  /** The teacher's final grade through the dashboard's grading walk. */
  async function gradeOnDashboard(quiz: { quizId: string; essay: string }, responseId: string) {
    const answer = await app.database.prisma.answer.findFirstOrThrow({
      where: { responseId, questionId: quiz.essay },
    });
    const walk = `/dashboard/quizzes/${quiz.quizId}/grading/questions/${quiz.essay}`;
    const token = csrfFrom((await owner.get(walk)).text);
    const saved = await owner
      .post(`/dashboard/quizzes/${quiz.quizId}/grading/answers/${answer.id}`)
      .type('form')
      .send({
        _csrf: token,
        walk: `question:${quiz.essay}`,
        level_0: '2',
        feedback: 'KEPT-COMMENT: well argued.',
      });
    expect(saved.status).toBe(303);
  }

  test('the 201 gives an absolute kept link whose secret is random, not the id, and stored only hashed', async () => {
    const quiz = await essayQuiz();
    const submitted = await submit(quiz);
    expect(submitted.status).toBe(201);
    const kept = new URL(submitted.body.kept_result_url);
    expect(`${kept.origin}`).toBe(new URL(submitted.body.result_url).origin);
    expect(kept.pathname).toBe(`/q/${quiz.slug}/result`);
    const secret = kept.searchParams.get('key')!;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{32}$/); // 24 bytes, base64url
    expect(secret).not.toContain(submitted.body.response_id);
    const row = await app.database.prisma.response.findUniqueOrThrow({
      where: { id: submitted.body.response_id },
    });
    expect(row.resultKeyHash).toBe(createHash('sha256').update(secret).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(secret);
    // Another submission gets another secret.
    const other = new URL((await submit(quiz)).body.kept_result_url).searchParams.get('key');
    expect(other).not.toBe(secret);
  });

  test('the kept link: no-store, no-referrer, no email; "so far" while pending, then the final grade with levels and comment', async () => {
    const quiz = await essayQuiz();
    const submitted = await submit(quiz);
    const path = new URL(submitted.body.kept_result_url);
    const pending = await request(app.app).get(`${path.pathname}${path.search}`);
    expect(pending.status).toBe(200);
    expect(pending.headers['cache-control']).toBe('no-store');
    expect(pending.headers['referrer-policy']).toBe('no-referrer');
    expect(pending.type).toBe('text/html');
    const before = squash(pending.text);
    expect(before).toContain('so far');
    expect(before).toContain('Come back to your result');
    expect(pending.text).toContain(`value="${submitted.body.kept_result_url}"`);
    expect(pending.text).toContain('data:image/svg+xml;base64,');
    expect(pending.text).not.toContain(EMAIL);
    expect(before).not.toContain('KEPT-COMMENT');

    await gradeOnDashboard(quiz, submitted.body.response_id);
    const final = await request(app.app).get(`${path.pathname}${path.search}`);
    expect(final.status).toBe(200);
    const after = squash(final.text);
    expect(after).not.toContain('so far');
    expect(after).toContain('4 out of 4');
    expect(after).toContain('Thesis');
    expect(after).toContain('clear');
    expect(after).toContain('KEPT-COMMENT: well argued.');
    expect(final.text).not.toContain(EMAIL);
    // show_correct_answers is "never": nothing of the key.
    expect(final.text).not.toContain('EXPLAIN-LIMA');
  });

  test('while pending, the review the settings allow: after_submit shows the marked answers with their key, the essay waits; after_close shows none while open', async () => {
    const shown = await essayQuiz({ show_correct_answers: 'after_submit' });
    const submitted = await submit(shown);
    const kept = new URL(submitted.body.kept_result_url);
    const page = await request(app.app).get(`${kept.pathname}${kept.search}`);
    const text = squash(page.text);
    expect(text).toContain('so far');
    expect(text).toContain('Your answers');
    expect(text).toContain('Is Lima the capital of Peru?');
    expect(text).toContain('EXPLAIN-LIMA');
    expect(text).toContain('Right answer');
    expect(text).toContain('Waiting to be graded.');
    // Nothing of the essay's rubric or points until the teacher's final grade.
    expect(text).not.toContain('Rubric:');
    expect(text).not.toContain('0 of 2 points');

    const closed = await essayQuiz({ show_correct_answers: 'after_close' });
    const other = new URL((await submit(closed)).body.kept_result_url);
    const held = squash((await request(app.app).get(`${other.pathname}${other.search}`)).text);
    expect(held).toContain('so far');
    expect(held).not.toContain('EXPLAIN-LIMA');
    expect(held).not.toContain('Right answer');
  });

  test('an unknown, wrong, missing or other-quiz key is the 404 page, in HTML and the reader’s language', async () => {
    const quiz = await essayQuiz();
    const other = await essayQuiz();
    const submitted = await submit(quiz);
    const secret = new URL(submitted.body.kept_result_url).searchParams.get('key')!;
    const wrong = `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
    for (const path of [
      `/q/${quiz.slug}/result?key=${wrong}`,
      `/q/${quiz.slug}/result?key=${submitted.body.response_id}`,
      `/q/${quiz.slug}/result`,
      `/q/${quiz.slug}/result?key=${secret}&key=${secret}`,
      `/q/${other.slug}/result?key=${secret}`,
    ]) {
      const res = await request(app.app).get(path).set('Accept-Language', 'fr');
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.type).toBe('text/html');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(squash(res.text)).toContain('Quiz introuvable');
    }
  });

  /** The form of the quiz, posted as a browser would (the agent keeps the cookies). */
  async function submitForm(browser: Agent, quiz: { slug: string; essay: string; capital: string }) {
    const page = await browser.get(`/q/${quiz.slug}`);
    const token = /name="submission_token" value="([^"]+)"/.exec(page.text)![1]!;
    const version = /name="version" value="([^"]+)"/.exec(page.text)![1]!;
    return browser
      .post(`/q/${quiz.slug}`)
      .type('form')
      .send({
        submission_token: token,
        version,
        name: 'Kim',
        email: EMAIL,
        [`q_${quiz.essay}`]: 'Homework should stay, because practice helps.',
        [`q_${quiz.capital}`]: 'yes',
      });
  }
  const keptCookie = (res: { headers: Record<string, unknown> }) =>
    ([] as string[])
      .concat((res.headers['set-cookie'] as string[] | undefined) ?? [])
      .find((c) => c.startsWith('quiz_result='));

  test('the browser keeps the link alone: an HttpOnly, Lax cookie of the quiz; the result page and the quiz page lead back', async () => {
    const quiz = await essayQuiz();
    const browser = newAgent(app);
    const sent = await submitForm(browser, quiz);
    expect(sent.status).toBe(303);
    const cookie = keptCookie(sent)!;
    expect(cookie).toMatch(new RegExp(`^quiz_result=[A-Za-z0-9_-]{32};`));
    expect(cookie).toContain(`Path=/q/${quiz.slug};`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).not.toContain('Secure'); // the test service runs over http
    expect(cookie).not.toContain('Kim');
    expect(cookie).not.toContain(encodeURIComponent(EMAIL));
    const secret = /^quiz_result=([^;]+)/.exec(cookie)![1]!;
    const keptPath = `/q/${quiz.slug}/result?key=${secret}`;

    // The result page after submitting shows the kept link; the same page in another browser does not.
    const result = await browser.get(sent.headers.location!);
    expect(result.status).toBe(200);
    expect(result.text).toContain(`value="${app.baseUrl}${keptPath}"`);
    expect(result.text).toContain('data-copy-target="kept-url"');
    expect((await request(app.app).get(sent.headers.location!)).text).not.toContain(secret);

    // Reopening the quiz: "See your result" beside "Take it again", and the forget button.
    const again = await browser.get(`/q/${quiz.slug}`);
    const text = squash(again.text);
    expect(text).toContain('See your result');
    expect(text).toContain('Take it again');
    expect(text).toContain('Not you? Start fresh');
    expect(again.text).toContain(`href="${keptPath}"`);
    expect(again.text).toContain('class="quiz-form"');
    expect((await request(app.app).get(`/q/${quiz.slug}`)).text).not.toContain('See your result');

    // Start fresh: refused without the form's token or from another site, then forgets and goes back.
    const token = /name="forget_token" value="([^"]+)"/.exec(again.text)![1]!;
    expect((await browser.post(`/q/${quiz.slug}/forget`).type('form').send({})).status).toBe(403);
    expect(
      (
        await browser
          .post(`/q/${quiz.slug}/forget`)
          .set('Origin', 'https://evil.example')
          .type('form')
          .send({ forget_token: token })
      ).status,
    ).toBe(403);
    expect(squash((await browser.get(`/q/${quiz.slug}`)).text)).toContain('See your result');
    const forgot = await browser.post(`/q/${quiz.slug}/forget`).type('form').send({ forget_token: token });
    expect(forgot.status).toBe(303);
    expect(forgot.headers.location).toBe(`/q/${quiz.slug}`);
    expect(keptCookie(forgot)).toMatch(/^quiz_result=;.*Expires=Thu, 01 Jan 1970/);
    expect(squash((await browser.get(`/q/${quiz.slug}`)).text)).not.toContain('See your result');
    // The link itself still opens the result.
    expect((await request(app.app).get(keptPath)).status).toBe(200);
  });

  test('an attempt’s address, once submitted, shows only the way to the kept link', async () => {
    const quiz = await essayQuiz({ time_limit_minutes: 10 });
    const browser = newAgent(app);
    const started = await browser.post(`/q/${quiz.slug}/start`).type('form').send({ email: EMAIL });
    expect(started.status).toBe(303);
    const attempt = new URL(started.headers.location!, 'http://x').searchParams.get('attempt')!;
    const saved = await browser
      .post(`/q/${quiz.slug}/save`)
      .type('form')
      .send({ attempt_token: attempt, name: 'Kim', [`q_${quiz.essay}`]: 'SAVED-DRAFT of my essay.' });
    expect(saved.status).toBe(200);
    const sent = await browser
      .post(`/q/${quiz.slug}`)
      .type('form')
      .send({
        attempt_token: attempt,
        name: 'Kim',
        email: EMAIL,
        [`q_${quiz.essay}`]: 'SAVED-DRAFT of my essay, finished.',
        [`q_${quiz.capital}`]: 'yes',
      });
    expect(sent.status).toBe(303);
    const secret = /^quiz_result=([^;]+)/.exec(keptCookie(sent)!)![1]!;
    const page = await browser.get(`/q/${quiz.slug}`).query({ attempt });
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/q/${quiz.slug}/result?key=${secret}"`);
    expect(squash(page.text)).toContain('This attempt has been submitted.');
    expect(page.text).not.toContain('SAVED-DRAFT');
    expect(page.text).not.toContain('<form method="post" action="/q/');
  });
});

test('over https the kept link cookie is Secure, under the __Secure- prefix', async () => {
  const app = await startTestApp({ config: { baseUrl: 'https://quiz.example.com', enforceHost: false } });
  try {
    const client = await connectClient(app, (await createTestUser(app, 'kept-https')).apiKey);
    const created = payload(
      await callTool(client, 'create_quiz', {
        title: 'Kept over https',
        questions: [CAPITAL],
        settings: { collect_name: false },
      }),
    );
    await callTool(client, 'publish_quiz', { quiz_id: created.quiz_id });
    await client.close();
    const page = await request(app.app).get(`/q/${created.slug}`);
    const sent = await request(app.app)
      .post(`/q/${created.slug}`)
      .type('form')
      .send({
        submission_token: /name="submission_token" value="([^"]+)"/.exec(page.text)![1]!,
        version: /name="version" value="([^"]+)"/.exec(page.text)![1]!,
        [`q_${created.questions[0].question_id}`]: 'yes',
      });
    expect(sent.status).toBe(303);
    const cookie = ([] as string[])
      .concat((sent.headers['set-cookie'] as unknown as string[] | undefined) ?? [])
      .find((c) => c.startsWith('__Secure-quiz_result='));
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toContain(`Path=/q/${created.slug};`);
    expect(cookie).toContain('HttpOnly');
  } finally {
    await app.close();
  }
});
