// Answers kept in Chromium at 390 px: two of five answered and the name, saved by the page's
// script as the student types, come back on a reload and in a second tab; with the page closed,
// the server's sweep stores them at time-up, once, with three blanks, as timed out.
import type { Browser } from 'playwright-core';
import { sweepTimeUps } from '../../src/domain/taking/saved-answers';
import { movableClock } from '../helpers/clock';
import { describeWithBrowser, launchBrowser } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const TIMEOUT = 90_000;

describeWithBrowser('answers kept in a browser', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'autosave-browser')).apiKey);
    browser = await launchBrowser();
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  test(
    'a reload and a second tab keep both answers and the name; time-up with the page closed stores one response',
    async () => {
      const texts = ['Is the Sun a star?', 'Is ice cold?', 'Is fire wet?', 'Is 2 prime?', 'Is 9 prime?'];
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Five kept',
          questions: texts.map((text) => ({ type: 'yes_no', text, points: 1 })),
          settings: { time_limit_minutes: 1, collect_name: true },
        }),
      );
      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(published.public_url);
      await Promise.all([page.waitForURL(/\?attempt=/), page.getByRole('button', { name: 'Start' }).click()]);
      await page.getByLabel('Your name').fill('Ada Lovelace');
      for (const text of texts.slice(0, 2)) {
        await page.getByRole('radiogroup', { name: text }).getByText('Yes').click();
      }
      await page.locator('#save-status', { hasText: 'saved' }).waitFor();
      const kept = async (tab: typeof page) => {
        expect(await tab.getByLabel('Your name').inputValue()).toBe('Ada Lovelace');
        for (const text of texts.slice(0, 2)) {
          expect(await tab.getByRole('radiogroup', { name: text }).getByLabel('Yes').isChecked()).toBe(true);
        }
      };
      await page.reload();
      await kept(page);
      const second = await context.newPage();
      await second.goto(page.url());
      await kept(second);
      await context.close();
      const clock = movableClock();
      try {
        clock.advance(92_000); // past the deadline and its grace, no page open
        expect((await sweepTimeUps(app.deps)).submitted).toBe(1);
      } finally {
        clock.restore();
      }
      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
      expect(results.responses).toHaveLength(1);
      expect(results.responses[0]).toMatchObject({ time_up: true, score: 2 });
      expect(results.responses[0].respondent.name).toBe('Ada Lovelace');
    },
    TIMEOUT,
  );
});
