// Settings > Learning platforms (LTI) in Chromium, as an owner uses it: reach it from the menu,
// register a platform by hand with a field refused (the error summary's link leads to the field,
// the values typed are kept), by keyboard; make a registration URL and see it once; remove the
// platform after the page that asks. axe-core finds nothing serious on the page, the form with its
// errors or the question, light and dark, at phone and desktop widths, and none scrolls sideways.
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

const TIMEOUT = 90_000;

describeWithBrowser('learning platforms (LTI) on the dashboard in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let owner: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
    owner = await createTestUser(app, 'browser-lti');
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const loggedIn = (width: number, dark = false) => loggedInPage(browser, app.baseUrl, owner, width, dark);

  async function fillByHand(page: Page, issuer: string) {
    await page.getByLabel('Name', { exact: true }).fill('School Moodle');
    await page.getByLabel('Issuer (platform ID)').fill(issuer);
    await page.getByLabel('Client ID').fill('abc123');
    await page.getByLabel('Deployment IDs').fill('1\n7');
    await page.getByLabel('Authentication request URL').fill('https://moodle.example.org/mod/lti/auth.php');
    await page.getByLabel('Access token URL').fill('https://moodle.example.org/mod/lti/token.php');
    await page
      .getByLabel('Public keyset URL (JWKS)', { exact: true })
      .fill('https://moodle.example.org/mod/lti/certs.php');
  }

  async function checkAll(page: Page, where: string) {
    expect({ where, violations: await seriousViolations(page) }).toEqual({ where, violations: [] });
    expect({ where, sideways: await scrollsSideways(page) }).toEqual({ where, sideways: false });
  }

  test(
    'register by hand (a field refused first), make a registration URL seen once, remove; axe at 390 and 1280 px',
    async () => {
      const page = await loggedIn(390);
      // At phone width the links fold behind the Menu button.
      await page.getByText('Menu', { exact: true }).click();
      await page.getByRole('link', { name: 'LTI', exact: true }).click();
      await page.getByRole('heading', { name: 'Learning platforms (LTI)', level: 1 }).waitFor();
      await fillByHand(page, 'http://moodle.example.org');
      await page.getByRole('button', { name: 'Register the platform' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('alert').filter({ hasText: 'There is a problem' }).waitFor();
      const issuer = page.getByLabel('Issuer (platform ID)');
      expect(await issuer.getAttribute('aria-invalid')).toBe('true');
      expect(await page.getByLabel('Client ID').inputValue()).toBe('abc123');
      expect(await page.getByLabel('Deployment IDs').inputValue()).toBe('1\n7');
      await checkAll(page, 'refused form at 390');
      await screenshot(page, 'lti-refused-390');
      // The summary's link leads to the field.
      await page.getByRole('link', { name: /Issuer \(platform ID\) must be an https/ }).click();
      await expect(page.evaluate('document.activeElement?.id')).resolves.toBe('issuer');
      await issuer.fill('https://moodle.example.org');
      await page.getByRole('button', { name: 'Register the platform' }).click();
      await page
        .getByRole('status')
        .filter({ hasText: 'The platform “School Moodle” is registered.' })
        .waitFor();

      await page.getByRole('button', { name: 'Make a registration URL' }).click();
      await page.getByRole('heading', { name: 'Your registration URL' }).waitFor();
      expect((await page.locator('#registration-url').textContent())!.trim()).toMatch(
        /\/lti\/register\/[\w-]{43}$/,
      );
      await checkAll(page, 'registration URL at 390');
      await screenshot(page, 'lti-registration-url-390');
      await page.reload();
      await page.getByRole('heading', { name: 'Learning platforms (LTI)', level: 1 }).waitFor();
      expect(await page.locator('#registration-url').count()).toBe(0);
      await page.context().close();

      for (const [width, dark] of [
        [390, true],
        [1280, false],
        [1280, true],
      ] as const) {
        const checked = await loggedIn(width, dark);
        await checked.goto(`${app.baseUrl}/settings/lti`);
        await checkAll(checked, `list at ${width}${dark ? ' dark' : ''}`);
        if (width === 1280 && !dark) await screenshot(checked, 'lti-platforms-1280');
        await checked.context().close();
      }

      const remover = await loggedIn(1280);
      await remover.goto(`${app.baseUrl}/settings/lti`);
      await remover.getByRole('button', { name: 'Remove School Moodle' }).click();
      await remover.getByRole('heading', { name: 'Remove “School Moodle”?' }).waitFor();
      await checkAll(remover, 'remove question at 1280');
      await remover.getByRole('button', { name: 'Remove the platform' }).click();
      await remover.getByText('You have no learning platforms registered.').waitFor();
      await remover.context().close();
    },
    TIMEOUT * 2,
  );
});
