// A person takes a quiz in a real Chromium: an assistant creates and publishes it over MCP,
// the person opens the public page, types a name, answers with the keyboard and the mouse,
// submits and sees the score; get_results over MCP then shows that response.
import type { Browser } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, screenshot } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

// A browser start and a few page loads can be slow on a loaded CI machine: more room than the default 30 s.
const BROWSER_TIMEOUT_MS = 60_000;

describeWithBrowser('taking a quiz in a browser', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'browser')).apiKey);
    browser = await launchBrowser();
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  test(
    'open the public page, answer, submit, see the score; get_results shows the response',
    async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Solar System Basics',
          questions: [
            { type: 'yes_no', text: 'Is the Sun a star?', points: 2 },
            {
              type: 'multiple_choice',
              text: 'Which planet is closest to the Sun?',
              options: [
                { label: 'Venus', score: 0 },
                { label: 'Mercury', score: 3 },
                { label: 'Mars', score: 0 },
              ],
            },
            { type: 'yes_no', text: 'Is Pluto classified as a major planet today?', points: -1 },
          ],
          settings: { pass_mark_percent: 60 },
        }),
      );
      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));

      const context = await browser.newContext({
        viewport: { width: 390, height: 844 },
        deviceScaleFactor: 1,
      });
      const page = await context.newPage();
      await page.goto(published.public_url);
      expect(await page.title()).toBe('Solar System Basics');
      await screenshot(page, 'respondent-quiz-page');

      await page.getByLabel('Your name').fill('Ada Lovelace');
      // Keyboard only for the first question: focus its first radio, then move with the arrow keys.
      await page.getByRole('radio', { name: 'Yes' }).first().focus();
      await page.keyboard.press('Space');
      await page
        .getByRole('radiogroup', { name: /closest to the Sun/ })
        .getByRole('radio', { name: 'Venus' })
        .focus();
      await page.keyboard.press('ArrowDown'); // Mercury
      // The mouse for the last one, by clicking its label text.
      await page.getByRole('radiogroup', { name: /Pluto/ }).getByText('No').click();
      await expect(page.getByRole('radio', { name: 'Mercury' }).isChecked()).resolves.toBe(true);

      await Promise.all([
        page.waitForURL(/\/r\//),
        page.getByRole('button', { name: 'Submit answers' }).click(),
      ]);
      expect(page.url()).toMatch(new RegExp(`/q/${quiz.slug}/r/[a-z0-9]+$`));
      const main = page.locator('main');
      await expect(main.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Your result');
      await expect(main.locator('.score').innerText()).resolves.toBe('5 out of 5');
      await expect(main.locator('.percent').innerText()).resolves.toBe('100%');
      await expect(main.locator('.verdict').innerText()).resolves.toBe('Passed');
      await screenshot(page, 'respondent-result-page');
      const responseId = page.url().split('/').pop();
      await context.close();

      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
      expect(results.summary).toMatchObject({
        response_count: 1,
        average_score: 5,
        pass_count: 1,
        pass_rate: 1,
      });
      expect(results.responses).toEqual([
        expect.objectContaining({
          response_id: responseId,
          respondent: { name: 'Ada Lovelace', email: null },
          score: 5,
          max_score: 5,
          percent: 100,
          passed: true,
          answers: [
            expect.objectContaining({ answer: 'yes', points: 2 }),
            expect.objectContaining({ answer: 'Mercury', option_index: 1, points: 3 }),
            expect.objectContaining({ answer: 'no', points: 0 }),
          ],
        }),
      ]);
    },
    BROWSER_TIMEOUT_MS,
  );

  test(
    'a page with errors keeps the answers and moves focus to the error summary',
    async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Error page look',
          questions: [
            { type: 'yes_no', text: 'First question?', points: 1 },
            {
              type: 'multiple_choice',
              text: 'Second question?',
              options: [
                { label: 'A', score: 1 },
                { label: 'B', score: 0 },
              ],
            },
          ],
          settings: { collect_email: true },
        }),
      );
      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(published.public_url);
      await page.getByLabel('Your email address').fill('not-an-email');
      await page.getByRole('radio', { name: 'No' }).check();
      await Promise.all([
        page.waitForLoadState('load'),
        page.getByRole('button', { name: 'Submit answers' }).click(),
      ]);
      expect(await page.title()).toBe('Error: Error page look');
      await expect(page.locator('.error-summary:focus').count()).resolves.toBe(1);
      await expect(page.getByRole('radio', { name: 'No' }).isChecked()).resolves.toBe(true);
      await expect(page.getByLabel('Your email address').inputValue()).resolves.toBe('not-an-email');
      await screenshot(page, 'respondent-quiz-page-errors');
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );
  test(
    'the newer controls by keyboard alone: a checkbox group, a text box, a decimal box; then the review',
    async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Newer controls',
          settings: { show_correct_answers: 'after_submit', collect_name: false },
          questions: [
            {
              type: 'multiple_select',
              text: 'Which are prime?',
              options: [
                { label: 'Two', score: 2 },
                { label: 'Three', score: 2 },
                { label: 'Four', score: -3 },
              ],
            },
            {
              type: 'short_text',
              text: 'Which country has Lima as its capital?',
              accepted_answers: ['Perú'],
              points: 2,
              explanation: 'Lima has been its capital since 1535.',
            },
            { type: 'number', text: '7 × 8 ÷ 16?', correct_number: 3.5, points: 3 },
          ],
        }),
      );
      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(published.public_url);
      expect(await seriousViolations(page)).toEqual([]);
      // Nothing of the key or the explanation is in the page before submitting.
      expect(await page.content()).not.toMatch(/Perú|1535/);

      // Tab into the group, tick Two and Three with Space, Tab on to the text and number boxes.
      await page.getByRole('checkbox', { name: 'Two' }).focus();
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab'); // Four, left unticked
      await page.keyboard.press('Tab');
      await expect(
        page.getByRole('textbox', { name: /Lima/ }).evaluate((el) => el.matches(':focus')),
      ).resolves.toBe(true);
      await page.keyboard.type('peru\u0301');
      await page.keyboard.press('Tab');
      await expect(page.getByRole('textbox', { name: /7 × 8/ }).getAttribute('inputmode')).resolves.toBe(
        'decimal',
      );
      await page.keyboard.type('3,5');
      await page.keyboard.press('Tab');
      await Promise.all([page.waitForURL(/\/r\//), page.keyboard.press('Enter')]);

      // 2 + 2 ticked, "perú" as compared, 3,5 = 3.5: 4 + 2 + 3 = 9 of 9.
      const main = page.locator('main');
      await expect(main.locator('.score').innerText()).resolves.toBe('9 out of 9');
      const review = await main.locator('.review').innerText();
      expect(review).toContain('Two; Three');
      expect(review).toContain('Right answers: Two, Three');
      expect(review).toContain('Right answer: Perú');
      expect(review).toContain('Lima has been its capital since 1535.');
      expect(review).toContain('Right answer: 3.5');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'respondent-review-newer-types');
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );
});
