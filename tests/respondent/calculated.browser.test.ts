// A calculated question on the public form in Chromium: started, its own numbers read off the
// page (with their units), answered and submitted with the keyboard alone, in English and in
// Arabic, right to left, at 390 and 1280 px, with no serious axe finding before or after.
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, scrollsSideways } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const BROWSER_TIMEOUT_MS = 90_000;

const WORDS = {
  en: {
    title: 'Speeds',
    text: 'A car drives {d} in {t} hours. Its mean speed in km/h?',
    unit: 'km',
    hint: 'A number, such as 42 or 3.5',
  },
  ar: {
    title: 'السرعات',
    text: 'تقطع سيارة {d} في {t} ساعات. ما متوسط سرعتها بالكيلومتر في الساعة؟',
    unit: 'كم',
    hint: 'رقم، مثل 42 أو 3.5',
  },
};

describeWithBrowser('a calculated question on the public form', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'calculated-browser')).apiKey);
    browser = await launchBrowser();
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  const publish = async (language: 'en' | 'ar') => {
    const words = WORDS[language];
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: words.title,
        questions: [
          {
            type: 'calculated',
            text: words.text,
            formula: 'd / t',
            variables: [
              { name: 'd', min: 100, max: 900, unit: words.unit },
              { name: 't', min: 2, max: 8, step: 0.5 },
            ],
            tolerance: 0.5,
          },
        ],
        settings: { language, collect_name: false, show_score_to_respondent: true },
      }),
    );
    return payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id })).public_url as string;
  };

  /** Tab until the focus is on the element `selector` names. */
  const tabTo = async (page: Page, selector: string) => {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if (await page.locator(`${selector}:focus`).count()) return;
    }
    throw new Error(`${selector} not reached by Tab`);
  };

  for (const language of ['en', 'ar'] as const) {
    for (const width of [390, 1280]) {
      test(
        `${language} at ${width} px: its own numbers answered by keyboard alone, no serious axe finding`,
        async () => {
          const words = WORDS[language];
          const url = await publish(language);
          const context = await browser.newContext({ viewport: { width, height: 900 } });
          const page = await context.newPage();
          await page.goto(url);
          if (language === 'ar') await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
          // Taken through an attempt: the Start button first.
          await tabTo(page, '.start-form button[type="submit"]');
          await Promise.all([page.waitForURL(/attempt=/), page.keyboard.press('Enter')]);
          expect(await scrollsSideways(page)).toBe(false);
          expect(await seriousViolations(page)).toEqual([]);
          const label = (await page.locator('label.question-label').first().textContent()) ?? '';
          // The attempt's numbers, the distance with its unit, none of the {name}s left.
          expect(label).not.toContain('{');
          const distance = new RegExp(`(\\d+) ${words.unit}`).exec(label);
          expect(distance).not.toBeNull();
          const hours = /(\d+\.\d)/.exec(label.replace(distance![0], ''));
          expect(hours).not.toBeNull();
          const speed = Number(distance![1]) / Number(hours![1]);
          await expect(page.locator('main').textContent()).resolves.toContain(words.hint);

          await tabTo(page, 'input.number-answer');
          await page.keyboard.type(speed.toFixed(2));
          // Enter in the box would save the answers (the form's first button): Submit is the last.
          const submit = page.locator('form.quiz-form button[type="submit"]').last();
          await submit.focus();
          await Promise.all([page.waitForURL(/\/r\//), page.keyboard.press('Enter')]);
          await expect(page.locator('.score-value').first().textContent()).resolves.toBe('1');
          expect(await seriousViolations(page)).toEqual([]);
          await context.close();
        },
        BROWSER_TIMEOUT_MS,
      );
    }
  }
});
