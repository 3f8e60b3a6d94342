// Pictures in Chromium: a question's and two options' pictures on the public form fit a 390 px
// phone without sideways scroll, keep their space while loading (width and height set), carry
// their alt text, open full size through a link, and leave no serious axe finding at 390 and
// 1280 px. The in-chat view is given our origin as its one resource domain (mcp-apps.test.ts).
import type { Browser } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, scrollsSideways } from '../helpers/browser';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { solidJpeg, solidPng } from './fixtures';

const BROWSER_TIMEOUT_MS = 60_000;

describeWithBrowser('pictures on the public form', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;
  let publicUrl: string;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'images-browser')).apiKey);
    browser = await launchBrowser();
    const b64 = (bytes: Buffer) => bytes.toString('base64');
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Shapes and colours',
        questions: [
          {
            type: 'multiple_choice',
            text: 'Which colour is the wide banner?',
            image: { alt: 'A wide red banner', data: b64(await solidPng(1800, 600, '#b22')) },
            options: [
              {
                label: 'Red',
                score: 1,
                image: { alt: 'Red swatch', data: b64(await solidPng(120, 120, '#b22')) },
              },
              { label: 'Blue', image: { alt: 'Blue swatch', data: b64(await solidJpeg(120, 120)) } },
              { label: 'Green' },
            ],
          },
          { type: 'yes_no', text: 'Is a square a rectangle?' },
        ],
      }),
    );
    publicUrl = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id })).public_url;
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  test.each([390, 1280])(
    'at %i px: every picture shown whole within the page, with its alt text and size, axe clean',
    async (width) => {
      const context = await browser.newContext({ viewport: { width, height: 844 } });
      const page = await context.newPage();
      await page.goto(publicUrl);
      await page.waitForLoadState('load');
      expect(await scrollsSideways(page)).toBe(false);
      // Read in the page, as a string: the tests compile without the DOM's types.
      const pictures = await page.evaluate(`[...document.querySelectorAll('main img')].map((image) => {
        const box = image.getBoundingClientRect();
        return {
          alt: image.alt,
          width: image.getAttribute('width'),
          height: image.getAttribute('height'),
          loaded: image.complete && image.naturalWidth > 0,
          fits: box.right <= document.documentElement.clientWidth + 0.5 && box.left >= 0,
          ratio: Math.round((box.width / box.height) * 10) / 10,
          link: image.closest('a')?.getAttribute('href') ?? null,
        };
      })`);
      expect(pictures).toEqual([
        {
          alt: 'A wide red banner',
          width: '1600',
          height: '533',
          loaded: true,
          fits: true,
          ratio: 3,
          link: expect.stringMatching(/^\/images\/[0-9a-f]{64}\.png$/),
        },
        { alt: 'Red swatch', width: '120', height: '120', loaded: true, fits: true, ratio: 1, link: null },
        { alt: 'Blue swatch', width: '120', height: '120', loaded: true, fits: true, ratio: 1, link: null },
      ]);
      // An option's picture is part of its label: choosing by the picture chooses the option.
      await expect(page.getByRole('radio', { name: /Blue.*Blue swatch/ }).count()).resolves.toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );
});
