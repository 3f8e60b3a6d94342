// POST /api/quizzes/:slug/responses: the JSON submission API for integrations. Strict body,
// problem+json errors naming the offending field, settings enforced, limits on the body.
import { attemptTokens } from '../../src/respondent/attempt-token';
import express from 'express';
import request from 'supertest';
import { createLogger } from '../../src/logger';
import { respondentRouter } from '../../src/respondent/respondent-router';
import { expectProblem } from '../helpers/http';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createPublishedQuiz, sampleAnswers, type PublishedQuiz } from './respondent-fixtures';

describe('POST /api/quizzes/:slug/responses', () => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ config: { maxBodyBytes: 4096 } });
    client = await connectClient(app, (await createTestUser(app, 'api')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const submit = (slug: string, body: unknown) =>
    request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .set('Content-Type', 'application/json')
      .send(typeof body === 'string' ? body : JSON.stringify(body));
  const results = async (quiz: PublishedQuiz) =>
    payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));

  test('201 with response_id, score, max_score, percent, passed; get_results shows the same response', async () => {
    const quiz = await createPublishedQuiz(client, 'Api happy', {
      settings: { pass_mark_percent: 50, collect_email: true },
    });
    const res = await submit(quiz.slug, {
      respondent: { name: 'Integr8', email: 'i@example.com' },
      answers: sampleAnswers(quiz, 'yes', 0),
    });
    expect(res.status).toBe(201);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['cache-control']).toBe('no-store');
    const resultUrl = `${app.baseUrl}/q/${quiz.slug}/r/${res.body.response_id}`;
    expect(res.body).toEqual({
      response_id: expect.stringMatching(/^[a-z0-9]+$/),
      score: 5,
      max_score: 5,
      percent: 100,
      passed: true,
      // Nothing waits for a person's grade.
      grading_status: 'final',
      result_url: resultUrl,
      // The student's own way back (tests/respondent/kept-result.test.ts).
      kept_result_url: expect.stringMatching(
        new RegExp(`^${app.baseUrl}/q/${quiz.slug}/result\\?key=[A-Za-z0-9_-]{32}$`),
      ),
      // The quiz shows no answer key (the default), so no review.
      review: null,
      // Sent in time: nothing ran out of time.
      time_up: false,
      out_of_time: [],
    });
    expect(res.headers.location).toBe(resultUrl);
    expect((await results(quiz)).responses[0]).toMatchObject({
      response_id: res.body.response_id,
      respondent: { name: 'Integr8', email: 'i@example.com' },
      score: 5,
    });
  });

  test('show_score_to_respondent off: stored with its score, but the anonymous caller gets nulls', async () => {
    const quiz = await createPublishedQuiz(client, 'Api hidden', {
      settings: { show_score_to_respondent: false, pass_mark_percent: 50 },
    });
    const res = await submit(quiz.slug, { respondent: { name: 'N' }, answers: sampleAnswers(quiz, 'no', 2) });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ score: null, max_score: null, percent: null, passed: null });
    expect((await results(quiz)).responses[0]).toMatchObject({
      score: -1,
      max_score: 5,
      percent: -20,
      passed: false,
    });
  });

  test('strict schema: unknown fields and wrong types are named field by field', async () => {
    const quiz = await createPublishedQuiz(client, 'Api strict');
    const [yesNo, choice] = quiz.questions;
    const res = await submit(quiz.slug, {
      respondent: { name: 'S', phone: '123' },
      answers: [
        { question_id: yesNo!.question_id, answer: 'maybe' },
        { question_id: choice!.question_id, option_index: 1.5 },
        { question_id: choice!.question_id, answer: 'yes', option_index: 0 },
        { question_id: 7 },
      ],
      extra: true,
    });
    expectProblem(res, app.baseUrl, 'validation_failed');
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual(
      expect.arrayContaining([
        { field: 'respondent.phone', message: 'is not a known field: remove it' },
        { field: 'extra', message: 'is not a known field: remove it' },
        { field: 'answers[0].answer', message: 'answer must be "yes" or "no"' },
        { field: 'answers[1].option_index', message: expect.stringMatching(/whole number/) },
        { field: 'answers[2]', message: expect.stringMatching(/exactly one of answer/) },
        { field: 'answers[3].question_id', message: expect.stringMatching(/must be a string/) },
      ]),
    );
    expect((await submit(quiz.slug, {})).body.errors).toEqual([{ field: 'answers', message: 'is required' }]);
    expect((await submit(quiz.slug, '')).body.errors).toEqual([{ field: 'answers', message: 'is required' }]);
    expect((await submit(quiz.slug, [])).body.errors).toEqual([
      { field: 'body', message: expect.any(String) },
    ]);
  });

  test('answers that do not fit the quiz are named by index: answers[1].option_index', async () => {
    const quiz = await createPublishedQuiz(client, 'Api fit');
    const [yesNo, choice] = quiz.questions;
    const res = await submit(quiz.slug, {
      respondent: { name: 'F' },
      answers: [
        { question_id: yesNo!.question_id, option_index: 0 },
        { question_id: choice!.question_id, option_index: 3 },
        { question_id: 'not-a-question', answer: 'yes' },
      ],
    });
    expectProblem(res, app.baseUrl, 'validation_failed');
    expect(res.body.errors).toEqual([
      { field: 'answers[0].answer', message: 'a yes_no question takes answer "yes" or "no".' },
      {
        field: 'answers[1].option_index',
        message: 'a multiple_choice question takes option_index from 0 to 2.',
      },
      {
        field: 'answers[2].question_id',
        message: expect.stringContaining('"not-a-question" is not a question of this quiz'),
      },
    ]);
    expect((await results(quiz)).summary.response_count).toBe(0);
  });

  test('settings: require_all_answers, collect_name and collect_email are enforced', async () => {
    const strict = await createPublishedQuiz(client, 'Api settings', { settings: { collect_email: true } });
    const res = await submit(strict.slug, { answers: sampleAnswers(strict).slice(0, 1) });
    expect(res.body.errors).toEqual([
      { field: 'respondent.name', message: 'Enter your name.' },
      { field: 'respondent.email', message: 'Enter your email address.' },
      {
        field: 'answers',
        message: expect.stringContaining(
          `question 2 ("Capital of Italy?", question_id ${strict.questions[1]!.question_id}) needs an answer`,
        ),
      },
    ]);
    const loose = await createPublishedQuiz(client, 'Api loose', {
      settings: { require_all_answers: false, collect_name: false },
    });
    const partial = await submit(loose.slug, {
      respondent: { name: 'ignored', email: null },
      answers: sampleAnswers(loose).slice(1),
    });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({ score: 3, max_score: 5, percent: 60, passed: null });
    expect((await results(loose)).responses[0].respondent).toEqual({ name: null, email: null });
  });

  test('draft, deleted and unknown quizzes: 404 not_found; a closed quiz: 409 not_accepting_responses', async () => {
    const draft = await createPublishedQuiz(client, 'Api draft', { publish: false });
    const deleted = await createPublishedQuiz(client, 'Api deleted');
    payload(await callTool(client, 'delete_quiz', { quiz_id: deleted.quiz_id, confirm: true }));
    for (const [slug, quiz] of [
      [draft.slug, draft],
      [deleted.slug, deleted],
      ['no-such-quiz', draft],
      ['Bad_Slug!', draft],
    ] as const) {
      const res = await submit(slug, { respondent: { name: 'x' }, answers: sampleAnswers(quiz) });
      expect(res.status).toBe(404);
      expectProblem(res, app.baseUrl, 'not_found');
    }
    expect((await results(draft)).summary.response_count).toBe(0);

    const closed = await createPublishedQuiz(client, 'Api closed', {
      settings: { accepting_responses: false },
    });
    const res = await submit(closed.slug, { respondent: { name: 'x' }, answers: sampleAnswers(closed) });
    expect(res.status).toBe(409);
    expectProblem(res, app.baseUrl, 'not_accepting_responses');
    expect(res.body.detail).toBe('"Api closed" is not accepting responses at the moment.');
  });

  test('malformed JSON -> 400, too large -> 413, not JSON -> 415, GET -> 405: all problem+json', async () => {
    const quiz = await createPublishedQuiz(client, 'Api bodies');
    const malformed = await submit(quiz.slug, '{"answers": [');
    expect(malformed.status).toBe(400);
    expectProblem(malformed, app.baseUrl, 'bad_request');
    const large = await submit(quiz.slug, { respondent: { name: 'x'.repeat(5000) }, answers: [] });
    expect(large.status).toBe(413);
    expectProblem(large, app.baseUrl, 'payload_too_large');
    const text = await request(app.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .set('Content-Type', 'text/plain')
      .send('hello');
    expect(text.status).toBe(415);
    expectProblem(text, app.baseUrl, 'unsupported_media_type');
    const get = await request(app.app).get(`/api/quizzes/${quiz.slug}/responses`);
    expect(get.status).toBe(405);
    expect(get.headers.allow).toBe('POST');
    expectProblem(get, app.baseUrl, 'method_not_allowed');
    expect((await results(quiz)).summary.response_count).toBe(0);
  });

  test('guards (the submission rate limiter) run before either body is read, on the form and the JSON route only', async () => {
    const seen: string[] = [];
    const bare = express();
    bare.use(
      respondentRouter({
        deps: app.deps,
        logger: createLogger('silent'),
        maxBodyBytes: 4096,
        tokens: attemptTokens('a test secret of at least thirty-two chars'),
        guards: [
          (req, res) => {
            seen.push(`${req.method} ${req.path} body=${typeof req.body}`);
            res.status(429).json({ code: 'rate_limited' });
          },
        ],
      }),
    );
    const quiz = await createPublishedQuiz(client, 'Guarded');
    const res = await request(bare).post(`/api/quizzes/${quiz.slug}/responses`).send({ answers: [] });
    expect(res.status).toBe(429);
    const form = await request(bare).post(`/q/${quiz.slug}`).type('form').send('name=Ann');
    expect(form.status).toBe(429);
    expect((await request(bare).get(`/q/${quiz.slug}`)).status).toBe(200);
    expect(seen).toEqual([
      `POST /api/quizzes/${quiz.slug}/responses body=undefined`,
      `POST /q/${quiz.slug} body=undefined`,
    ]);
  });
});
