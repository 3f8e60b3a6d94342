// A fill_in_blanks question on the public form in Chromium: each blank, in its place in the
// text, is a text box or a select labelled with its number, so it is answered with the keyboard
// alone; maths around a blank is still typeset; nothing scrolls sideways at 390 px, in English
// or Arabic; each control is a target of at least 44 px; and axe finds nothing serious at 390 and
// 1280 px.
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, scrollsSideways } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const BROWSER_TIMEOUT_MS = 90_000;

const QUESTION = {
  en: {
    text: 'The capital of Peru is [[1]], the Eiffel Tower was finished in [[2]], and \\(x^2 = 9\\) when x is [[3]] (a text long enough to wrap on a phone).',
    blanks: [
      { accepted_answers: ['Lima'] },
      { options: ['1789', '1889', '1901'], correct_option: 1 },
      { accepted_answers: ['3', '-3'] },
    ],
  },
  ar: {
    text: 'عاصمة البيرو هي [[1]]، واكتمل برج إيفل سنة [[2]]، و\\(x^2 = 9\\) عندما تكون x هي [[3]] (نص طويل بما يكفي ليلتف على شاشة الهاتف).',
    blanks: [
      { accepted_answers: ['ليما'] },
      { options: ['1789', '1889', '1901'], correct_option: 1 },
      { accepted_answers: ['3', '-3'] },
    ],
  },
};

describeWithBrowser('a fill_in_blanks question on the public form', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'blanks-browser')).apiKey);
    browser = await launchBrowser();
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  const publish = async (language: 'en' | 'ar') => {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: language === 'ar' ? 'املأ الفراغات' : 'Fill in the blanks',
        questions: [{ type: 'fill_in_blanks', ...QUESTION[language] }],
        settings: { language, collect_name: false, show_correct_answers: 'after_submit' },
      }),
    );
    return payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id })).public_url as string;
  };

  /** Every blank's control is at least 44 px each way. */
  const smallTargets = (page: Page) =>
    page.$$eval('.blank input, .blank select', (controls) =>
      controls
        .map((control) => control.getBoundingClientRect())
        .filter((box) => box.width < 44 || box.height < 44)
        .map((box) => `${box.width}x${box.height}`),
    );

  /** Starts the attempt with the keyboard: focus Start, Enter. */
  async function startByKeyboard(page: Page) {
    const start = page.getByRole('button', { name: /^(Start|ابدأ)$/ });
    if ((await start.count()) === 0) return;
    await start.focus();
    await Promise.all([page.waitForURL(/attempt=/), page.keyboard.press('Enter')]);
  }

  /** Tabs on to the next blank's control; its accessible name. */
  async function tabToBlank(page: Page): Promise<string> {
    await page.keyboard.press('Tab');
    while (
      !(await page.evaluate<boolean>(
        "Boolean(document.activeElement && document.activeElement.closest('.blank'))",
      ))
    ) {
      await page.keyboard.press('Tab');
    }
    return page.evaluate<string>(
      "document.activeElement.labels?.[0]?.textContent?.replace(/\\s+/g, ' ').trim() ?? ''",
    );
  }

  test(
    'answered by keyboard alone at 390 px: Tab to each blank, type or pick; scored; maths kept',
    async () => {
      const url = await publish('en');
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(url);
      await startByKeyboard(page);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await smallTargets(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);

      // Each control is named by its blank's number; the formula beside them is typeset.
      for (const number of [1, 2, 3]) {
        await expect(
          page.getByRole(number === 2 ? 'combobox' : 'textbox', { name: `Blank ${number}` }).count(),
        ).resolves.toBe(1);
      }
      await expect(page.locator('.blanks-text math').count()).resolves.toBe(1);
      await expect(page.locator('.blanks-text').textContent()).resolves.not.toContain('[[');

      await page.locator('body').focus();
      // The label reads the number once for sight ("1") and in full for a screen reader.
      expect(await tabToBlank(page)).toMatch(/^Blank 1\s*1$/);
      await page.keyboard.type('lima');
      expect(await tabToBlank(page)).toMatch(/^Blank 2/);
      // A select takes its option by typing its first characters.
      await page.keyboard.type('1889');
      await expect(
        page.evaluate<string | undefined>('document.activeElement.selectedOptions[0]?.textContent?.trim()'),
      ).resolves.toBe('1889');
      expect(await tabToBlank(page)).toMatch(/^Blank 3/);
      await page.keyboard.type('-3');
      await page.getByRole('button', { name: 'Submit answers' }).focus();
      await Promise.all([page.waitForURL(/\/r\//), page.keyboard.press('Enter')]);
      const main = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
      expect(main).toContain('1: lima; 2: 1889; 3: -3');
      expect(main).toMatch(/3\s*out of\s*3/);
      expect(await seriousViolations(page)).toEqual([]);

      await page.setViewportSize({ width: 1280, height: 800 });
      await page.goto(url);
      await startByKeyboard(page);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );

  test(
    'in Arabic, right to left: no sideways scroll at 390 px, 44 px targets, no serious axe finding',
    async () => {
      const url = await publish('ar');
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(url);
      await startByKeyboard(page);
      await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
      await expect(page.locator('.blank').count()).resolves.toBe(3);
      await expect(page.getByRole('textbox', { name: 'الفراغ 1' }).count()).resolves.toBe(1);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await smallTargets(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await expect(page.locator('main').textContent()).resolves.toContain('املأ كل فراغ مرقّم');
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );
});
