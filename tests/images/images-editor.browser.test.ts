// A picture added in the quiz editor by keyboard alone, in Chromium at 390 and 1280 px: the file
// field is reached by Tab and opened with Space, Upload is pressed with Enter, the page comes back
// at the picture's alt text, which is typed and saved with Enter; the picture is shown with its
// alt text, the page does not scroll sideways, and axe finds nothing serious or critical.
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import {
  describeWithBrowser,
  launchBrowser,
  loggedInPage,
  screenshot,
  scrollsSideways,
} from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import { solidPng } from './fixtures';

const TIMEOUT = 120_000;

/** What the test reads of a loaded <img> in the page. */
type Picture = { complete: boolean; naturalWidth: number };
const focusedId = (page: Page) => page.evaluate('document.activeElement?.id');

describeWithBrowser('pictures in the quiz editor, in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let owner: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
    owner = await createTestUser(app, 'browser-pictures');
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  for (const width of [390, 1280]) {
    test(
      `upload a picture with its alt text by keyboard at ${width} px`,
      async () => {
        const page = await loggedInPage(browser, app.baseUrl, owner, width);
        await page.goto(`${app.baseUrl}/dashboard/quizzes/new`);
        const title = `Pictures ${width}`;
        await page.getByLabel('Title').fill(title);
        await page.getByLabel('Question', { exact: true }).fill('Which colour is this?');

        // From the question's text, Tab reaches the picture's file field; Space opens the chooser.
        await page.locator('#questions-0-text').focus();
        await page.keyboard.press('Tab');
        expect(await focusedId(page)).toBe('questions-0-image_file');
        const chooser = page.waitForEvent('filechooser');
        await page.keyboard.press('Space');
        await (
          await chooser
        ).setFiles({ name: 'red.png', mimeType: 'image/png', buffer: await solidPng(1200, 800) });
        // Past the alt text field, Upload.
        await page.keyboard.press('Tab');
        await page.keyboard.press('Tab');
        expect(await page.evaluate('document.activeElement?.textContent?.trim()')).toMatch(/^Upload/);
        await page.keyboard.press('Enter');
        await page.waitForURL(/#questions-0-image_alt$/);

        // The page came back at the alt text, the picture shown beside it.
        expect(await focusedId(page)).toBe('questions-0-image_alt');
        const preview = page.locator('.picture-current img');
        await preview.waitFor();
        expect(
          await preview.evaluate(
            (img) => (img as unknown as Picture).complete && (img as unknown as Picture).naturalWidth,
          ),
        ).toBe(1200);
        expect(await scrollsSideways(page)).toBe(false);
        expect(await seriousViolations(page)).toEqual([]);
        await screenshot(page, `editor-picture-upload-${width}`);

        await page.keyboard.type('A red rectangle');
        await page.keyboard.press('Enter');
        await page.getByText('is saved as a draft').waitFor();
        const quiz = await app.database.prisma.quiz.findFirst({
          where: { ownerId: owner.id, title },
          include: { questions: true },
        });
        expect(quiz!.questions[0]!.media).toMatchObject({
          image: { alt: 'A red rectangle', width: 1200, height: 800, format: 'png' },
        });
        const shown = page.locator('.question-image img').first();
        await shown.waitFor();
        expect(await shown.getAttribute('alt')).toBe('A red rectangle');
        expect(
          await shown.evaluate(
            (img) => (img as unknown as Picture).complete && (img as unknown as Picture).naturalWidth > 0,
          ),
        ).toBe(true);

        // The editor shows the stored picture with its alt text.
        await page.goto(`${app.baseUrl}/dashboard/quizzes/${quiz!.id}/edit`);
        await page.locator('.picture-current img[alt="A red rectangle"]').waitFor();
        expect(await scrollsSideways(page)).toBe(false);
        expect(await seriousViolations(page)).toEqual([]);
        await page.close();
      },
      TIMEOUT,
    );
  }
});
