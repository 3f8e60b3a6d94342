// A quiz taken as a class would, in a real Chromium with the page's clock moved (never waited
// for): the intro and Start, the timer counting down, the warning near the end and the form
// sending itself at zero; the not-yet-open page in the reader's own time zone, zone named; an
// Arabic quiz laid out right to left with no serious or critical axe-core finding.
import type { Browser } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, screenshot } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const TIMEOUT = 90_000;

describeWithBrowser('taking a timed, windowed or translated quiz in a browser', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'taking')).apiKey);
    browser = await launchBrowser();
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  async function publish(title: string, settings: Record<string, unknown>) {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title,
        description: 'Ten minutes of warm-up.',
        questions: [
          { type: 'yes_no', text: 'Is the Sun a star?', points: 2 },
          {
            type: 'multiple_choice',
            text: 'Which planet is largest?',
            options: [
              { label: 'Mars', score: 0 },
              { label: 'Jupiter', score: 3 },
            ],
          },
        ],
        settings: { collect_name: false, ...settings },
      }),
    );
    return payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id })) as {
      quiz_id: string;
      public_url: string;
    };
  }

  test(
    'intro, Start, the timer, the warning near the end, and the answers sent at zero',
    async () => {
      const quiz = await publish('Timed warm-up', { time_limit_minutes: 2, shuffle_options: true });
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.clock.install();
      await page.goto(quiz.public_url);
      const main = page.locator('main');
      await expect(main.innerText()).resolves.toMatch(
        /This quiz has 2 questions\.[\s\S]*Time allowed: 2 minutes\./,
      );
      await expect(main.innerText()).resolves.toContain('Ten minutes of warm-up.');
      await Promise.all([page.waitForURL(/\?attempt=/), page.getByRole('button', { name: 'Start' }).click()]);
      await expect(page.locator('#timer-value').innerText()).resolves.toBe('02:00');
      await page
        .getByRole('radiogroup', { name: /Sun a star/ })
        .getByText('Yes')
        .click();
      await page
        .getByRole('radiogroup', { name: /largest/ })
        .getByText('Jupiter')
        .click();

      await page.clock.runFor(61_000);
      await expect(page.locator('#timer-value').innerText()).resolves.toBe('00:59');
      await expect(page.locator('#timer-warning').innerText()).resolves.toBe(
        'Less than 1 minute left. Your answers are sent when the time runs out.',
      );
      await screenshot(page, 'respondent-timer-warning');
      await Promise.all([page.waitForURL(/\/r\//), page.clock.runFor(60_000)]);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('Your result');
      await expect(page.locator('.score').innerText()).resolves.toMatch(/5\s+out of 5/);
      const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
      expect(results.responses).toHaveLength(1);
      expect(results.responses[0].answers.map((a: { answer: string }) => a.answer)).toEqual([
        'yes',
        'Jupiter',
      ]);
      await context.close();
    },
    TIMEOUT,
  );

  test(
    'not open yet: the opening time in the reader’s own time zone, with the zone named, in the quiz’s language',
    async () => {
      const quiz = await publish('Later', { opens_at: '2030-01-01T00:00:00Z', language: 'de' });
      const context = await browser.newContext({ timezoneId: 'Asia/Tokyo' });
      const page = await context.newPage();
      await page.goto(quiz.public_url);
      await expect(page.locator('html').getAttribute('lang')).resolves.toBe('de');
      await expect(page.getByRole('heading', { level: 2 }).innerText()).resolves.toBe(
        'Dieses Quiz ist noch nicht geöffnet',
      );
      const when = await page.locator('time').innerText();
      expect(when).toContain('1. Januar 2030');
      expect(when).toContain('09:00');
      expect(when).toContain('Asia/Tokyo');
      await expect(page.getByRole('button').count()).resolves.toBe(0);
      await context.close();
    },
    TIMEOUT,
  );

  test(
    'an Arabic quiz reads right to left and axe-core finds nothing serious on its intro, form and result',
    async () => {
      const quiz = await publish('اختبار قصير', {
        language: 'ar',
        time_limit_minutes: 10,
        collect_email: true,
        max_attempts_per_email: 1,
      });
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.goto(quiz.public_url);
      await expect(page.locator('html').getAttribute('dir')).resolves.toBe('rtl');
      await expect(
        page.locator('main').evaluate((el) => (globalThis as any).getComputedStyle(el).direction),
      ).resolves.toBe('rtl');
      await expect(page.locator('main').innerText()).resolves.toContain('سؤالان');
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel('بريدك الإلكتروني').fill('student@example.com');
      await Promise.all([
        page.waitForURL(/\?attempt=/),
        page.getByRole('button', { name: 'ابدأ', exact: true }).click(),
      ]);
      await expect(page.locator('main').innerText()).resolves.toContain('الإرسال باسم student@example.com');
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, 'respondent-arabic-form');
      await page
        .getByRole('radiogroup', { name: /Sun a star/ })
        .getByText('نعم')
        .click();
      await page
        .getByRole('radiogroup', { name: /largest/ })
        .getByText('Jupiter')
        .click();
      await Promise.all([
        page.waitForURL(/\/r\//),
        page.getByRole('button', { name: 'إرسال الإجابات' }).click(),
      ]);
      await expect(page.getByRole('heading', { level: 1 }).innerText()).resolves.toBe('نتيجتك');
      expect(await seriousViolations(page)).toEqual([]);

      // One attempt per email: a second start with the same address, in other case, is refused at Start.
      await page.goto(quiz.public_url);
      await page.getByLabel('بريدك الإلكتروني').fill(' Student@Example.com ');
      await page.getByRole('button', { name: 'ابدأ', exact: true }).click();
      await expect(page.locator('.error-summary').innerText()).resolves.toContain(
        'استخدم student@example.com كل محاولاته',
      );
      await context.close();
    },
    TIMEOUT,
  );
});
