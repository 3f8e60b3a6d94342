// A grid on the public form in Chromium: a table at 1280 px and a card per row at 390 px (no
// sideways scroll, 44 px targets), answered with the keyboard alone (Tab to a row's group, the
// arrows along its columns, Space for a checkbox), in English and in Arabic, right to left, with
// no serious axe finding at either width.
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, scrollsSideways } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const BROWSER_TIMEOUT_MS = 90_000;

const WORDS = {
  en: {
    title: 'Capitals and flags',
    capitals: 'Which country is each city the capital of?',
    rows: ['Paris', 'Rome'],
    columns: ['France', 'Italy', 'Peru'],
    flags: 'Which colours are on each flag?',
    flagRows: ['Italy', 'Japan'],
    colours: ['Red', 'White', 'Green'],
    hint: 'Choose one answer in each row.',
  },
  ar: {
    title: 'العواصم والأعلام',
    capitals: 'ما البلد الذي كل مدينة عاصمته؟',
    rows: ['باريس', 'روما'],
    columns: ['فرنسا', 'إيطاليا', 'بيرو'],
    flags: 'ما الألوان التي على كل علم؟',
    flagRows: ['إيطاليا', 'اليابان'],
    colours: ['أحمر', 'أبيض', 'أخضر'],
    hint: 'اختر إجابة واحدة في كل صف.',
  },
};

describeWithBrowser('a grid on the public form', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'grid-browser')).apiKey);
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
            type: 'grid',
            text: words.capitals,
            items: words.rows.map((label) => ({ label })),
            columns: words.columns,
            right_columns: [[0], [1]],
          },
          {
            type: 'grid',
            text: words.flags,
            items: words.flagRows.map((label) => ({ label })),
            columns: words.colours,
            checkboxes: true,
            right_columns: [
              [0, 1, 2],
              [0, 1],
            ],
          },
        ],
        settings: { language, show_score_to_respondent: true },
      }),
    );
    return payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id })).public_url as string;
  };

  /** Every cell's target (its label) is at least 44 px each way. */
  const smallTargets = (page: Page) =>
    page.$$eval('label.grid-cell', (labels) =>
      labels
        .map((label) => label.getBoundingClientRect())
        .filter((box) => box.width < 44 || box.height < 44)
        .map((box) => `${box.width}x${box.height}`),
    );

  /** Tab until the focus is on a control of this type. */
  const tabTo = async (page: Page, type: 'radio' | 'checkbox') => {
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press('Tab');
      if ((await page.locator(':focus').getAttribute('type')) === type) return;
    }
    throw new Error(`no ${type} reached by Tab`);
  };

  /** Answers both grids by keyboard alone: Paris France, Rome Italy; Italy all three, Japan red. */
  const answerByKeyboard = async (page: Page, language: 'en' | 'ar') => {
    const words = WORDS[language];
    const name = page.locator('#respondent-name');
    if (await name.count()) await name.fill('Ada');
    // Row 1's group: Space picks its first column (France).
    await tabTo(page, 'radio');
    await page.keyboard.press('Space');
    // Tab leaves the row's group for the next row's: the arrow moves France to Italy.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press(language === 'ar' ? 'ArrowLeft' : 'ArrowRight');
    const cell = (row: string, column: string) =>
      page.getByRole('radio', { name: `${row} ${column}`, exact: true });
    await expect(cell(words.rows[0]!, words.columns[0]!).isChecked()).resolves.toBe(true);
    await expect(cell(words.rows[1]!, words.columns[1]!).isChecked()).resolves.toBe(true);
    // The checkboxes: each its own Tab stop, Space ticks.
    await tabTo(page, 'checkbox');
    // Italy's three, then Japan's first.
    for (let i = 0; i < 4; i++) {
      await page.keyboard.press('Space');
      await page.keyboard.press('Tab');
    }
    const box = (row: string, column: string) =>
      page.getByRole('checkbox', { name: `${row} ${column}`, exact: true });
    for (const colour of words.colours) {
      await expect(box(words.flagRows[0]!, colour).isChecked()).resolves.toBe(true);
    }
    await expect(box(words.flagRows[1]!, words.colours[0]!).isChecked()).resolves.toBe(true);
    await expect(box(words.flagRows[1]!, words.colours[1]!).isChecked()).resolves.toBe(false);
  };

  for (const language of ['en', 'ar'] as const) {
    for (const width of [390, 1280]) {
      test(
        `${language} at ${width} px: answered by keyboard alone, no serious axe finding`,
        async () => {
          const url = await publish(language);
          const context = await browser.newContext({ viewport: { width, height: 900 } });
          const page = await context.newPage();
          await page.goto(url);
          if (language === 'ar') await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
          expect(await scrollsSideways(page)).toBe(false);
          expect(await smallTargets(page)).toEqual([]);
          expect(await seriousViolations(page)).toEqual([]);
          await expect(page.locator('main').textContent()).resolves.toContain(WORDS[language].hint);
          // A table at 1280 px (its column headers shown), a card per row at 390 px.
          const header = page.locator('.grid-table thead').first();
          await expect(header.isVisible()).resolves.toBe(width === 1280);
          const cellLabel = page.locator('.grid-cell-label').first();
          await expect(cellLabel.isVisible()).resolves.toBe(width === 390);

          await answerByKeyboard(page, language);
          const submit = page.locator('form.quiz-form button[type="submit"]').last();
          await submit.focus();
          await Promise.all([page.waitForURL(/\/r\//), page.keyboard.press('Enter')]);
          // Paris and Rome right (2), Italy right and Japan wrong (1): 3 of 4.
          await expect(page.locator('.score-value').first().textContent()).resolves.toBe('3');
          await context.close();
        },
        BROWSER_TIMEOUT_MS,
      );
    }
  }
});
