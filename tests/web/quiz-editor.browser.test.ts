// An owner's quiz from start to end in Chromium: created in the editor with both question types,
// published, answered on its public page, edited after the confirmation, closed (the page says
// so, submissions are refused), reopened and deleted after the confirmation, each step checked
// in the database and on the pages. The new pages pass axe-core and do not scroll sideways at
// 390 px, light and dark; and a page on another origin frames a quiz with embedding on, but
// not one without it nor a dashboard page. Screenshots go to test-artifacts/.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import request from 'supertest';
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { publishQuiz } from '../../src/domain/quizzes/publish-quiz';
import { seriousViolations } from '../helpers/axe';
import {
  describeWithBrowser,
  launchBrowser,
  screenshot,
  loggedInPage,
  scrollsSideways,
} from '../helpers/browser';
import { eventually } from '../helpers/eventually';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';

const TIMEOUT = 90_000;

describeWithBrowser('the quiz editor in Chromium', () => {
  let app: TestApp;
  let browser: Browser;
  let owner: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
    owner = await createTestUser(app, 'browser-editor');
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  const loggedIn = (width: number, dark = false) => loggedInPage(browser, app.baseUrl, owner, width, dark);

  const quizRow = (title: string) =>
    app.database.prisma.quiz.findFirst({
      where: { ownerId: owner.id, title },
      include: { questions: { orderBy: { position: 'asc' } } },
    });

  test(
    'create, publish, answer, edit after confirming, close, reopen, delete',
    async () => {
      const page = await loggedIn(1280);
      await page.goto(`${app.baseUrl}/dashboard/quizzes`);
      await page.getByRole('link', { name: 'New quiz' }).click();
      await page.getByLabel('Title').fill('Browser quiz');
      await page.getByLabel('Question', { exact: true }).fill('Is water wet?');
      await page.getByRole('button', { name: 'Add a multiple-choice question' }).click();
      await page.locator('#questions-1-text').fill('Pick the planet');
      await page.locator('#questions-1-options-0-label').fill('Mars');
      await page.locator('#questions-1-options-0-score').fill('2');
      await page.locator('#questions-1-options-1-label').fill('Moon');
      await page.locator('#questions-1-explanation').fill('The Moon is a satellite.');
      await page.getByRole('button', { name: 'Add a tick-all-that-apply question' }).click();
      await page.locator('#questions-2-text').fill('Which are gas giants?');
      await page.locator('#questions-2-options-0-label').fill('Jupiter');
      await page.locator('#questions-2-options-1-label').fill('Saturn');
      await page.locator('#questions-2-options-1-score').fill('1');
      await page.getByRole('button', { name: 'Add a typed-answer question' }).click();
      await page.locator('#questions-3-text').fill('Name the red planet');
      await page.locator('#questions-3-accepted_answers').fill('Mars\nthe red planet');
      await page.getByRole('button', { name: 'Add a number question' }).click();
      await page.locator('#questions-4-text').fill('How many moons has Mars?');
      await page.locator('#questions-4-correct_number').fill('2');
      await screenshot(page, 'quiz-editor-1280');
      await page.getByRole('button', { name: 'Create the quiz' }).first().click();
      await page.getByText('is saved as a draft').waitFor();
      let quiz = await quizRow('Browser quiz');
      expect(quiz).toMatchObject({ status: 'draft' });
      expect(quiz!.questions.map((q) => q.type)).toEqual([
        'yes_no',
        'multiple_choice',
        'multiple_select',
        'short_text',
        'number',
      ]);
      expect(quiz!.questions[3]!.key).toMatchObject({ acceptedAnswers: ['Mars', 'the red planet'] });
      expect(quiz!.questions[4]!.key).toMatchObject({ correctNumber: 2, tolerance: 0 });
      const options = (quiz!.questions[1]!.key as { options: Array<{ label: string; score: number }> })
        .options;
      expect(options.map((o) => [o.label, o.score])).toEqual([
        ['Mars', 2],
        ['Moon', 0],
      ]);

      await page.getByRole('button', { name: 'Publish' }).click();
      await page.getByText('is published').first().waitFor();
      expect((await quizRow('Browser quiz'))!.status).toBe('published');
      await screenshot(page, 'quiz-share-panel-1280');
      const publicUrl = `${app.baseUrl}/q/${quiz!.slug}`;
      expect((await page.locator('#share-link').innerText()).trim()).toBe(publicUrl);

      // A respondent answers on the public page.
      const respondent = await browser.newPage();
      await respondent.goto(publicUrl);
      await respondent.getByLabel('Your name').fill('Ana');
      await respondent.getByText('Yes', { exact: true }).click();
      await respondent.getByText('Mars', { exact: true }).click();
      await respondent.getByRole('checkbox', { name: 'Saturn' }).check();
      await respondent.getByRole('textbox', { name: /red planet/ }).fill('mars');
      await respondent.getByRole('textbox', { name: /moons/ }).fill('2');
      await respondent.getByRole('button', { name: /submit/i }).click();
      await respondent.waitForURL(/\/r\//);
      // Yes (1) + Mars (2) + Saturn ticked (1; Jupiter's default 1 left unticked) + "mars" accepted (1)
      // + 2 moons (1) = 6, out of 1 + 2 + 2 + 1 + 1 = 7.
      const [response] = await app.database.prisma.response.findMany({ where: { quizId: quiz!.id } });
      expect(response).toMatchObject({ score: 6, maxScore: 7 });

      // An edit of the published quiz asks first, and keeps the question's id.
      const before = quiz!.questions.map((q) => q.id);
      await page.getByRole('link', { name: 'Edit the quiz' }).click();
      await page.getByLabel('Question', { exact: true }).first().fill('Is water really wet?');
      await page.getByRole('button', { name: 'Save changes' }).first().click();
      await page.locator('.error-summary').getByText('Past responses keep their scores').waitFor();
      expect((await quizRow('Browser quiz'))!.questions[0]!.text).toBe('Is water wet?');
      expect(await page.getByLabel('Question', { exact: true }).first().inputValue()).toBe(
        'Is water really wet?',
      );
      await page.getByLabel('Change the published quiz').check();
      await page.getByRole('button', { name: 'Save changes' }).first().click();
      await page.getByText('are saved').waitFor();
      quiz = await quizRow('Browser quiz');
      expect(quiz!.questions[0]!.text).toBe('Is water really wet?');
      expect(quiz!.questions.map((q) => q.id)).toEqual(before);

      // Close: the page says so and a submission is refused; then reopen.
      await page.getByRole('button', { name: 'Close responses' }).click();
      await page.getByRole('button', { name: 'Reopen responses' }).waitFor();
      expect((await quizRow('Browser quiz'))!.acceptingResponses).toBe(false);
      await respondent.goto(publicUrl);
      await respondent.getByRole('heading', { name: 'This quiz is closed' }).waitFor();
      expect(
        (await request(app.app).post(`/q/${quiz!.slug}`).type('form').send({ name: 'Late' })).status,
      ).toBe(409);
      await page.getByRole('button', { name: 'Reopen responses' }).click();
      await page.getByRole('button', { name: 'Close responses' }).waitFor();
      expect((await quizRow('Browser quiz'))!.acceptingResponses).toBe(true);
      await respondent.goto(publicUrl);
      await respondent.getByLabel('Your name').waitFor();

      // Delete after the confirmation, which names what goes.
      await page.getByRole('link', { name: 'Delete', exact: true }).click();
      await page.getByText('with its 5 questions and its 1 response').waitFor();
      expect(await quizRow('Browser quiz')).not.toBeNull();
      await page.getByRole('button', { name: 'Delete the quiz' }).click();
      await page.getByText('Deleted "Browser quiz"').waitFor();
      expect(await quizRow('Browser quiz')).toBeNull();
      expect(await app.database.prisma.response.count({ where: { quizId: quiz!.id } })).toBe(0);
      await respondent.goto(publicUrl);
      expect(await respondent.title()).toMatch(/not found/i);
      await respondent.context().close();
      await page.context().close();
    },
    TIMEOUT,
  );

  test(
    'the new pages pass axe-core and fit a phone, light and dark; the menu opens by keyboard',
    async () => {
      const made = await createQuiz(app.deps, owner.id, {
        title: 'Checked quiz',
        questions: [
          { type: 'yes_no', text: 'One?' },
          {
            type: 'multiple_choice',
            text: 'Two?',
            options: [
              { label: 'A', score: 1 },
              { label: 'B', score: 0 },
            ],
          },
        ],
        settings: { allow_embedding: true },
      });
      await publishQuiz(app.deps, owner.id, made.quiz_id);
      const base = `${app.baseUrl}/dashboard/quizzes`;
      const paths = [`/new`, `/${made.quiz_id}`, `/${made.quiz_id}/edit`, `/${made.quiz_id}/delete`, ''];
      for (const [width, dark] of [
        [390, false],
        [390, true],
        [1280, false],
        [1280, true],
      ] as const) {
        const page = await loggedIn(width, dark);
        for (const path of paths) {
          await page.goto(`${base}${path}`);
          const where = `${path || '/'} at ${width}${dark ? ' dark' : ''}`;
          expect({ where, violations: await seriousViolations(page) }).toEqual({ where, violations: [] });
          expect({ where, sideways: await scrollsSideways(page) }).toEqual({ where, sideways: false });
        }
        const nav = page.getByRole('navigation', { name: 'Main' });
        if (width === 390) {
          await screenshot(page, `quiz-list-390${dark ? '-dark' : ''}`);
          expect(await nav.getByRole('link', { name: 'Quizzes' }).isVisible()).toBe(false);
          await nav.locator('summary').focus();
          await page.keyboard.press('Enter');
          await nav.getByRole('link', { name: 'Quizzes' }).waitFor({ state: 'visible' });
        } else {
          // One line at 1280 px: every link on the brand's row, the email not cut to nothing.
          const tops = await page.evaluate<number[]>(
            `[...document.querySelectorAll('header.site nav a, header.site nav .nav-user, header.site nav button')]` +
              `.filter((n) => n.offsetParent).map((n) => n.getBoundingClientRect().top)`,
          );
          expect(Math.max(...tops) - Math.min(...tops)).toBeLessThan(16);
          expect(await nav.locator('summary').isVisible()).toBe(false);
        }
        await page.context().close();
      }
    },
    TIMEOUT,
  );

  test(
    'another origin frames a quiz with embedding on, and neither one without it nor a dashboard page',
    async () => {
      const on = await createQuiz(app.deps, owner.id, {
        title: 'Embeddable',
        questions: [{ type: 'yes_no', text: 'Framed?' }],
        settings: { allow_embedding: true },
      });
      const off = await createQuiz(app.deps, owner.id, {
        title: 'Not embeddable',
        questions: [{ type: 'yes_no', text: 'Framed?' }],
      });
      const onPage = await publishQuiz(app.deps, owner.id, on.quiz_id);
      const offPage = await publishQuiz(app.deps, owner.id, off.quiz_id);
      const site = http.createServer((req, res) => {
        const src = new URL(req.url ?? '/', 'http://x').searchParams.get('src') ?? '';
        res.setHeader('Content-Type', 'text/html');
        res.end(`<!doctype html><title>Embed</title><iframe src="${src.replace(/"/g, '&quot;')}"></iframe>`);
      });
      await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
      const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
      const page = await loggedIn(1280);
      const framed = async (src: string) => {
        await page.goto(`${origin}/?src=${encodeURIComponent(src)}`);
        const frame = await eventually(() => page.frames().find((f) => f !== page.mainFrame()), {
          until: (found) => Boolean(found?.url()) && found?.url() !== 'about:blank',
        });
        await frame!.waitForLoadState();
        return frame!;
      };
      try {
        const shown = await framed(onPage.public_url!);
        await shown.getByRole('heading', { name: 'Embeddable' }).waitFor();
        for (const src of [offPage.public_url!, `${app.baseUrl}/dashboard`]) {
          const refused = await framed(src);
          expect({ src, url: refused.url() }).toEqual({ src, url: expect.stringMatching(/^chrome-error:/) });
        }
      } finally {
        await page.context().close();
        await new Promise<void>((resolve) => site.close(() => resolve()));
      }
    },
    TIMEOUT,
  );
});
