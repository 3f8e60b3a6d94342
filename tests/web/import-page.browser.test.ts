// The dashboard's import in a real Chromium, by keyboard alone: an owner goes from the quiz list
// to the import form, chooses a Moodle XML file, reads the preview's table and imports; axe-core
// finds nothing serious or critical on the form and the preview at 390 and 1280 px, and neither
// scrolls sideways on a phone.
import path from 'node:path';
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

jest.setTimeout(120_000);

const BANK = path.join(__dirname, '../fixtures/import/bank.moodle.xml');

/** Presses Tab until the focus is on `selector`: the control is reached by keyboard alone. */
async function tabTo(page: Page, selector: string): Promise<void> {
  for (let presses = 0; presses < 60; presses += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate<boolean>(`document.activeElement?.matches(${JSON.stringify(selector)}) ?? false`))
      return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

describeWithBrowser('importing questions in a browser', () => {
  let app: TestApp;
  let browser: Browser;
  let owner: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
    owner = await createTestUser(app, 'browser-import');
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  test('by keyboard: the list, the form with a Moodle XML file, the preview table, the import', async () => {
    const page = await loggedInPage(browser, app.baseUrl, owner, 1280);
    await page.goto(`${app.baseUrl}/dashboard/quizzes`);
    await tabTo(page, 'a[href="/dashboard/quizzes/import"]');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${app.baseUrl}/dashboard/quizzes/import`);
    expect(await seriousViolations(page)).toEqual([]);

    await tabTo(page, '#title');
    await page.keyboard.type('Capitals from Moodle');
    await tabTo(page, '#file');
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Space')]);
    await chooser.setFiles(BANK);
    await tabTo(page, 'button[type="submit"]:not(.link)');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/quizzes\/import\/preview\?upload=upl_/);
    const previewUrl = page.url();

    await page.getByRole('heading', { name: 'Check the import' }).waitFor();
    const table = page.getByRole('table');
    await table.getByRole('columnheader', { name: 'What is lost' }).waitFor();
    const first = table.getByRole('row').filter({ hasText: 'What is the capital of Italy?' });
    expect(await first.getByRole('cell').nth(0).textContent()).toContain('line 6');
    expect(await first.textContent()).toContain('formatting (HTML)');
    expect(await table.getByRole('row').filter({ hasText: '{a} + {b}?' }).textContent()).toContain(
      'Cannot be imported',
    );
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'import-preview-1280');

    // The button names the questions that can be imported, so leaving out the rest is ticked
    // already: the first press imports them (it used to answer with an error until ticked).
    expect(await page.locator('#skip_unusable').isChecked()).toBe(true);
    await tabTo(page, 'form[action$="/confirm"] button[type="submit"]');
    expect(await page.evaluate<string>('document.activeElement?.textContent')).toBe('Import 9 questions');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/dashboard\/quizzes\/[\w-]+$/);
    await page
      .getByRole('status')
      .filter({ hasText: 'Imported 9 questions into “Capitals from Moodle”.' })
      .waitFor();
    await page.getByRole('heading', { name: 'Capitals from Moodle' }).waitFor();
    expect(await page.locator('ol.questions > li').count()).toBe(9);

    // A phone: the form and the same preview (the upload is still kept), each checked by axe.
    const phone = await loggedInPage(browser, app.baseUrl, owner, 390);
    for (const url of [`${app.baseUrl}/dashboard/quizzes/import`, previewUrl]) {
      await phone.goto(url);
      expect([url, await seriousViolations(phone)]).toEqual([url, []]);
      expect([url, await scrollsSideways(phone)]).toEqual([url, false]);
    }
    await screenshot(phone, 'import-preview-390');
    await phone.context().close();
    await page.context().close();
  });

  test('a refused bank: the error summary takes the focus and says what to fix', async () => {
    const page = await loggedInPage(browser, app.baseUrl, owner, 390);
    await page.goto(`${app.baseUrl}/dashboard/quizzes/import`);
    await page.locator('#title').fill('Broken');
    await page.locator('#text').fill('Q1 {=a ~b}\n\nQ2 is {=open ~never closed\n');
    await page.getByRole('button', { name: 'Check the questions' }).click();
    const summary = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await summary.waitFor();
    expect(await summary.textContent()).toContain('line 3: the answers open with { but never close');
    expect(await page.evaluate<boolean>("document.activeElement?.classList.contains('error-summary')")).toBe(
      true,
    );
    expect(await seriousViolations(page)).toEqual([]);
    expect(await scrollsSideways(page)).toBe(false);
    await page.context().close();
  });
});
