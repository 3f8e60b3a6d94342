// The kept link in Chromium, at 390 and 1280 px with axe: a student submits an essay quiz, sees
// the score "so far" and the kept link (a selectable field, a copy button, a QR code, all reached
// by Tab); the teacher grades the essay on the dashboard; the student reaches the final grade with
// its rubric levels and comment from the kept link and by reopening the quiz's own link.
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, screenshot, scrollsSideways } from '../helpers/browser';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { csrfFrom, logIn, newAgent, type Agent } from '../dashboard/dashboard-helpers';

const ESSAY = {
  type: 'essay',
  text: 'Should homework be banned? Argue your case.',
  rubric: [
    {
      criterion: 'Thesis',
      levels: [
        { label: 'none', points: 0 },
        { label: 'vague', points: 1 },
        { label: 'clear', points: 2 },
      ],
    },
  ],
};
const CAPITAL = { type: 'yes_no', text: 'Is Lima the capital of Peru?', points: 2, correct_answer: 'yes' };

describeWithBrowser('the kept link in Chromium', () => {
  let app: TestApp;
  let client: AnyClient;
  let owner: Agent;
  let browser: Browser;

  beforeAll(async () => {
    app = await startTestApp();
    const user = await createTestUser(app, 'kept-browser');
    client = await connectClient(app, user.apiKey);
    owner = newAgent(app);
    expect((await logIn(owner, user.email, user.password)).status).toBe(303);
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  /** What Tab reaches from the top of the page, in order: each element's id or text. */
  async function tabStops(page: Page, count: number): Promise<string[]> {
    await page.evaluate('document.activeElement && document.activeElement.blur()');
    const stops: string[] = [];
    for (let i = 0; i < count; i += 1) {
      await page.keyboard.press('Tab');
      stops.push(
        await page.evaluate<string>(
          "(() => { const el = document.activeElement; return el ? (el.id || el.textContent || '').replace(/\\s+/g, ' ').trim() : ''; })()",
        ),
      );
    }
    return stops;
  }

  /** The teacher's final grade through the dashboard's grading walk. */
  async function gradeOnDashboard(quizId: string, essayId: string) {
    const walk = `/dashboard/quizzes/${quizId}/grading/questions/${essayId}`;
    const answer = await app.database.prisma.answer.findFirstOrThrow({ where: { questionId: essayId } });
    const saved = await owner
      .post(`/dashboard/quizzes/${quizId}/grading/answers/${answer.id}`)
      .type('form')
      .send({
        _csrf: csrfFrom((await owner.get(walk)).text),
        walk: `question:${essayId}`,
        level_0: '2',
        feedback: 'Well argued: cite a study next time.',
      });
    expect(saved.status).toBe(303);
  }

  for (const width of [390, 1280]) {
    test(`at ${width} px: so far and the kept link, then the final grade from the link and from the quiz`, async () => {
      const created = payload(
        await callTool(client, 'create_quiz', {
          title: `Homework debate ${width}`,
          questions: [ESSAY, CAPITAL],
          settings: { collect_name: false, show_correct_answers: 'after_submit' },
        }),
      );
      await callTool(client, 'publish_quiz', { quiz_id: created.quiz_id });
      const [essayId] = created.questions.map((q: { question_id: string }) => q.question_id);
      const context = await browser.newContext({ viewport: { width, height: 900 } });
      const page = await context.newPage();

      await page.goto(`${app.baseUrl}/q/${created.slug}`);
      await page.getByLabel(ESSAY.text).fill('Homework should stay, because practice at home helps.');
      await page.getByRole('radio', { name: 'Yes' }).check();
      await page.getByRole('button', { name: 'Submit answers' }).click();
      await page.waitForURL(/\/r\//);

      // So far, with the review after_submit allows, and the kept link.
      await expect(page.locator('.score-max').innerText()).resolves.toMatch(/so far$/);
      await page.getByText('Waiting to be graded.').waitFor();
      const field = page.getByLabel('Your result link');
      const kept = await field.inputValue();
      expect(kept).toMatch(new RegExp(`^${app.baseUrl}/q/${created.slug}/result\\?key=[A-Za-z0-9_-]{32}$`));
      await expect(page.getByRole('img', { name: 'QR code of your result link' }).isVisible()).resolves.toBe(
        true,
      );
      const copy = page.getByRole('button', { name: 'Copy link' });
      await expect(copy.isVisible()).resolves.toBe(true);
      // Keyboard: the field, then the copy button, reached by Tab.
      const stops = await tabStops(page, 12);
      expect(stops).toContain('kept-url');
      expect(stops[stops.indexOf('kept-url') + 1]).toBe('Copy link');
      await copy.focus();
      await page.keyboard.press('Enter');
      // Copied (or, where the clipboard is refused, selected with the keys to press): said either way.
      await page
        .locator('.kept-link .copy-status')
        .filter({ hasText: /The link is on your clipboard\.|Press Ctrl\+C/ })
        .waitFor();
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `respondent-kept-link-pending-${width}`);

      await gradeOnDashboard(created.quiz_id, essayId);

      // The kept link: the final grade, levels and comment.
      await page.goto(kept);
      await page.getByText('Rubric:').waitFor();
      await expect(page.locator('.score-max').innerText()).resolves.toBe('out of 4');
      await expect(page.locator('.rubric-levels li').allInnerTexts()).resolves.toEqual([
        expect.stringMatching(/^Thesis:\s*clear \(2 of 2 points\)$/),
      ]);
      await expect(page.locator('.feedback-text').innerText()).resolves.toBe(
        'Well argued: cite a study next time.',
      );
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `respondent-kept-link-final-${width}`);

      // Reopening the quiz's own link in this browser: See your result, reached by Tab.
      await page.goto(`${app.baseUrl}/q/${created.slug}`);
      const see = page.getByRole('link', { name: 'See your result' });
      await expect(page.getByRole('link', { name: 'Take it again' }).isVisible()).resolves.toBe(true);
      await expect(page.getByRole('button', { name: 'Not you? Start fresh' }).isVisible()).resolves.toBe(
        true,
      );
      expect(await tabStops(page, 3)).toEqual(['See your result', 'Take it again', 'Not you? Start fresh']);
      expect(await scrollsSideways(page)).toBe(false);
      expect(await seriousViolations(page)).toEqual([]);
      await screenshot(page, `respondent-kept-link-returning-${width}`);
      await see.click();
      await page.getByText('Rubric:').waitFor();
      await expect(page.locator('.feedback-text').innerText()).resolves.toBe(
        'Well argued: cite a study next time.',
      );
      expect(page.url()).toBe(kept);
      await context.close();
    }, 120_000);
  }

  test('without script the kept link is a selectable field and no dead button', async () => {
    const created = payload(
      await callTool(client, 'create_quiz', {
        title: 'No script',
        questions: [CAPITAL],
        settings: { collect_name: false },
      }),
    );
    await callTool(client, 'publish_quiz', { quiz_id: created.quiz_id });
    const submitted = await request(app.app)
      .post(`/api/quizzes/${created.slug}/responses`)
      .send({ answers: [{ question_id: created.questions[0].question_id, answer: 'yes' }] });
    const context = await browser.newContext({
      javaScriptEnabled: false,
      viewport: { width: 390, height: 900 },
    });
    const page = await context.newPage();
    await page.goto(submitted.body.kept_result_url);
    await expect(page.getByLabel('Your result link').inputValue()).resolves.toBe(
      submitted.body.kept_result_url,
    );
    await expect(page.locator('button[data-copy-target]').isVisible()).resolves.toBe(false);
    await context.close();
  }, 60_000);
});
