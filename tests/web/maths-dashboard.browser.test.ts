// Formulas on the owner's pages in Chromium: the quiz page of a draft, the results' questions and
// item analysis, and one response's page show TeX typeset as MathML (laid out, with a size) in
// question texts, options, right answers and explanations; a formula that does not parse shows
// its source; "$5 and $10" stays text with math_dollars off; axe finds nothing serious. Each page
// is screenshotted into a temporary folder, and the shot is checked to hold the rendering.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, loggedInPage } from '../helpers/browser';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';

const TIMEOUT = 120_000;

const MATHS_QUIZ = {
  title: 'Roots on the dashboard',
  questions: [
    {
      type: 'multiple_choice',
      text: 'What is \\(\\sqrt{2}\\cdot\\sqrt{8}\\)?',
      options: [
        { label: '\\(4\\)', score: 2 },
        { label: '\\(\\frac{16}{2}\\)', score: 0 },
        { label: 'It costs $5 and $10', score: 0 },
      ],
      explanation: 'Since \\(\\sqrt{16} = 4\\).',
    },
    { type: 'yes_no', text: 'Is \\(\\frac{1\\) written well?', points: 1, correct_answer: 'no' },
    // A scale's end words are the owner's text too.
    {
      type: 'scale',
      text: 'How sure are you?',
      scale_max: 5,
      scale_labels: ['\\(0\\%\\) sure', '\\(100\\%\\) sure'],
    },
  ],
  settings: { collect_name: false },
};

/** Each <math> within `selector`, with its laid-out size. */
const mathBoxes = (page: Page, selector: string) =>
  page.locator(`${selector} math`).evaluateAll((nodes) =>
    nodes.map((node) => {
      const box = node.getBoundingClientRect();
      return { width: box.width, height: box.height };
    }),
  );

describeWithBrowser('maths on the dashboard', () => {
  let app: TestApp;
  let owner: TestUser;
  let client: AnyClient;
  let browser: Browser;
  let shots: string;

  beforeAll(async () => {
    app = await startTestApp();
    owner = await createTestUser(app, 'maths-owner');
    client = await connectClient(app, owner.apiKey);
    browser = await launchBrowser();
    shots = fs.mkdtempSync(path.join(os.tmpdir(), 'maths-dashboard-'));
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
    if (shots) fs.rmSync(shots, { recursive: true, force: true });
  });

  /** Laid-out formulas, the malformed one as source, the dollars as text, axe clean, and a screenshot. */
  async function checkPage(page: Page, name: string, formulas: number) {
    const boxes = await mathBoxes(page, 'main');
    expect({ name, formulas: boxes.length >= formulas }).toEqual({ name, formulas: true });
    for (const box of boxes) {
      expect(box.width).toBeGreaterThan(0);
      expect(box.height).toBeGreaterThan(0);
    }
    const main = await page.locator('main').innerText();
    // Outside the charts' SVG labels, which cannot hold MathML and keep the source (the table
    // beside each chart states its rows typeset), no formula is left as TeX.
    const outsideCharts = await page.evaluate<string>(
      "(() => { const main = document.querySelector('main').cloneNode(true); main.querySelectorAll('svg').forEach((svg) => svg.remove()); return main.textContent; })()",
    );
    expect(outsideCharts).not.toContain('\\sqrt');
    expect(await seriousViolations(page)).toEqual([]);
    const file = path.join(shots, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(fs.statSync(file).size).toBeGreaterThan(1000);
    // The shot holds the rendering: the first formula, shot alone, has pixels of its own.
    const formula = path.join(shots, `${name}-formula.png`);
    await page.locator('main math').first().screenshot({ path: formula });
    expect(fs.statSync(formula).size).toBeGreaterThan(100);
    return main;
  }

  test(
    'the quiz page, the results and a response show typeset formulas; plain-text outputs keep the source',
    async () => {
      const quiz = payload(await callTool(client, 'create_quiz', MATHS_QUIZ));
      const base = `/dashboard/quizzes/${quiz.quiz_id}`;
      const page = await loggedInPage(browser, app.baseUrl, owner, 1280);
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text());
      });

      // The draft's page lists its questions with their keys: question, two options, explanation.
      await page.goto(`${app.baseUrl}${base}`);
      let main = await checkPage(page, 'dashboard-quiz-page', 4);
      await expect(page.locator('main .formula-source').first().innerText()).resolves.toBe('\\(\\frac{1\\)');
      expect(main).toContain('It costs $5 and $10');

      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      const [choice, yesNo, sure] = quiz.questions.map(
        (question: { question_id: string }) => question.question_id,
      );
      for (const option_index of [0, 2]) {
        const sent = await request(app.app)
          .post(`/api/quizzes/${published.slug}/responses`)
          .send({
            answers: [
              { question_id: choice, option_index },
              { question_id: yesNo, answer: 'no' },
              { question_id: sure, value: 3 },
            ],
          });
        expect(sent.status).toBe(201);
      }

      // The questions' results: the text, the key's options and the counts' rows.
      await page.goto(`${app.baseUrl}${base}/results/questions`);
      main = await checkPage(page, 'dashboard-results-questions', 6);
      expect(main).toContain('It costs $5 and $10');
      // Two options' rows and the scale's two ends (its key and its rows).
      await expect(page.locator('table.answer-counts th math').count()).resolves.toBeGreaterThanOrEqual(4);
      await expect(page.locator('.answer-key math').count()).resolves.toBeGreaterThanOrEqual(5);

      await page.goto(`${app.baseUrl}${base}/results/items`);
      await checkPage(page, 'dashboard-results-items', 1);

      // One response: the question, the option chosen and the right answer typeset.
      await page.goto(`${app.baseUrl}${base}/results/responses`);
      await page.locator('table.responses a').first().click();
      await page.waitForURL(/\/responses\/[^/]+$/);
      main = await checkPage(page, 'dashboard-response', 2);
      // The newest response chose the option with dollars: shown as text; the right answer typeset.
      await expect(page.locator('.review-answer').first().innerText()).resolves.toBe('It costs $5 and $10');
      await expect(
        page.locator('.review-item').first().locator('bdi math').count(),
      ).resolves.toBeGreaterThanOrEqual(1);
      await expect(page.locator('main .formula-source').first().innerText()).resolves.toBe('\\(\\frac{1\\)');
      expect(refused).toEqual([]);
      await page.context().close();

      // The CSV keeps the source.
      const links = payload(await callTool(client, 'get_quiz_links', { quiz_id: quiz.quiz_id }));
      const csvUrl = new URL(links.csv.url);
      const csv = await request(app.app).get(`${csvUrl.pathname}${csvUrl.search}`);
      expect(csv.text).toContain('\\(4\\)');
      expect(csv.text).toContain('It costs $5 and $10');
    },
    TIMEOUT,
  );
});
