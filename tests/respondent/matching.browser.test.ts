// A matching question on the public form in Chromium: each prompt has its own labelled select of
// every match, so it is answered with the keyboard alone (Tab to a select, type a match's first
// letters); a prompt left empty stays empty, and those chosen stay chosen, after an error; nothing
// scrolls sideways at 390 px, in English or Arabic; each select is a target of at least 44 px; and
// axe finds nothing serious at 390 and 1280 px.
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, scrollsSideways } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const BROWSER_TIMEOUT_MS = 90_000;

// No match starts as the empty choice ("Choose…") does, so typing a match's first letters picks it.
const CAPITALS = {
  en: {
    text: 'Match each capital city to its country, a text long enough to wrap on a phone screen',
    pairs: [
      { prompt: 'Paris', match: 'France' },
      { prompt: 'Rome', match: 'Italy' },
      { prompt: 'Lisbon', match: 'Portugal' },
    ],
    extra_matches: [{ label: 'Spain' }],
  },
  ar: {
    text: 'طابق كل عاصمة مع بلدها، مع نص طويل بما يكفي ليلتف على شاشة الهاتف',
    pairs: [
      { prompt: 'باريس', match: 'فرنسا' },
      { prompt: 'روما', match: 'إيطاليا' },
      { prompt: 'لشبونة', match: 'البرتغال' },
    ],
    extra_matches: [{ label: 'إسبانيا' }],
  },
};
const RIGHT: Record<string, string> = { Paris: 'France', Rome: 'Italy', Lisbon: 'Portugal' };

describeWithBrowser('a matching question on the public form', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'matching-browser')).apiKey);
    browser = await launchBrowser();
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  const publish = async (language: 'en' | 'ar', extra: { withTypedQuestion?: boolean } = {}) => {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: language === 'ar' ? 'العواصم' : 'Capitals',
        questions: [
          { type: 'matching', ...CAPITALS[language] },
          ...(extra.withTypedQuestion
            ? [{ type: 'short_text', text: 'Capital of Peru?', accepted_answers: ['Lima'] }]
            : []),
        ],
        settings: {
          language,
          collect_name: false,
          show_correct_answers: 'after_submit',
          require_all_answers: Boolean(extra.withTypedQuestion),
        },
      }),
    );
    return payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id })).public_url as string;
  };

  /** Every match select is at least 44 px each way. */
  const smallTargets = (page: Page) =>
    page.$$eval('select.match-choice', (selects) =>
      selects
        .map((select) => select.getBoundingClientRect())
        .filter((box) => box.width < 44 || box.height < 44)
        .map((box) => `${box.width}x${box.height}`),
    );

  /** Each prompt's label and the text of its chosen option, in the order shown. */
  const chosen = (page: Page) =>
    page.$$eval('select.match-choice', (selects) =>
      selects.map((select) => {
        const s = select as unknown as {
          labels: { textContent: string | null }[];
          selectedIndex: number;
          selectedOptions: { textContent: string | null }[];
        };
        return [
          s.labels[0]?.textContent?.trim() ?? '',
          s.selectedIndex === 0 ? null : (s.selectedOptions[0]?.textContent?.trim() ?? ''),
        ];
      }),
    );

  /** Starts the attempt with the keyboard: focus Start, Enter. */
  async function startByKeyboard(page: Page) {
    const start = page.getByRole('button', { name: /^(Start|ابدأ)$/ });
    if ((await start.count()) === 0) return;
    await start.focus();
    await Promise.all([page.waitForURL(/attempt=/), page.keyboard.press('Enter')]);
  }

  /** Tabs on to the next match select; its label. */
  async function tabToSelect(page: Page): Promise<string> {
    await page.keyboard.press('Tab');
    while (
      !(await page.evaluate<boolean>("Boolean(document.activeElement?.matches('select.match-choice'))"))
    ) {
      await page.keyboard.press('Tab');
    }
    return page.evaluate<string>("document.activeElement.labels?.[0]?.textContent?.trim() ?? ''");
  }

  const focusedChoice = (page: Page) =>
    page.evaluate<string | undefined>('document.activeElement.selectedOptions[0]?.textContent?.trim()');

  test(
    'answered by keyboard alone at 390 px: Tab to each prompt, type its match, submit with Space; scored',
    async () => {
      const url = await publish('en');
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(url);
      await startByKeyboard(page);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await smallTargets(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);

      // The group is named by its question and described by the hint; each select by its prompt,
      // and each offers the empty choice and every match, the distractor included.
      const group = page.getByRole('group', { name: /Match each capital city/ });
      await expect(group.getAttribute('aria-describedby')).resolves.toMatch(/hint-/);
      for (const prompt of Object.keys(RIGHT)) {
        const select = group.getByRole('combobox', { name: prompt });
        await expect(select.count()).resolves.toBe(1);
        const options = (await select.locator('option').allTextContents()).map((label) => label.trim());
        expect([...options].sort()).toEqual(['Choose…', 'France', 'Italy', 'Portugal', 'Spain']);
      }

      await page.locator('body').focus();
      for (let filled = 0; filled < 3; filled += 1) {
        const prompt = await tabToSelect(page);
        const match = RIGHT[prompt];
        expect(match).toBeDefined();
        await page.keyboard.type(match!.slice(0, 3));
        // What a screen reader reads for the focused select: the match chosen.
        await expect(focusedChoice(page)).resolves.toBe(match);
      }
      await page.getByRole('button', { name: 'Submit answers' }).focus();
      await Promise.all([page.waitForURL(/\/r\//), page.keyboard.press('Space')]);
      const main = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
      for (const [prompt, match] of Object.entries(RIGHT)) expect(main).toContain(`${prompt} → ${match}`);
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
    'after an error the prompts matched stay matched and the one left empty stays empty; then submitted',
    async () => {
      const url = await publish('en', { withTypedQuestion: true });
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(url);
      await startByKeyboard(page);
      // Paris and Rome matched (Rome wrongly), Lisbon left empty; the typed question left blank.
      await page.getByRole('combobox', { name: 'Paris' }).focus();
      await page.keyboard.type('Fra');
      await page.getByRole('combobox', { name: 'Rome' }).focus();
      await page.keyboard.type('Spa');
      const before = await chosen(page);
      expect(new Map(before as [string, string | null][])).toEqual(
        new Map([
          ['Paris', 'France'],
          ['Rome', 'Spain'],
          ['Lisbon', null],
        ]),
      );
      await page.getByRole('button', { name: 'Submit answers' }).focus();
      await Promise.all([page.waitForLoadState('load'), page.keyboard.press('Enter')]);
      await page.waitForSelector('.error-summary');
      expect(page.url()).not.toMatch(/\/r\//);
      // The same prompts in the same order, each with what was chosen, Lisbon still empty.
      expect(await chosen(page)).toEqual(before);
      expect(await seriousViolations(page)).toEqual([]);

      await page.getByRole('combobox', { name: 'Lisbon' }).focus();
      await page.keyboard.type('Por');
      await page.getByRole('textbox', { name: /Capital of Peru/ }).fill('Lima');
      await page.getByRole('button', { name: 'Submit answers' }).focus();
      await Promise.all([page.waitForURL(/\/r\//), page.keyboard.press('Enter')]);
      const main = ((await page.locator('main').textContent()) ?? '').replace(/\s+/g, ' ');
      expect(main).toContain('Paris → France');
      expect(main).toContain('Rome → Spain');
      expect(main).toContain('Lisbon → Portugal');
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
      await expect(page.locator('select.match-choice').count()).resolves.toBe(3);
      await expect(page.getByRole('combobox', { name: 'باريس' }).count()).resolves.toBe(1);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await smallTargets(page)).toEqual([]);
      expect(await seriousViolations(page)).toEqual([]);
      await expect(page.locator('main').textContent()).resolves.toContain('اختر المطابق الصحيح لكل عنصر');
      await page.setViewportSize({ width: 1280, height: 800 });
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );
});
