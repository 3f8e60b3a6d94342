// Formulas and code in a real Chromium: a quiz an assistant wrote with TeX in a question, its
// options, its explanation and its description shows typeset MathML (laid out, with a size) on
// the public page and on the review after submitting, under the pages' CSP with nothing refused,
// and axe-core finds nothing serious. Screenshots go to test-artifacts/ for a person to look at.
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, screenshot } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const BROWSER_TIMEOUT_MS = 60_000;

// The page's own function, called inside page.evaluate (the tests compile without the DOM's types).
declare const getComputedStyle: (node: unknown) => { direction: string; fontFamily: string };

/** Each <math> on the page, with its laid-out size. */
const mathBoxes = (page: Page, selector: string) =>
  page.locator(`${selector} math`).evaluateAll((nodes) =>
    nodes.map((node) => {
      const box = node.getBoundingClientRect();
      return { width: box.width, height: box.height, dir: getComputedStyle(node).direction };
    }),
  );

/** [role, name] of each node of those roles in Chromium's accessibility tree, in page order. */
async function accessibleNames(page: Page, roles: string[]): Promise<Array<[string, string]>> {
  const cdp = await page.context().newCDPSession(page);
  const tree = (await cdp.send('Accessibility.getFullAXTree')) as {
    nodes: Array<{ role?: { value: string }; name?: { value: string } }>;
  };
  await cdp.detach();
  return tree.nodes
    .filter((node) => roles.includes(node.role?.value ?? ''))
    .map((node) => [node.role!.value, node.name?.value ?? '']);
}

describeWithBrowser('maths and code on the public pages', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'maths')).apiKey);
    browser = await launchBrowser();
  }, BROWSER_TIMEOUT_MS);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  test(
    'the form and the review show typeset formulas and code, with no CSP refusal and no serious axe finding',
    async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'Roots and fractions',
          description: 'Remember: \\[\\sqrt{a}\\cdot\\sqrt{b} = \\sqrt{ab}\\] It costs $5 and $10 to enter.',
          questions: [
            {
              type: 'multiple_choice',
              text: 'What is \\(\\sqrt{2}\\cdot\\sqrt{8}\\)?',
              options: [
                { label: '\\(4\\)', score: 1 },
                { label: '\\(\\frac{16}{2}\\)', score: 0 },
                { label: '\\(2\\sqrt{2}\\)', score: 0 },
              ],
              explanation:
                'Since \\(\\sqrt{2}\\cdot\\sqrt{8} = \\sqrt{16} = 4\\), and \\(\\color{green}{4}\\) is whole.',
            },
            {
              type: 'yes_no',
              text: 'Does `print(2 ** 3)` print 8? See also \\(\\frac{1\\).',
              points: 1,
              correct_answer: 'yes',
            },
          ],
          settings: { collect_name: false, show_correct_answers: 'after_submit' },
        }),
      );
      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));

      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const refused: string[] = [];
      page.on('console', (message) => {
        if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text());
      });
      await page.goto(published.public_url);

      // The description (one displayed formula), the question text and three options: typeset and laid out.
      const form = await mathBoxes(page, 'main');
      expect(form).toHaveLength(5);
      for (const box of form) {
        expect(box.width).toBeGreaterThan(0);
        expect(box.height).toBeGreaterThan(0);
        expect(box.dir).toBe('ltr');
      }
      await expect(page.locator('.quiz-description math[display="block"]').count()).resolves.toBe(1);
      await expect(page.locator('.quiz-description').innerText()).resolves.toContain('It costs $5 and $10');
      // An option's formula is its radio's accessible name.
      await expect(page.getByRole('radio', { name: '4', exact: true }).count()).resolves.toBe(1);
      // Code as code; the formula that does not parse as its source.
      const code = page.locator('.question-text code');
      await expect(code.innerText()).resolves.toBe('print(2 ** 3)');
      await expect(code.evaluate((node) => getComputedStyle(node).fontFamily)).resolves.toMatch(/mono/i);
      await expect(page.locator('.formula-source').innerText()).resolves.toBe('\\(\\frac{1\\)');
      // No <script> or link came from the texts.
      await expect(page.locator('main script, main a[href^="javascript"]').count()).resolves.toBe(0);
      // Chromium's own accessible names (what a screen reader is given): a formula names its control.
      const names = await accessibleNames(page, ['radio', 'radiogroup']);
      expect(names.filter(([role]) => role === 'radio').map(([, name]) => name)).toEqual([
        '4',
        '\\frac{16}{2}',
        '2\\sqrt{2}',
        'Yes',
        'No',
      ]);
      expect(names.find(([role]) => role === 'radiogroup')![1]).toContain(
        'What is \\sqrt{2}\\cdot\\sqrt{8} ?',
      );
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'maths-quiz-page');

      await page.getByRole('radio', { name: '4', exact: true }).check();
      await page.getByRole('radio', { name: 'Yes' }).check();
      await Promise.all([
        page.waitForURL(/\/r\//),
        page.getByRole('button', { name: 'Submit answers' }).click(),
      ]);

      // The review: question text, the chosen option, the right answer and the explanation's two formulas.
      const review = await mathBoxes(page, '.review');
      expect(review.length).toBeGreaterThanOrEqual(5);
      for (const box of review) {
        expect(box.width).toBeGreaterThan(0);
        expect(box.height).toBeGreaterThan(0);
      }
      await expect(page.locator('.review-explanation math').count()).resolves.toBe(2);
      await expect(page.locator('.review-explanation math [mathcolor]').count()).resolves.toBe(1);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'maths-review-page');
      expect(refused).toEqual([]);
      await context.close();

      // The answers as strings keep the source.
      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
      expect(JSON.stringify(results)).toContain('\\\\(4\\\\)');
    },
    BROWSER_TIMEOUT_MS * 2,
  );

  test(
    'on an Arabic page, code and formulas read left to right',
    async () => {
      const quiz = payload(
        await callTool(client, 'create_quiz', {
          title: 'اختبار',
          questions: [{ type: 'short_text', text: 'ما ناتج `print(1 + 2)` و \\(1+2\\)؟' }],
          settings: { collect_name: false, language: 'ar' },
        }),
      );
      const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
      const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      await page.goto(published.public_url);
      await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
      await expect(
        page.locator('.question-text code').evaluate((node) => getComputedStyle(node).direction),
      ).resolves.toBe('ltr');
      const [math] = await mathBoxes(page, '.question-text');
      expect(math).toMatchObject({ dir: 'ltr' });
      expect(math!.width).toBeGreaterThan(0);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'maths-arabic-page');
      await context.close();
    },
    BROWSER_TIMEOUT_MS,
  );
});
