// GET /q/:slug: the public page of a published quiz, as raw HTML. Structure and accessibility
// hooks, what each setting shows, escaping of every user-supplied string, and the 404 page.
import { attemptTokens } from '../../src/respondent/attempt-token';
import express from 'express';
import request from 'supertest';
import type { Repositories } from '../../src/db/repositories';
import { createLogger } from '../../src/logger';
import { respondentRouter } from '../../src/respondent/respondent-router';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createPublishedQuiz, flatHtml } from './respondent-fixtures';

// Distinctive scores, so that "never in the page" can be checked by searching for them.
const SCORED_QUESTIONS = [
  { type: 'yes_no', text: 'Is water wet?', points: 737 },
  {
    type: 'multiple_choice',
    text: 'Pick a colour',
    options: [
      { label: 'Red', score: 919 },
      { label: 'Green', score: -419 },
    ],
  },
];

describe('GET /q/:slug', () => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'page')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const get = (path: string) => request(app.app).get(path);

  test('a published quiz: one fieldset and legend per question, labelled radios named q_<question_id>', async () => {
    const quiz = await createPublishedQuiz(client, 'Page structure', { questions: SCORED_QUESTIONS });
    const res = await get(`/q/${quiz.slug}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html; charset=utf-8/);
    const page = flatHtml(res.text);
    expect(page).toContain('<h1 dir="auto">Page structure</h1>');
    // Kept in the browser by the page's script under the quiz's own key (quiz-taking.js).
    expect(page).toContain(
      `<form method="post" action="/q/${quiz.slug}" class="quiz-form" novalidate data-keep-answers="quiz-answers:${quiz.slug}">`,
    );
    expect(page.match(/<fieldset class="question"/g)).toHaveLength(2);
    expect(page.match(/<legend /g)?.length).toBeGreaterThanOrEqual(2);
    const [yesNo, choice] = quiz.questions;
    for (const [id, value] of [
      [`q_${yesNo!.question_id}_0`, 'yes'],
      [`q_${yesNo!.question_id}_1`, 'no'],
      [`q_${choice!.question_id}_0`, '0'],
      [`q_${choice!.question_id}_1`, '1'],
    ]) {
      const name = id!.replace(/_\d$/, '');
      expect(page).toContain(
        `<label class="choice" for="${id}"><input type="radio" id="${id}" name="${name}" value="${value}">`,
      );
    }
    expect(page).toContain('Question 1 of 2');
    expect(page).toContain('<span class="question-text" dir="auto">Pick a colour</span>');
    expect(page).toContain('<button type="submit">Submit answers</button>');
    // One script, the page's own file (it keeps the answers in the browser); nothing inline.
    expect(page.match(/<script[^>]*>/gi)).toEqual(['<script src="/assets/quiz-taking.js" defer>']);
  });

  test('option scores and yes_no points never reach the page', async () => {
    const quiz = await createPublishedQuiz(client, 'Hidden marks', {
      questions: SCORED_QUESTIONS,
      settings: { pass_mark_percent: 50 },
    });
    // Ids (cuids) are random letters and digits: take them out before looking for the numbers.
    const page = flatHtml((await get(`/q/${quiz.slug}`)).text).replace(/c[a-z0-9]{20,}/g, 'ID');
    for (const secret of ['737', '919', '419', 'score', 'points']) expect(page).not.toContain(secret);
  });

  test('headers: not cacheable, not indexed, not framable, no inline scripts allowed', async () => {
    const quiz = await createPublishedQuiz(client, 'Headers');
    const res = await get(`/q/${quiz.slug}`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(flatHtml(res.text)).toMatch(/<meta name="robots" content="noindex, nofollow" ?\/?>/);
    expect(flatHtml(res.text)).toContain(
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
    );
  });

  test.each([
    [{ collect_name: true, collect_email: false }, ['name'], ['email']],
    [{ collect_name: false, collect_email: true }, ['email'], ['name']],
    [{ collect_name: true, collect_email: true }, ['name', 'email'], []],
    [{ collect_name: false, collect_email: false }, [], ['name', 'email']],
  ])('collect settings %j: asks only for what they say', async (settings, shown, hidden) => {
    const quiz = await createPublishedQuiz(client, `Collect ${JSON.stringify(settings)}`, { settings });
    const page = flatHtml((await get(`/q/${quiz.slug}`)).text);
    if (shown.includes('name')) expect(page).toContain('<label for="respondent-name">Your name</label>');
    if (shown.includes('email'))
      expect(page).toMatch(
        /<input id="respondent-email" name="email" type="email" value="" autocomplete="email"/,
      );
    for (const field of hidden) expect(page).not.toContain(`name="${field}"`);
    expect(page.includes('<legend>About you</legend>')).toBe(shown.length > 0);
  });

  test('require_all_answers: marks every question required, or says answers are optional', async () => {
    const required = await createPublishedQuiz(client, 'All required');
    const optional = await createPublishedQuiz(client, 'Some optional', {
      settings: { require_all_answers: false },
    });
    const requiredPage = flatHtml((await get(`/q/${required.slug}`)).text);
    const optionalPage = flatHtml((await get(`/q/${optional.slug}`)).text);
    expect(requiredPage.match(/aria-required="true"/g)).toHaveLength(2);
    expect(requiredPage).toContain('Please answer every question.');
    expect(optionalPage).not.toContain('aria-required');
    expect(optionalPage).toContain('Answer as many questions as you can.');
  });

  test('accepting_responses off: a clear closed message and no form', async () => {
    const quiz = await createPublishedQuiz(client, 'Closed quiz', {
      settings: { accepting_responses: false },
    });
    const res = await get(`/q/${quiz.slug}`);
    expect(res.status).toBe(200);
    expect(flatHtml(res.text)).toContain('This quiz is closed');
    expect(flatHtml(res.text)).not.toContain('<form');
    expect(flatHtml(res.text)).not.toContain('type="radio"');
  });

  test('every user-supplied string renders as text', async () => {
    const quiz = await createPublishedQuiz(client, '<script>alert(1)</script>', {
      questions: [
        { type: 'yes_no', text: '<img src=x onerror=alert(2)> & "quotes"', points: 1 },
        {
          type: 'multiple_choice',
          text: 'Options',
          options: [
            { label: '"><b onclick=alert(3)>bold</b>', score: 1 },
            { label: "it's <i>", score: 0 },
          ],
        },
      ],
    });
    const page = flatHtml((await get(`/q/${quiz.slug}`)).text);
    expect(page).toContain('<title>&lt;script&gt;alert(1)&lt;/script&gt;</title>');
    expect(page).toContain('<h1 dir="auto">&lt;script&gt;alert(1)&lt;/script&gt;</h1>');
    expect(page).toContain('&lt;img src=x onerror=alert(2)&gt; &amp; &quot;quotes&quot;');
    expect(page).toContain('<span dir="auto">&quot;&gt;&lt;b onclick=alert(3)&gt;bold&lt;/b&gt;</span>');
    expect(page).toContain('<span dir="auto">it&#39;s &lt;i&gt;</span>');
    // The page's own script file is the one script tag; nothing the owner wrote becomes one.
    expect(page.replace('<script src="/assets/quiz-taking.js" defer></script>', '')).not.toMatch(
      /<script|<img|<b |<i>/,
    );
  });

  test('draft, deleted and unknown quizzes: the same HTML 404 page', async () => {
    const draft = await createPublishedQuiz(client, 'Still a draft', { publish: false });
    const deleted = await createPublishedQuiz(client, 'Soon deleted');
    payload(await callTool(client, 'delete_quiz', { quiz_id: deleted.quiz_id, confirm: true }));
    const pages = [];
    for (const path of [
      `/q/${draft.slug}`,
      `/q/${deleted.slug}`,
      '/q/no-such-quiz',
      '/q/%3Cscript%3E',
      `/q/${'a'.repeat(81)}`,
    ]) {
      const res = await get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(flatHtml(res.text)).toContain('<h1>Quiz not found</h1>');
      expect(flatHtml(res.text)).not.toContain('<script');
      pages.push(flatHtml(res.text));
    }
    expect(new Set(pages).size).toBe(1);
  });
});

describe('respondent pages when something breaks', () => {
  test('an unexpected failure: an HTML 500 page with a reference, internals only in the log', async () => {
    const lines: string[] = [];
    const logger = createLogger('error', { write: (line: string) => void lines.push(line) });
    const failingRepos = new Proxy({} as Repositories, {
      get: () => {
        throw new Error('database exploded: secret detail');
      },
    });
    const bare = express();
    bare.use((_req, res, next) => {
      res.locals.requestId = 'req-12345678';
      next();
    });
    bare.use(
      respondentRouter({
        deps: {
          repos: failingRepos,
          baseUrl: 'http://example.test',
        },
        logger,
        maxBodyBytes: 4096,
        tokens: attemptTokens('a test secret of at least thirty-two chars'),
      }),
    );
    for (const res of [
      await request(bare).get('/q/some-quiz'),
      await request(bare).post('/q/some-quiz').type('form').send({ a: 'b' }),
    ]) {
      expect(res.status).toBe(500);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      const page = flatHtml(res.text);
      expect(page).toContain('<h1>Something went wrong</h1>');
      expect(page).toContain('Reference: req-12345678');
      expect(page).not.toContain('exploded');
    }
    expect(lines.join('')).toContain('database exploded');
  });
});
