// A scale on the public form in Chromium: answered with the keyboard alone, its eleven values
// within 390 px without sideways scroll (in English and in Arabic), each a target of at least
// 44 px, and no serious axe finding at 390 and 1280 px.
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, scrollsSideways } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const BROWSER_TIMEOUT_MS = 60_000;

describeWithBrowser('a scale on the public form', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'scale-browser')).apiKey);
    browser = await launchBrowser();
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  const publish = async (language: 'en' | 'ar', labels: [string, string]) => {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: language === 'ar' ? 'رأيك' : 'Your opinion',
        questions: [
          {
            type: 'scale',
            text: language === 'ar' ? 'ما مدى احتمال أن توصي بنا؟' : 'How likely are you to recommend us?',
            scale_min: 0,
            scale_max: 10,
            scale_labels: labels,
          },
        ],
        settings: { language },
      }),
    );
    return payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id })).public_url as string;
  };

  /** Every value's target (its label) is at least 44 px each way. */
  const smallTargets = (page: Page) =>
    page.$$eval('.scale-values label.choice', (labels) =>
      labels
        .map((label) => label.getBoundingClientRect())
        .filter((box) => box.width < 44 || box.height < 44)
        .map((box) => `${box.width}x${box.height}`),
    );

  test(
    'answered by keyboard alone at 390 px: the arrows move along the values, the ends named',
    async () => {
      const url = await publish('en', ['Not at all likely', 'Extremely likely']);
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(url);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await smallTargets(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      // The end values are read with their words; the group says the range.
      const group = page.getByRole('radiogroup', { name: /recommend us/ });
      await expect(group.getByRole('radio', { name: '0, Not at all likely' }).count()).resolves.toBe(1);
      await expect(group.getByRole('radio', { name: '10, Extremely likely' }).count()).resolves.toBe(1);
      await expect(group.getAttribute('aria-describedby')).resolves.toMatch(/hint-/);

      // The name typed, then Tab into the group and the arrows: Space picks 0, four to the right is 4.
      const name = page.getByLabel('Your name');
      if (await name.count()) await name.fill('Ada');
      await page.keyboard.press('Tab');
      while ((await page.locator(':focus').getAttribute('type')) !== 'radio') {
        await page.keyboard.press('Tab');
      }
      await page.keyboard.press('Space');
      for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowRight');
      await expect(group.getByRole('radio', { name: '4' }).isChecked()).resolves.toBe(true);
      await page.getByRole('button', { name: 'Submit answers' }).focus();
      await Promise.all([page.waitForURL(/\/r\//), page.keyboard.press('Enter')]);
      // Scales alone: a thank-you, no "0 out of 0".
      await expect(page.locator('main').textContent()).resolves.toContain('Thank you');
      await expect(page.locator('main').textContent()).resolves.not.toContain('out of 0');

      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(url);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );

  test(
    'in Arabic, right to left: no sideways scroll at 390 px, 44 px targets, no serious axe finding',
    async () => {
      const url = await publish('ar', ['غير محتمل إطلاقًا', 'محتمل جدًا']);
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(url);
      await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
      expect(await scrollsSideways(page)).toBe(false);
      expect(await smallTargets(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await expect(page.locator('main').textContent()).resolves.toContain('اختر رقمًا من 0 إلى 10.');
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );
});
