// A timed quiz in a real Chromium, with both clocks moved (the page's and the server's), never
// waited for: two of five questions answered at zero are sent once and stored with three blanks
// marked out of time; the result page says so. An Arabic quiz with nothing answered, the same,
// its pages in Arabic though the browser asks for English.
import type { Browser } from 'playwright-core';
import { movableClock } from '../helpers/clock';
import { describeWithBrowser, launchBrowser } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const TIMEOUT = 90_000;

describeWithBrowser('time-up in a browser', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'timeup-browser')).apiKey);
    browser = await launchBrowser();
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  test(
    'two of five answered at zero: one POST, one response with both answers and three blanks out of time',
    async () => {
      const texts = ['Is the Sun a star?', 'Is ice cold?', 'Is fire wet?', 'Is 2 prime?', 'Is 9 prime?'];
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Five in one minute',
          questions: texts.map((text) => ({ type: 'yes_no', text, points: 1 })),
          settings: { time_limit_minutes: 1, collect_name: false },
        }),
      );
      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      const context = await browser.newContext();
      const page = await context.newPage();
      const posts: string[] = [];
      page.on('request', (req) => {
        if (req.method() === 'POST') posts.push(new URL(req.url()).pathname);
      });
      await page.clock.install();
      await page.goto(published.public_url);
      await Promise.all([page.waitForURL(/\?attempt=/), page.getByRole('button', { name: 'Start' }).click()]);
      for (const text of texts.slice(0, 2)) {
        await page.getByRole('radiogroup', { name: text }).getByText('Yes').click();
      }
      const clock = movableClock();
      try {
        clock.advance(61_000); // the server's clock: past the deadline, within the grace
        await Promise.all([page.waitForURL(/\/r\//), page.clock.runFor(61_000)]);
        await page.clock.runFor(10_000);
      } finally {
        clock.restore();
      }
      expect(posts.filter((path) => path === `/q/${quiz.slug}`)).toHaveLength(1);
      await expect(page.locator('.time-up').innerText()).resolves.toContain('The time ran out');
      const blanks = await page.locator('.out-of-time li').allInnerTexts();
      expect(blanks).toEqual(texts.slice(2));
      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
      expect(results.responses).toHaveLength(1);
      expect(results.responses[0].time_up).toBe(true);
      expect(results.responses[0].answers.map((a: { answer: string | null }) => a.answer)).toEqual([
        'yes',
        'yes',
        null,
        null,
        null,
      ]);
      await context.close();
    },
    TIMEOUT,
  );
  test(
    'an Arabic quiz with nothing answered: one POST, stored as blanks, and the result page stays Arabic',
    async () => {
      const texts = ['Is the Sun a star?', 'Is ice cold?'];
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'اختبار الوقت',
          questions: texts.map((text) => ({ type: 'yes_no', text, points: 1 })),
          settings: { time_limit_minutes: 1, collect_name: false, language: 'ar' },
        }),
      );
      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      const context = await browser.newContext({ locale: 'en-US' });
      const page = await context.newPage();
      const posts: string[] = [];
      page.on('request', (req) => {
        if (req.method() === 'POST') posts.push(new URL(req.url()).pathname);
      });
      await page.clock.install();
      await page.goto(published.public_url);
      await Promise.all([page.waitForURL(/\?attempt=/), page.getByRole('button', { name: 'ابدأ' }).click()]);
      const clock = movableClock();
      try {
        clock.advance(61_000);
        await Promise.all([page.waitForURL(/\/r\//), page.clock.runFor(61_000)]);
        await page.clock.runFor(10_000);
      } finally {
        clock.restore();
      }
      expect(posts.filter((path) => path === `/q/${quiz.slug}`)).toHaveLength(1);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('ar');
      await expect(page.locator('.time-up').innerText()).resolves.toContain('انتهى الوقت');
      await expect(page.locator('.out-of-time li').allInnerTexts()).resolves.toEqual(texts);
      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
      expect(results.responses).toHaveLength(1);
      expect(results.responses[0].time_up).toBe(true);
      await context.close();
    },
    TIMEOUT,
  );
});
