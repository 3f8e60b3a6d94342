// Pictures in Chromium: a question's and two options' pictures on the public form fit a 390 px
// phone without sideways scroll, keep their space while loading (width and height set), carry
// their alt text, open full size through a link, and leave no serious axe finding at 390 and
// 1280 px. The review after submitting, the owner's quiz page and a response's page show the
// question's picture the same way, each screenshotted into a temporary folder.
// The in-chat view is given our origin as its one resource domain (mcp-apps.test.ts).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import request from 'supertest';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, loggedInPage, scrollsSideways } from '../helpers/browser';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import { solidJpeg, solidPng } from './fixtures';

const BROWSER_TIMEOUT_MS = 60_000;

describeWithBrowser('pictures on the public form', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;
  let publicUrl: string;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'images-browser')).apiKey);
    browser = await launchBrowser();
    const b64 = (bytes: Buffer) => bytes.toString('base64');
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Shapes and colours',
        questions: [
          {
            type: 'multiple_choice',
            text: 'Which colour is the wide banner?',
            image: { alt: 'A wide red banner', data: b64(await solidPng(1800, 600, '#b22')) },
            options: [
              {
                label: 'Red',
                score: 1,
                image: { alt: 'Red swatch', data: b64(await solidPng(120, 120, '#b22')) },
              },
              { label: 'Blue', image: { alt: 'Blue swatch', data: b64(await solidJpeg(120, 120)) } },
              { label: 'Green' },
            ],
          },
          { type: 'yes_no', text: 'Is a square a rectangle?' },
        ],
      }),
    );
    publicUrl = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id })).public_url;
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  test.each([390, 1280])(
    'at %i px: every picture shown whole within the page, with its alt text and size, axe clean',
    async (width) => {
      const context = await browser.newContext({ viewport: { width, height: 844 } });
      const page = await context.newPage();
      await page.goto(publicUrl);
      await page.waitForLoadState('load');
      // The pictures load lazily, so the load event does not wait for them: wait for each one.
      await page
        .waitForFunction(
          `[...document.querySelectorAll('main img')].every((image) => image.complete)`,
          null,
          {
            timeout: 20_000,
          },
        )
        .catch(() => undefined); // the comparison below names any picture that did not load
      expect(await scrollsSideways(page)).toBe(false);
      // Read in the page, as a string: the tests compile without the DOM's types.
      const pictures = await page.evaluate(`[...document.querySelectorAll('main img')].map((image) => {
        const box = image.getBoundingClientRect();
        return {
          alt: image.alt,
          width: image.getAttribute('width'),
          height: image.getAttribute('height'),
          loaded: image.complete && image.naturalWidth > 0,
          fits: box.right <= document.documentElement.clientWidth + 0.5 && box.left >= 0,
          ratio: Math.round((box.width / box.height) * 10) / 10,
          link: image.closest('a')?.getAttribute('href') ?? null,
        };
      })`);
      expect(pictures).toEqual([
        {
          alt: 'A wide red banner',
          width: '1600',
          height: '533',
          loaded: true,
          fits: true,
          ratio: 3,
          link: expect.stringMatching(/^\/images\/[0-9a-f]{64}\.png$/),
        },
        { alt: 'Red swatch', width: '120', height: '120', loaded: true, fits: true, ratio: 1, link: null },
        { alt: 'Blue swatch', width: '120', height: '120', loaded: true, fits: true, ratio: 1, link: null },
      ]);
      // An option's picture is part of its label: choosing by the picture chooses the option.
      await expect(page.getByRole('radio', { name: /Blue.*Blue swatch/ }).count()).resolves.toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );
});

/** The question pictures in the page's main, as a person and a screen reader meet them. */
const questionPictures = (page: Page) =>
  page.evaluate(`[...document.querySelectorAll('main a.question-image img')].map((image) => {
    const box = image.getBoundingClientRect();
    return {
      alt: image.alt,
      width: image.getAttribute('width'),
      height: image.getAttribute('height'),
      loaded: image.complete && image.naturalWidth > 0,
      fits: box.right <= document.documentElement.clientWidth + 0.5 && box.left >= 0,
      link: image.closest('a')?.getAttribute('href') ?? null,
    };
  })`);

describeWithBrowser('pictures on the review and the dashboard', () => {
  let app: TestApp;
  let owner: TestUser;
  let client: AnyClient;
  let browser: Browser;
  let shots: string;

  beforeAll(async () => {
    app = await startTestApp();
    owner = await createTestUser(app, 'images-surfaces');
    client = await connectClient(app, owner.apiKey);
    browser = await launchBrowser();
    shots = fs.mkdtempSync(path.join(os.tmpdir(), 'images-surfaces-'));
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
    if (shots) fs.rmSync(shots, { recursive: true, force: true });
  });

  /** The banner at 390 px: whole, with its alt text and size, a link to full size, axe clean, shot. */
  async function checkPage(page: Page, name: string) {
    await page.waitForLoadState('load');
    // Lazy pictures load once scrolled to: bring each into view before reading them.
    for (const image of await page.locator('main a.question-image img, main img.option-image').all())
      await image.scrollIntoViewIfNeeded();
    await page.waitForFunction("[...document.querySelectorAll('main img')].every((image) => image.complete)");
    expect({ name, sideways: await scrollsSideways(page) }).toEqual({ name, sideways: false });
    expect({ name, pictures: await questionPictures(page) }).toEqual({
      name,
      pictures: [
        {
          alt: 'A wide red banner',
          width: '1600',
          height: '533',
          loaded: true,
          fits: true,
          link: expect.stringMatching(/^\/images\/[0-9a-f]{64}\.png$/),
        },
      ],
    });
    // The chosen and the right option's picture, beside its label: alt text, size, loaded, linked to full size.
    type Shown = {
      getAttribute(name: string): string | null;
      complete: boolean;
      naturalWidth: number;
      closest(selector: string): Shown | null;
    };
    const options = await page.locator('main img.option-image').evaluateAll((images) =>
      (images as unknown as Shown[]).map((image) => ({
        alt: image.getAttribute('alt'),
        width: image.getAttribute('width'),
        loaded: image.complete && image.naturalWidth > 0,
        link: image.closest('a')?.getAttribute('href') ?? null,
      })),
    );
    expect({ name, some: options.length > 0 }).toEqual({ name, some: true });
    for (const option of options) {
      expect({ name, option }).toEqual({
        name,
        option: {
          alt: 'A red swatch',
          width: '200',
          loaded: true,
          link: expect.stringMatching(/^\/images\/[0-9a-f]{64}\.png$/),
        },
      });
    }
    expect({ name, axe: await seriousViolations(page) }).toEqual({ name, axe: [] });
    const file = path.join(shots, `${name}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(fs.statSync(file).size).toBeGreaterThan(1000);
  }

  test(
    'at 390 px the draft quiz page, the review after submitting and the response page show the pictures of the question and its option',
    async () => {
      const b64 = (bytes: Buffer) => bytes.toString('base64');
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Banners',
          questions: [
            {
              type: 'multiple_choice',
              text: 'Which colour is the wide banner?',
              image: { alt: 'A wide red banner', data: b64(await solidPng(1800, 600, '#b22')) },
              options: [
                {
                  label: 'Red',
                  score: 1,
                  image: { alt: 'A red swatch', data: b64(await solidPng(200, 200, '#c00')) },
                },
                { label: 'Blue' },
              ],
            },
            { type: 'yes_no', text: 'Is a square a rectangle?', points: 1, correct_answer: 'yes' },
          ],
          settings: { show_correct_answers: 'after_submit', collect_name: false },
        }),
      );
      const base = `${app.baseUrl}/dashboard/quizzes/${quiz.quiz_id}`;
      const page = await loggedInPage(browser, app.baseUrl, owner, 390);

      // A draft's page lists its questions, the picture under the first one's text.
      await page.goto(base);
      await checkPage(page, 'dashboard-quiz-page');

      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      const [choice, square] = quiz.questions.map(
        (question: { question_id: string }) => question.question_id,
      );
      const sent = await request(app.app)
        .post(`/api/quizzes/${published.slug}/responses`)
        .send({
          answers: [
            { question_id: choice, option_index: 0 },
            { question_id: square, answer: 'yes' },
          ],
        });
      expect(sent.status).toBe(201);

      // The respondent's review, with the key shown after submitting.
      await page.goto(sent.body.result_url);
      await expect(page.locator('.review-item').count()).resolves.toBe(2);
      await checkPage(page, 'review');

      await page.goto(`${base}/results/responses`);
      await page.locator('table.responses a').first().click();
      await page.waitForURL(/\/responses\/[^/]+$/);
      await checkPage(page, 'dashboard-response');
      await page.context().close();
    },
    BROWSER_TIMEOUT_MS * 2,
  );
});
