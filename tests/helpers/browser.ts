// A real Chromium (Debian's package, driven by playwright-core: no browser downloads here).
// Suites that need it are skipped visibly when it is missing, unless REQUIRE_BROWSER=1.
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const ARTIFACTS_DIR = path.resolve(__dirname, '..', '..', 'test-artifacts');

export function describeWithBrowser(name: string, fn: () => void): void {
  if (fs.existsSync(CHROMIUM_PATH)) {
    describe(name, fn);
    return;
  }
  if (process.env.REQUIRE_BROWSER === '1') {
    throw new Error(`REQUIRE_BROWSER=1 but no Chromium at ${CHROMIUM_PATH} (apt-get install chromium)`);
  }
  describe.skip(
    `${name}: skipped: no Chromium at ${CHROMIUM_PATH}; apt-get install chromium, or set CHROMIUM_PATH`,
    fn,
  );
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-dev-shm-usage',
    ],
  });
}

/** Keeps a full-page screenshot under test-artifacts/ (not committed) for a person to look at. */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(ARTIFACTS_DIR, { recursive: true });
  const file = path.join(ARTIFACTS_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** A new page logged in to the dashboard as `user`, at `width` px, light or dark. */
export async function loggedInPage(
  browser: Browser,
  baseUrl: string,
  user: { email: string; password: string },
  width: number,
  dark = false,
): Promise<Page> {
  const context = await browser.newContext({
    viewport: { width, height: 900 },
    colorScheme: dark ? 'dark' : 'light',
  });
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`);
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(/\/dashboard$/);
  return page;
}

/** Whether the page is wider than its viewport (it would scroll sideways). */
export const scrollsSideways = (page: Page) =>
  page.evaluate<boolean>('document.documentElement.scrollWidth > document.documentElement.clientWidth');
