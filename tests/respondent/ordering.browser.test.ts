// An ordering question on the public form in Chromium: each item has a position select, so it is
// answered with the keyboard alone (no drag and drop), the position chosen is the select's value a
// screen reader reads; nothing scrolls sideways at 390 px, in English or Arabic; each select is a
// target of at least 44 px; and axe finds nothing serious at 390 and 1280 px.
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, scrollsSideways } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const BROWSER_TIMEOUT_MS = 90_000;

const PLANETS = ['Mercury', 'Venus', 'Earth', 'Mars'];
const PLANETS_AR = ['عطارد', 'الزهرة', 'الأرض', 'المريخ'];

describeWithBrowser('an ordering question on the public form', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'ordering-browser')).apiKey);
    browser = await launchBrowser();
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  const publish = async (language: 'en' | 'ar', items: string[]) => {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: language === 'ar' ? 'الكواكب' : 'Planets',
        questions: [
          {
            type: 'ordering',
            text:
              language === 'ar'
                ? 'رتّب الكواكب من الأقرب إلى الشمس، مع اسم طويل بما يكفي ليلتف على شاشة الهاتف'
                : 'Put the planets in order from the Sun, nearest first, a text long enough to wrap on a phone',
            items: items.map((label) => ({ label })),
            points_per_item: 1,
          },
        ],
        settings: { language, collect_name: false, show_correct_answers: 'after_submit' },
      }),
    );
    return payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id })).public_url as string;
  };

  /** Every position select is at least 44 px each way. */
  const smallTargets = (page: Page) =>
    page.$$eval('select.order-position', (selects) =>
      selects
        .map((select) => select.getBoundingClientRect())
        .filter((box) => box.width < 44 || box.height < 44)
        .map((box) => `${box.width}x${box.height}`),
    );

  /** Starts the attempt with the keyboard: Tab to Start, Enter. */
  async function startByKeyboard(page: Page) {
    const start = page.getByRole('button', { name: /^(Start|ابدأ)$/ });
    if ((await start.count()) === 0) return;
    await start.focus();
    await Promise.all([page.waitForURL(/attempt=/), page.keyboard.press('Enter')]);
  }

  test(
    'answered by keyboard alone at 390 px: Tab to each item, type its position, submit; scored',
    async () => {
      const url = await publish('en', PLANETS);
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(url);
      await startByKeyboard(page);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await smallTargets(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);

      // The group is named by its question and described by the hint; each select by its item.
      const group = page.getByRole('group', { name: /Put the planets in order/ });
      await expect(group.getAttribute('aria-describedby')).resolves.toMatch(/hint-/);
      for (const planet of PLANETS) {
        await expect(group.getByRole('combobox', { name: planet }).count()).resolves.toBe(1);
      }
      // The items are shown in an order of the attempt, never the right one.
      const shown = await group.locator('.order-label').allTextContents();
      expect(shown.map((label) => label.trim())).not.toEqual(PLANETS);

      // Keyboard only: Tab into each select in turn and type its right position.
      await page.locator('body').focus();
      for (let filled = 0; filled < PLANETS.length; filled += 1) {
        await page.keyboard.press('Tab');
        while ((await page.evaluate<string | undefined>('document.activeElement?.tagName')) !== 'SELECT') {
          await page.keyboard.press('Tab');
        }
        const label = await page.evaluate<string>(
          "document.activeElement.labels?.[0]?.textContent?.trim() ?? ''",
        );
        const position = PLANETS.indexOf(label) + 1;
        expect(position).toBeGreaterThan(0);
        await page.keyboard.type(String(position));
        // What a screen reader reads for the focused select: its chosen position.
        await expect(
          page.evaluate<string | undefined>('document.activeElement.selectedOptions[0]?.textContent?.trim()'),
        ).resolves.toBe(String(position));
      }
      await page.getByRole('button', { name: 'Submit answers' }).focus();
      await Promise.all([page.waitForURL(/\/r\//), page.keyboard.press('Enter')]);
      const main = (await page.locator('main').textContent()) ?? '';
      expect(main.replace(/\s+/g, ' ')).toContain('Mercury, Venus, Earth, Mars');
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
    'a position given twice is named in the error summary, and the positions chosen are kept',
    async () => {
      const url = await publish('en', PLANETS);
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(url);
      await startByKeyboard(page);
      const selects = page.locator('select.order-position');
      for (let i = 0; i < PLANETS.length; i += 1) {
        await selects.nth(i).focus();
        await page.keyboard.type('1');
      }
      await page.getByRole('button', { name: 'Submit answers' }).focus();
      await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
      await page.waitForSelector('.error-summary');
      await expect(page.locator('.error-summary').textContent()).resolves.toContain('different position');
      const kept = await selects.evaluateAll((all) =>
        all.map((s) => (s as unknown as { selectedIndex: number }).selectedIndex),
      );
      expect(kept).toEqual([1, 1, 1, 1]);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );

  test(
    'in Arabic, right to left: no sideways scroll at 390 px, 44 px targets, no serious axe finding',
    async () => {
      const url = await publish('ar', PLANETS_AR);
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(url);
      await startByKeyboard(page);
      await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
      await expect(page.locator('select.order-position').count()).resolves.toBe(4);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await smallTargets(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await expect(page.locator('main').textContent()).resolves.toContain('أعطِ كل عنصر ترتيبه');
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );
});
