// A quiz taken without an attempt keeps the student's answers in the browser, in Chromium at
// 390 px: two answers and the name come back after a reload and in a fresh tab (never the
// email); once submitted, the result page removes them and the quiz opens empty. The kept-answers
// line and an attempt's save bar (its Save button reached by keyboard without script) pass axe.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, screenshot, scrollsSideways } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const TIMEOUT = 90_000;
const CAPITAL = 'Is Lima the capital of Peru?';
const CITY = 'Which city is the capital of France?';
const PLANET = 'Is the Moon a planet?';

describeWithBrowser('answers kept in the browser without an attempt', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'kept-in-browser')).apiKey);
    browser = await launchBrowser();
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  async function published(settings: Record<string, unknown>) {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Capitals kept',
        questions: [
          { type: 'yes_no', text: CAPITAL, points: 1 },
          { type: 'short_text', text: CITY, accepted_answers: ['Paris'], points: 1 },
          { type: 'yes_no', text: PLANET, points: 1, correct_answer: 'no' },
        ],
        settings: { collect_name: true, collect_email: true, require_all_answers: false, ...settings },
      }),
    );
    const out = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
    return { quizId: quiz.quiz_id as string, url: out.public_url as string, slug: out.slug as string };
  }

  const kept = (page: Page, slug: string) =>
    page.evaluate<string | null>(`window.localStorage.getItem(${JSON.stringify(`quiz-answers:${slug}`)})`);

  test(
    'a reload and a fresh tab bring back both answers and the name; after submitting, the quiz opens empty',
    async () => {
      const quiz = await published({});
      const context: BrowserContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(quiz.url);
      await page.getByLabel('Your name').fill('Ada Lovelace');
      await page.getByLabel('Your email').fill('ada@example.com');
      await page.getByRole('radiogroup', { name: CAPITAL }).getByText('Yes').click();
      await page.getByRole('textbox', { name: CITY }).fill('Paris');
      await page.locator('#kept-status', { hasText: 'kept in this browser' }).waitFor();
      expect(await kept(page, quiz.slug)).not.toContain('ada@example.com');
      expect(await seriousViolations(page)).toEqual([]);
      expect(await scrollsSideways(page)).toBe(false);

      const back = async (tab: Page) => {
        expect(await tab.getByLabel('Your name').inputValue()).toBe('Ada Lovelace');
        expect(await tab.getByRole('radiogroup', { name: CAPITAL }).getByLabel('Yes').isChecked()).toBe(true);
        expect(await tab.getByRole('textbox', { name: CITY }).inputValue()).toBe('Paris');
        expect(await tab.getByRole('radiogroup', { name: PLANET }).getByLabel('No').isChecked()).toBe(false);
      };
      await page.reload();
      await back(page);
      // A fresh tab has no form state of its own to restore: what comes back is what was kept.
      const fresh = await context.newPage();
      await fresh.goto(quiz.url);
      await back(fresh);
      expect(await fresh.getByLabel('Your email').inputValue()).toBe('');
      await fresh.close();
      await screenshot(page, 'kept-in-browser-390');
      // The email is not kept (a shared computer): given again before sending.
      await page.getByLabel('Your email').fill('ada@example.com');

      await Promise.all([
        page.waitForURL(/\/r\//),
        page.getByRole('button', { name: 'Submit answers' }).click(),
      ]);
      expect(await kept(page, quiz.slug)).toBeNull();
      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quizId }));
      expect(results.responses).toHaveLength(1);
      expect(results.responses[0]).toMatchObject({ score: 2, respondent: { name: 'Ada Lovelace' } });

      await page.goto(quiz.url);
      expect(await page.getByLabel('Your name').inputValue()).toBe('');
      expect(await page.getByRole('radiogroup', { name: CAPITAL }).getByLabel('Yes').isChecked()).toBe(false);
      expect(await page.getByRole('textbox', { name: CITY }).inputValue()).toBe('');
      expect(await page.locator('#kept-status').innerText()).toBe('');
      await context.close();

      // The same line at 1280 px.
      const wide = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const desk = await wide.newPage();
      await desk.goto(quiz.url);
      await desk.getByRole('textbox', { name: CITY }).fill('Paris');
      await desk.locator('#kept-status', { hasText: 'kept in this browser' }).waitFor();
      expect(await seriousViolations(desk)).toEqual([]);
      expect(await scrollsSideways(desk)).toBe(false);
      await wide.close();
    },
    TIMEOUT,
  );

  test(
    'without script nothing is kept and the form works as before',
    async () => {
      const quiz = await published({});
      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        javaScriptEnabled: false,
      });
      const page = await context.newPage();
      await page.goto(quiz.url);
      await page.getByLabel('Your name').fill('Grace Hopper');
      await page.getByLabel('Your email').fill('grace@example.com');
      await page.getByRole('radiogroup', { name: CAPITAL }).getByText('Yes').click();
      expect(await page.locator('#kept-status').innerText()).toBe('');
      await Promise.all([
        page.waitForURL(/\/r\//),
        page.getByRole('button', { name: 'Submit answers' }).click(),
      ]);
      await context.close();
      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quizId }));
      expect(results.responses[0]).toMatchObject({ score: 1, respondent: { name: 'Grace Hopper' } });
    },
    TIMEOUT,
  );

  test(
    "an attempt's save bar: its status passes axe, and with script off Save is reached by keyboard",
    async () => {
      const quiz = await published({ time_limit_minutes: 10 });
      for (const script of [true, false]) {
        const context = await browser.newContext({
          viewport: { width: 390, height: 844 },
          javaScriptEnabled: script,
        });
        const page = await context.newPage();
        await page.goto(quiz.url);
        await Promise.all([
          page.waitForURL(/\?attempt=/),
          page.getByRole('button', { name: 'Start' }).click(),
        ]);
        // An attempt keeps its answers on the server: nothing in the browser.
        expect(await page.locator('form[data-keep-answers]').count()).toBe(0);
        await page.getByLabel('Your name').fill('Ada Lovelace');
        if (script) {
          await page.getByRole('radiogroup', { name: CAPITAL }).getByText('Yes').click();
          await page.locator('#save-status', { hasText: 'saved' }).waitFor();
          // axe runs as the page's script, so only where script runs.
          expect(await seriousViolations(page)).toEqual([]);
        } else {
          let focused = '';
          for (let press = 0; press < 20 && focused !== 'Save answers'; press += 1) {
            await page.keyboard.press('Tab');
            // Read through a locator: page.evaluate needs the page's own script, switched off here.
            focused = ((await page.locator(':focus').textContent()) ?? '').trim();
          }
          expect(focused).toBe('Save answers');
          await Promise.all([page.waitForURL(/saved=1/), page.keyboard.press('Enter')]);
          expect(await page.locator('#save-status').innerText()).toContain('saved');
        }
        await context.close();
      }
    },
    TIMEOUT,
  );
});
