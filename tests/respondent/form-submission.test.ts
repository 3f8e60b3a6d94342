// POST /q/:slug and the result page: POST/redirect/GET, the 422 re-render with errors next to
// the fields and the answers kept, each setting's effect, and the pages' dead ends.
import request from 'supertest';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createPublishedQuiz, sampleForm, type PublishedQuiz, flatHtml } from './respondent-fixtures';

describe('POST /q/:slug and the result page', () => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ config: { maxBodyBytes: 4096 } });
    client = await connectClient(app, (await createTestUser(app, 'form')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const post = (slug: string, form: Record<string, string>) =>
    request(app.app).post(`/q/${slug}`).type('form').send(form);
  const responseCount = async (quiz: PublishedQuiz) =>
    payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id })).summary
      .response_count as number;

  test('a valid form: 303 to the result page, which shows score, max, percent and pass/fail', async () => {
    const quiz = await createPublishedQuiz(client, 'Form happy path', {
      settings: { pass_mark_percent: 60 },
    });
    const res = await post(quiz.slug, sampleForm(quiz, { name: 'Grace', yes: 'yes', option: '1' }));
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(new RegExp(`^/q/${quiz.slug}/r/[a-z0-9]+$`));
    expect(res.headers['cache-control']).toBe('no-store');

    const result = await request(app.app).get(res.headers.location!);
    expect(result.status).toBe(200);
    expect(result.headers['cache-control']).toBe('no-store');
    expect(flatHtml(result.text)).toContain('<h1>Your result</h1>');
    expect(flatHtml(result.text)).toContain(
      '<p class="score"><span class="score-value">2</span><span class="score-max">out of 5</span></p>',
    );
    expect(flatHtml(result.text)).toContain('<p class="percent">40%</p>');
    expect(flatHtml(result.text)).toContain('<p class="verdict fail">Not passed</p>');
    expect(flatHtml(result.text)).not.toContain('Grace'); // the link is shareable: no respondent details on it

    const stored = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id })).responses[0];
    expect(stored).toMatchObject({
      response_id: res.headers.location!.split('/').pop(),
      respondent: { name: 'Grace' },
      score: 2,
      passed: false,
    });
  });

  test('show_score_to_respondent off: a thank-you without any figure', async () => {
    const quiz = await createPublishedQuiz(client, 'Silent marks', {
      settings: { show_score_to_respondent: false, pass_mark_percent: 10 },
    });
    const res = await post(quiz.slug, sampleForm(quiz, { name: 'Hopper', yes: 'yes', option: '0' }));
    const page = flatHtml((await request(app.app).get(res.headers.location!)).text);
    expect(page).toContain('<h1>Thank you</h1>');
    for (const hidden of ['score', 'out of', '100%', 'Passed', '>5<']) expect(page).not.toContain(hidden);
  });

  test('the result page follows the settings as they are now, and only under its own quiz', async () => {
    const quiz = await createPublishedQuiz(client, 'Result checks');
    const other = await createPublishedQuiz(client, 'Other quiz');
    const location = (await post(quiz.slug, sampleForm(quiz, { name: 'A', yes: 'yes', option: '0' }))).headers
      .location!;
    const responseId = location.split('/').pop()!;
    expect(flatHtml((await request(app.app).get(location)).text)).toContain('out of 5');

    for (const path of [
      `/q/${other.slug}/r/${responseId}`,
      `/q/${quiz.slug}/r/cnotarealresponse0000000`,
      `/q/${quiz.slug}/r/..%2F..`,
    ]) {
      const res = await request(app.app).get(path);
      expect(res.status).toBe(404);
      expect(flatHtml(res.text)).toContain('<h1>Quiz not found</h1>');
    }
    payload(
      await callTool(client, 'update_quiz', {
        quiz_id: quiz.quiz_id,
        settings: { show_score_to_respondent: false },
        confirm_edit_published: true,
      }),
    );
    const hidden = await request(app.app).get(location);
    expect(flatHtml(hidden.text)).toContain('<h1>Thank you</h1>');
    expect(flatHtml(hidden.text)).not.toContain('out of');
  });

  test('invalid input: 422, an error summary on top, errors beside the fields, answers kept', async () => {
    const quiz = await createPublishedQuiz(client, 'Form errors', { settings: { collect_email: true } });
    const [yesNo, choice] = quiz.questions;
    const res = await post(quiz.slug, sampleForm(quiz, { name: '', email: 'not an email', yes: 'no' }));
    expect(res.status).toBe(422);
    const page = flatHtml(res.text);
    expect(page).toContain('<title>Error: Form errors</title>');
    expect(page).toMatch(
      /<div class="error-summary" role="alert" aria-labelledby="error-summary-title" tabindex="-1" autofocus>/,
    );
    expect(page).toContain('<li><a href="#respondent-name">Enter your name.</a></li>');
    expect(page).toContain(
      '<li><a href="#respondent-email">Enter an email address such as name@example.com.</a></li>',
    );
    expect(page).toContain(
      `<li><a href="#q_${choice!.question_id}_0">Question 2: Answer this question.</a></li>`,
    );
    // Beside each field: the message, tied to the control by aria-describedby, with aria-invalid.
    expect(page).toMatch(
      /<p class="field-error" id="error-name">.*Enter your name\.<\/p>\s*<input id="respondent-name" name="name" type="text" value=""[^>]* aria-describedby="error-name" aria-invalid="true">/,
    );
    expect(page).toMatch(
      /id="respondent-email" name="email" type="email" value="not an email"[^>]* aria-describedby="error-email" aria-invalid="true"/,
    );
    expect(page).toContain(`aria-invalid="true" aria-describedby="error-${choice!.question_id}"`);
    expect(page).toContain(
      `<p class="field-error" id="error-${choice!.question_id}"><span class="sr-only">Error:</span>Answer this question.</p>`,
    );
    // The answer that was given stays chosen; the question without an error is not marked.
    expect(page).toContain(
      `id="q_${yesNo!.question_id}_1" name="q_${yesNo!.question_id}" value="no" checked>`,
    );
    expect(page).not.toContain(`aria-describedby="error-${yesNo!.question_id}"`);
    expect(await responseCount(quiz)).toBe(0);
  });

  test('the respondent name is escaped when the form comes back with errors', async () => {
    const quiz = await createPublishedQuiz(client, 'Escape name');
    const name = '"><script>alert(1)</script>';
    const page = flatHtml((await post(quiz.slug, sampleForm(quiz, { name, yes: 'yes' }))).text);
    expect(page).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"');
    expect(page).not.toContain('<script>');
  });

  test('tampered values (an option the page never offered) are refused beside their question', async () => {
    const quiz = await createPublishedQuiz(client, 'Tampered');
    const res = await post(quiz.slug, sampleForm(quiz, { name: 'T', yes: 'maybe', option: '9' }));
    expect(res.status).toBe(422);
    expect(flatHtml(res.text).match(/Choose one of the answers listed\./g)).toHaveLength(4); // 2 in the summary, 2 beside the questions
  });

  test('require_all_answers off: a partial form is accepted, an empty one is not', async () => {
    const quiz = await createPublishedQuiz(client, 'Partial ok', {
      settings: { require_all_answers: false, collect_name: false },
    });
    const partial = await post(quiz.slug, sampleForm(quiz, { option: '0' }));
    expect(partial.status).toBe(303);
    const empty = await post(quiz.slug, {});
    expect(empty.status).toBe(422);
    expect(flatHtml(empty.text)).toContain('Answer at least one question.');
    const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
    expect(results.responses).toEqual([expect.objectContaining({ score: 3, max_score: 5 })]);
  });

  test('collect_name off: a name sent anyway is not stored', async () => {
    const quiz = await createPublishedQuiz(client, 'No names', { settings: { collect_name: false } });
    expect(
      (await post(quiz.slug, sampleForm(quiz, { name: 'Sneaky', email: 'x@y.z', yes: 'no', option: '2' })))
        .status,
    ).toBe(303);
    const stored = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id })).responses[0];
    expect(stored).toMatchObject({ respondent: { name: null, email: null }, score: -1 });
  });

  test('collect_email on: the address is required, checked and stored lower-cased', async () => {
    const quiz = await createPublishedQuiz(client, 'Emails', {
      settings: { collect_email: true, collect_name: false },
    });
    expect(flatHtml((await post(quiz.slug, sampleForm(quiz, { yes: 'yes', option: '0' }))).text)).toContain(
      'Enter your email address.',
    );
    expect(
      (await post(quiz.slug, sampleForm(quiz, { email: ' Ada@Example.COM ', yes: 'yes', option: '0' })))
        .status,
    ).toBe(303);
    const stored = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id })).responses[0];
    expect(stored.respondent).toEqual({ name: null, email: 'ada@example.com' });
  });

  test('accepting_responses off: 409 with the closed page; nothing stored', async () => {
    const quiz = await createPublishedQuiz(client, 'Closed form', {
      settings: { accepting_responses: false },
    });
    const res = await post(quiz.slug, sampleForm(quiz, { name: 'Late', yes: 'yes', option: '0' }));
    expect(res.status).toBe(409);
    expect(flatHtml(res.text)).toContain('This quiz is closed');
    expect(await responseCount(quiz)).toBe(0);
  });

  test('a quiz edited while someone answered it: 422 asking to check again, nothing stored', async () => {
    const quiz = await createPublishedQuiz(client, 'Edited meanwhile');
    const form = { ...sampleForm(quiz, { name: 'Slow', yes: 'yes', option: '0' }), version: '1' };
    payload(
      await callTool(client, 'update_quiz', {
        quiz_id: quiz.quiz_id,
        confirm_edit_published: true,
        questions: [{ type: 'yes_no', text: 'Replacement question', points: 1 }],
      }),
    );
    const res = await post(quiz.slug, form);
    expect(res.status).toBe(422);
    expect(flatHtml(res.text)).toContain('This quiz has changed');
    expect(flatHtml(res.text)).toContain('Replacement question');
    expect(flatHtml(res.text)).toContain('<input type="hidden" name="version" value="2">');
    expect(await responseCount(quiz)).toBe(0);
  });

  test('draft, deleted and unknown quizzes: 404 page, nothing stored', async () => {
    const draft = await createPublishedQuiz(client, 'Draft form', { publish: false });
    const deleted = await createPublishedQuiz(client, 'Deleted form');
    payload(await callTool(client, 'delete_quiz', { quiz_id: deleted.quiz_id, confirm: true }));
    for (const [slug, form] of [
      [draft.slug, sampleForm(draft, { name: 'D', yes: 'yes', option: '0' })],
      [deleted.slug, sampleForm(deleted, { name: 'D', yes: 'yes', option: '0' })],
      ['never-existed', { name: 'D' }],
    ] as const) {
      const res = await post(slug, form);
      expect(res.status).toBe(404);
      expect(flatHtml(res.text)).toContain('<h1>Quiz not found</h1>');
    }
    expect(await responseCount(draft)).toBe(0);
  });

  test('bodies: too large -> 413 page; not a form -> 415 page', async () => {
    const quiz = await createPublishedQuiz(client, 'Body limits');
    const big = await post(quiz.slug, { name: 'x'.repeat(5000) });
    expect(big.status).toBe(413);
    expect(big.headers['content-type']).toMatch(/^text\/html/);
    expect(flatHtml(big.text)).toContain('<h1>Answers too large</h1>');
    const json = await request(app.app).post(`/q/${quiz.slug}`).send({ name: 'x' });
    expect(json.status).toBe(415);
    expect(flatHtml(json.text)).toContain('<h1>Answers not readable</h1>');
    expect(await responseCount(quiz)).toBe(0);
  });
});
