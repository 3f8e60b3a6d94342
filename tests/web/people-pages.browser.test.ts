// The pages people use, in Chromium: from the home page, a newcomer signs up in the middle of
// connecting an assistant (keyboard only) and ends on the client's redirect with a code; the
// results page draws its charts from a known data set, at phone and desktop width, light and
// dark; and axe-core finds no serious or critical accessibility violation on any of the pages.
// Screenshots go to test-artifacts/.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, screenshot } from '../helpers/browser';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { authorizationParams, authorizePath, registerPublicClient } from '../oauth/oauth-helpers';
import request from 'supertest';

const TIMEOUT = 90_000;

describeWithBrowser('the pages people use', () => {
  let app: TestApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });

  async function newPage(options: {
    width: number;
    dark?: boolean;
  }): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({
      viewport: { width: options.width, height: 900 },
      colorScheme: options.dark ? 'dark' : 'light',
    });
    return { context, page: await context.newPage() };
  }

  test(
    'from the home page: connect an assistant, sign up in the middle of its consent by keyboard, end on its redirect with a code',
    async () => {
      const { context, page } = await newPage({ width: 1280 });
      let closeCallback: () => Promise<void> = async () => undefined;
      try {
        await page.goto(`${app.baseUrl}/`);
        await screenshot(page, 'home-1280');
        expect(await seriousViolations(page)).toEqual([]);
        await page.getByRole('link', { name: 'Claude Code' }).click();
        await expect(page.locator('#snippet-claude-code').innerText()).resolves.toBe(
          `claude mcp add --transport http quiz ${app.baseUrl}/api/mcp`,
        );
        await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
        const copy = page.locator('#connect-claude-code').getByRole('button', { name: 'Copy' });
        await copy.click();
        await page
          .locator('#connect-claude-code .copy-status', { hasText: 'Copied.' })
          .waitFor({ timeout: 5_000 });
        await expect(page.evaluate('navigator.clipboard.readText()')).resolves.toBe(
          `claude mcp add --transport http quiz ${app.baseUrl}/api/mcp`,
        );

        // The assistant's part: its callback (a local server, as a desktop client runs), its
        // registration, then the person sent to the consent.
        const callback = http.createServer((_req, res) =>
          res.end('<title>Connected</title><p>Connected.</p>'),
        );
        await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
        closeCallback = () => new Promise<void>((resolve) => callback.close(() => resolve()));
        const redirectUri = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
        const client = await registerPublicClient(app, { redirect_uris: [redirectUri] });
        const { params, verifier } = authorizationParams(client);
        await page.goto(`${app.baseUrl}${authorizePath(params)}`);
        await expect(page.getByRole('heading', { name: 'Log in' })).toBeTruthy();
        expect(page.url()).toContain('/login?returnTo=');
        // No account yet: the header's Sign up link keeps the way back to the consent.
        await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Sign up' }).click();
        await page.getByRole('heading', { name: 'Create your account' }).waitFor();
        await screenshot(page, 'signup-during-consent');
        expect(await seriousViolations(page)).toEqual([]);

        // Keyboard alone: focus the email field, type, Tab to the password, type, Enter.
        await page.getByLabel('Email').focus();
        await page.keyboard.type('newcomer@example.com');
        await page.keyboard.press('Tab');
        await page.keyboard.type('a long enough password');
        await page.keyboard.press('Enter');
        const allow = page.getByRole('button', { name: 'Allow' });
        await allow.waitFor();
        await screenshot(page, 'consent-after-signup');
        expect(await seriousViolations(page)).toEqual([]);
        await allow.focus();
        await page.keyboard.press('Enter');
        await page.waitForURL(`${redirectUri}?**`);
        const redirect = new URL(page.url());
        expect(redirect.searchParams.get('state')).toBe(params.state);
        const code = redirect.searchParams.get('code');
        expect(code).toMatch(/^qac_/);

        // The code works: a token, then a tool call as the new account.
        const token = await request(app.app).post('/oauth/token').type('form').send({
          grant_type: 'authorization_code',
          code: code!,
          code_verifier: verifier,
          redirect_uri: client.redirectUri,
          client_id: client.clientId,
        });
        expect(token.status).toBe(200);
        const listed = await request(app.app)
          .post('/api/mcp')
          .set('Authorization', `Bearer ${token.body.access_token}`)
          .set('Content-Type', 'application/json')
          .set('Accept', 'application/json')
          .send(
            JSON.stringify({
              jsonrpc: '2.0',
              id: 1,
              method: 'tools/call',
              params: { name: 'list_quizzes', arguments: {} },
            }),
          );
        expect(JSON.parse(listed.body.result.content[0].text)).toEqual({ quizzes: [], next_cursor: null });
      } finally {
        await context.close();
        await closeCallback();
      }
    },
    TIMEOUT,
  );

  describe('a quiz with known results', () => {
    let owner: Awaited<ReturnType<typeof createTestUser>>;
    let mcp: AnyClient;
    let quiz: { quiz_id: string; slug: string; public_url: string };
    let resultUrl: string;

    beforeAll(async () => {
      owner = await createTestUser(app, 'charts');
      mcp = await connectClient(app, owner.apiKey);
      const created = payload(
        await callTool(mcp, 'create_quiz', {
          title: 'Charts check',
          questions: [
            { type: 'yes_no', text: 'Is water wet?', points: 2 },
            {
              type: 'multiple_choice',
              text: 'Capital of Italy?',
              options: [
                { label: 'Rome', score: 3 },
                { label: 'Milan', score: 0 },
              ],
            },
          ],
          settings: { pass_mark_percent: 60 },
        }),
      );
      quiz = payload(await callTool(mcp, 'publish_quiz', { quiz_id: created.quiz_id }));
      // Three say yes and one no; two pick Rome and two Milan. Scores: 5, 5, 2, 0 of 5.
      const answers: Array<['yes' | 'no', number]> = [
        ['yes', 0],
        ['yes', 0],
        ['yes', 1],
        ['no', 1],
      ];
      const questions = payload(
        await callTool(mcp, 'get_quiz_questions', { quiz_id: quiz.quiz_id }),
      ).questions;
      for (const [index, [yesNo, option]] of answers.entries()) {
        const res = await request(app.app)
          .post(`/api/quizzes/${quiz.slug}/responses`)
          .send({
            respondent: { name: `Person ${index + 1}` },
            answers: [
              { question_id: questions[0].question_id, answer: yesNo },
              { question_id: questions[1].question_id, option_index: option },
            ],
          });
        expect(res.status).toBe(201);
        resultUrl = res.body.result_url;
      }
    }, TIMEOUT);
    afterAll(async () => {
      await mcp?.close();
    });

    async function ownerPage(width: number, dark = false, section = 'questions') {
      const opened = await newPage({ width, dark });
      await opened.page.goto(`${app.baseUrl}/login`);
      await opened.page.getByLabel('Email').fill(owner.email);
      await opened.page.getByLabel('Password').fill(owner.password);
      await opened.page.getByRole('button', { name: 'Log in' }).click();
      await opened.page.waitForURL(/\/dashboard/);
      await opened.page.goto(`${app.baseUrl}/dashboard/quizzes/${quiz.quiz_id}/results/${section}`);
      return opened;
    }

    test(
      'the results page draws each answer distribution and the score histogram with the pass mark',
      async () => {
        const { context, page } = await ownerPage(1280);
        try {
          const charts = page.locator('svg.answers-chart');
          await expect(charts.count()).resolves.toBe(2);
          // Bars are proportional to their counts: yes 3 is the longest, no 1 a third of it.
          const widths = async (chart: number) =>
            charts
              .nth(chart)
              .locator('rect.chart-bar')
              .evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('width'))));
          const [yes, no] = await widths(0);
          expect(no! / yes!).toBeCloseTo(1 / 3, 1);
          const [rome, milan] = await widths(1);
          expect(rome).toBe(milan);
          await expect(charts.nth(0).getAttribute('aria-label')).resolves.toBe(
            'Answers to “Is water wet?”: Yes 3 (75%), No 1 (25%)',
          );
          // Scores 0..5 one column each; 3 and up pass the 60% mark (3 of 5), on the summary.
          await page
            .getByRole('navigation', { name: 'Results' })
            .getByRole('link', { name: 'Summary' })
            .click();
          const histogram = page.locator('svg.histogram');
          const columns = await histogram
            .locator('rect.chart-bar')
            .evaluateAll((rects) =>
              rects.map((r) => [r.getAttribute('class'), Number(r.getAttribute('height'))]),
            );
          expect(columns.map(([kind]) => kind)).toEqual([
            'chart-bar fail',
            'chart-bar fail',
            'chart-bar fail',
            'chart-bar pass',
            'chart-bar pass',
            'chart-bar pass',
          ]);
          const heights = columns.map(([, height]) => height as number);
          expect(heights[1]).toBe(0);
          expect(heights[5]).toBe(2 * heights[0]!); // two fives, one zero
          await expect(histogram.getAttribute('aria-label')).resolves.toContain('2 passed the 60% mark');
          await page.getByText('Scores as a table').click();
          await expect(page.locator('details[open] table tbody tr').count()).resolves.toBe(6);
          await screenshot(page, 'results-1280-light');
          expect(await seriousViolations(page)).toEqual([]);
        } finally {
          await context.close();
        }
        for (const [width, dark] of [
          [390, false],
          [390, true],
          [1280, true],
        ] as const) {
          const opened = await ownerPage(width, dark);
          try {
            // Nothing wider than the screen: the charts shrink with it.
            const overflow = (await opened.page.evaluate(
              'document.documentElement.scrollWidth - window.innerWidth',
            )) as number;
            expect(overflow).toBeLessThanOrEqual(0);
            if (dark) {
              const background = await opened.page.evaluate(
                'getComputedStyle(document.body).backgroundColor',
              );
              expect(background).toBe('rgb(13, 17, 23)');
            }
            await screenshot(opened.page, `results-${width}-${dark ? 'dark' : 'light'}`);
            expect(await seriousViolations(opened.page)).toEqual([]);
          } finally {
            await opened.context.close();
          }
        }
      },
      TIMEOUT,
    );

    test(
      'item analysis: a facility chart, a table sortable by flags from the keyboard, group shares in words',
      async () => {
        const { context, page } = await ownerPage(1280, false, 'items');
        try {
          await page.getByRole('heading', { name: 'Item analysis' }).waitFor();
          // Facility: yes earned by 3 of 4 (75%), Rome by 2 of 4 (50%).
          const bars = await page
            .locator('svg.facility-chart rect.chart-bar')
            .evaluateAll((rects) => rects.map((r) => Number(r.getAttribute('width'))));
          expect(bars[1]! / bars[0]!).toBeCloseTo(50 / 75, 1);
          const rows = page.locator('table.item-analysis > tbody > tr');
          const firstColumn = () =>
            rows
              .locator(':scope > th')
              .evaluateAll((cells) => cells.map((c) => c.querySelector('span[dir]')?.textContent?.trim()));
          expect((await rows.first().locator(':scope > td').first().textContent())?.trim()).toBe('75%');
          await expect(firstColumn()).resolves.toEqual(['Is water wet?', 'Capital of Italy?']);
          // Keyboard only: focus the sort link and press Enter.
          const link = page.getByRole('link', { name: 'flagged first' });
          await link.focus();
          await page.keyboard.press('Enter');
          await page.waitForURL(/order=flags/);
          await expect(
            page.getByText('flagged first', { exact: true }).getAttribute('aria-current'),
          ).resolves.toBe('true');
          const flagged = await page
            .locator('table.item-analysis > tbody > tr')
            .evaluateAll((all) => all.map((row) => row.querySelectorAll('ul.flags li').length));
          expect(flagged).toEqual([...flagged].sort((a, b) => b - a));
          await page.getByText('Top and bottom 27% of “Capital of Italy?”').click();
          await expect(page.locator('details.groups[open] tbody tr').count()).resolves.toBe(2);
          await screenshot(page, 'results-item-analysis');
          expect(await seriousViolations(page)).toEqual([]);
        } finally {
          await context.close();
        }
      },
      TIMEOUT,
    );

    test(
      'no serious or critical accessibility violation on any page a person uses',
      async () => {
        // A result page with the review of each answer (the quiz shows its key after submitting).
        await callTool(mcp, 'update_quiz', {
          quiz_id: quiz.quiz_id,
          confirm_edit_published: true,
          settings: { show_correct_answers: 'after_submit' },
        });
        const questions = payload(
          await callTool(mcp, 'get_quiz_questions', { quiz_id: quiz.quiz_id }),
        ).questions;
        const reviewed = await request(app.app)
          .post(`/api/quizzes/${quiz.slug}/responses`)
          .send({
            respondent: { name: 'Reviewer' },
            answers: [
              { question_id: questions[0].question_id, answer: 'no' },
              { question_id: questions[1].question_id, option_index: 1 },
            ],
          });
        expect(reviewed.body.review).toHaveLength(2);
        // A draft's page: its whole answer key and explanations, no chart yet.
        const draft = payload(
          await callTool(mcp, 'create_quiz', {
            title: 'Draft with a key',
            questions: [
              { type: 'short_text', text: 'Our star?', accepted_answers: ['Sun'], explanation: 'Sol.' },
              { type: 'number', text: 'Planets?', correct_number: 8, tolerance: 0.5 },
            ],
          }),
        );
        const pages: Array<[string, string, boolean]> = [
          ['respondent review', new URL(reviewed.body.result_url).pathname, false],
          ['home', '/', false],
          ['log in', '/login', false],
          ['sign up', '/signup', false],
          ['respondent form', new URL(quiz.public_url).pathname, false],
          ['respondent result', new URL(resultUrl).pathname, false],
          ['dashboard', '/dashboard', true],
          ['quizzes', '/dashboard/quizzes', true],
          ['draft quiz page', `/dashboard/quizzes/${draft.quiz_id}`, true],
          ['API keys', '/settings/security/api-keys', true],
          ['connected apps', '/settings/connected-apps', true],
          ['learning platforms (LTI)', '/settings/lti', true],
          ['account', '/account', true],
        ];
        const signedIn = await ownerPage(1280);
        const signedOut = await newPage({ width: 390 });
        try {
          const found: Record<string, string[]> = {};
          for (const [name, path, owner] of pages) {
            const page = owner ? signedIn.page : signedOut.page;
            await page.goto(`${app.baseUrl}${path}`);
            found[name] = await seriousViolations(page);
          }
          expect(found).toEqual(Object.fromEntries(pages.map(([name]) => [name, []])));
        } finally {
          await signedIn.context.close();
          await signedOut.context.close();
        }
      },
      TIMEOUT,
    );
  });
});
