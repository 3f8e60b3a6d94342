// Settings > Webhooks in Chromium, by keyboard and mouse as an owner uses it: add an endpoint
// for one quiz, copy nothing but see the secret once, send a test event and read the receiver's
// answer, see the log; axe-core finds nothing serious on either page, light and dark, at phone
// and desktop widths, and neither scrolls sideways.
import type { Browser } from 'playwright-core';
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { seriousViolations } from '../helpers/axe';
import {
  describeWithBrowser,
  launchBrowser,
  screenshot,
  loggedInPage,
  scrollsSideways,
} from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import { startReceiver, verifiedSignatures, type Receiver } from '../webhooks/receiver';

const TIMEOUT = 90_000;

describeWithBrowser('webhooks on the dashboard in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let owner: TestUser;
  let receiver: Receiver;

  beforeAll(async () => {
    app = await startTestApp({ config: { webhooks: { allowLoopback: true, secretKey: undefined } } });
    browser = await launchBrowser();
    owner = await createTestUser(app, 'browser-hooks');
    receiver = await startReceiver();
    receiver.answer = () => ({ status: 200, body: '{"received":true}' });
  }, TIMEOUT);
  afterAll(async () => {
    await receiver?.close();
    await browser?.close();
    await app?.close();
  });

  const loggedIn = (width: number, dark = false) => loggedInPage(browser, app.baseUrl, owner, width, dark);

  test(
    'add an endpoint for one quiz, see the secret once, send a test event; pages pass axe at 390 and 1280 px',
    async () => {
      await createQuiz(app.deps, owner.id, {
        title: 'Chosen quiz',
        questions: [{ type: 'yes_no', text: 'One?' }],
      });
      const page = await loggedIn(1280);
      await page.getByRole('link', { name: 'Webhooks' }).click();
      await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
      await page.getByLabel('Endpoint URL').fill(receiver.url);
      await page.getByLabel('quiz.published').check();
      await page.getByLabel('Only the quizzes ticked below').check();
      await page.getByLabel('Chosen quiz').check();
      // By keyboard: focus the submit button and press Enter.
      await page.getByRole('button', { name: 'Add endpoint' }).focus();
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: /Signing secret for/ }).waitFor();
      const secret = (await page.locator('#new-secret-value').textContent())!.trim();
      expect(secret).toMatch(/^whsec_/);
      await screenshot(page, 'webhook-endpoint');
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.getByRole('heading', { name: /Test event: delivered, 200/ }).waitFor();
      expect(await page.locator('pre.snippet').textContent()).toBe('{"received":true}');
      expect(await page.locator('#new-secret-value').count()).toBe(0);
      expect(verifiedSignatures(receiver.received[0]!, secret)).toBe(1);
      const endpointUrl = page.url();
      await page.context().close();

      for (const [width, dark] of [
        [390, false],
        [390, true],
        [1280, false],
        [1280, true],
      ] as const) {
        const checked = await loggedIn(width, dark);
        for (const url of [`${app.baseUrl}/settings/webhooks`, endpointUrl]) {
          await checked.goto(url);
          const where = `${url} at ${width}${dark ? ' dark' : ''}`;
          expect({ where, violations: await seriousViolations(checked) }).toEqual({ where, violations: [] });
          expect({ where, sideways: await scrollsSideways(checked) }).toEqual({ where, sideways: false });
        }
        await checked.context().close();
      }
    },
    TIMEOUT * 2,
  );
});
