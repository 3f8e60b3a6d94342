// The MCP Apps view in Chromium, rendered by the extension's own host side (AppBridge) from the
// running service: the page reads the view over MCP (relayed by this harness, since /api/mcp
// refuses a foreign Origin), shows it in a sandboxed frame and hands it a real tool result.
// Then it checks what a person sees: the questions of a draft and its Publish round trip into
// the database, the results' bars for a known data set, the quiz list's links opened through
// the host, and the dark theme. Screenshots at 360 and 1024 px, light and dark.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import type { Browser, FrameLocator, Page } from 'playwright-core';
import request from 'supertest';
import { describeWithBrowser, launchBrowser, screenshot } from '../helpers/browser';
import { eventually } from '../helpers/eventually';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { connectAnyClient, type AnyClient } from '../helpers/mcp-clients';
import { connectApp, loggedInAgent } from '../oauth/oauth-helpers';

const TIMEOUT = 90_000;

/**
 * Presses a button in the view from the keyboard (focus, then Enter). Playwright's mouse click
 * does not reach into this sandboxed srcdoc frame; the keyboard is a person's way too.
 */
async function press(button: ReturnType<FrameLocator['getByRole']>): Promise<void> {
  await button.focus();
  await button.press('Enter');
}

function hostScript(): string {
  const built = esbuild.buildSync({
    entryPoints: [path.join(__dirname, 'host-page.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
  });
  return built.outputFiles[0]!.text;
}

describeWithBrowser('the MCP Apps view in a host', () => {
  let app: TestApp;
  let client: AnyClient;
  let browser: Browser;
  let script: string;
  let draftId: string;
  let resultsId: string;

  beforeAll(async () => {
    app = await startTestApp();
    const owner = await createTestUser(app, 'apps-host');
    // The 2025 era, as most hosts speak it today.
    client = await connectAnyClient('v1 (2025)', app.baseUrl, owner.apiKey);
    browser = await launchBrowser();
    script = hostScript();

    draftId = (
      await client.callTool('create_quiz', {
        title: 'Space draft',
        questions: [
          { type: 'yes_no', text: 'Is the Moon a planet?', points: 0 },
          {
            type: 'multiple_choice',
            text: 'Largest planet?',
            options: [
              { label: 'Jupiter', score: 2 },
              { label: 'Mars', score: 0 },
            ],
          },
        ],
      })
    ).structuredContent!.quiz_id as string;

    const quiz = await client.callTool('create_quiz', {
      title: 'Known results',
      questions: [{ type: 'yes_no', text: 'Is water wet?', points: 1 }],
      settings: { pass_mark_percent: 50 },
    });
    resultsId = quiz.structuredContent!.quiz_id as string;
    const published = await client.callTool('publish_quiz', { quiz_id: resultsId });
    const slug = published.structuredContent!.slug as string;
    const questionId = (quiz.structuredContent!.questions as Array<{ question_id: string }>)[0]!.question_id;
    // Three yes, one no.
    for (const answer of ['yes', 'yes', 'yes', 'no']) {
      const res = await request(app.app)
        .post(`/api/quizzes/${slug}/responses`)
        .send({ respondent: { name: `R ${answer}` }, answers: [{ question_id: questionId, answer }] });
      expect(res.status).toBe(201);
    }
  }, TIMEOUT);
  afterAll(async () => {
    await browser?.close();
    await client?.close();
    await app?.close();
  });

  /** A host page of the given width and theme, its MCP requests relayed to the service; tools called as `caller`. */
  async function host(width: number, theme: 'light' | 'dark', caller = client): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: theme });
    const page = await context.newPage();
    await page.exposeFunction('relayMcp', async (method: string, params: any) => {
      if (method === 'tools/list') return client.listTools();
      if (method === 'resources/read') return client.readResource(params.uri);
      if (method === 'tools/call') return caller.callTool(params.name, params.arguments);
      throw new Error(`the test host relays no ${method}`);
    });
    await page.setContent(
      `<!doctype html><html><body><div id="host"></div><script>${script}</script></body></html>`,
    );
    return page;
  }

  function view(page: Page): FrameLocator {
    return page.frameLocator('iframe[title="Quiz service view"]');
  }

  async function show(page: Page, tool: string, args: Record<string, unknown>, theme: 'light' | 'dark') {
    await page.evaluate(
      ([name, input, mode]) =>
        (globalThis as unknown as { showTool: (...a: unknown[]) => Promise<void> }).showTool(
          name,
          input,
          mode,
        ),
      [tool, args, theme] as const,
    );
  }

  test(
    'a draft: its questions with their points, then Publish, confirmed, publishes it in the database',
    async () => {
      for (const [width, theme] of [
        [360, 'light'],
        [360, 'dark'],
        [1024, 'dark'],
      ] as const) {
        const shot = await host(width, theme);
        await show(shot, 'get_quiz_questions', { quiz_id: draftId }, theme);
        await view(shot).getByRole('heading', { name: 'Space draft' }).waitFor();
        await screenshot(shot, `mcp-app-preview-${width}-${theme}`);
        await shot.context().close();
      }
      const page = await host(1024, 'light');
      await show(page, 'get_quiz_questions', { quiz_id: draftId }, 'light');
      const frame = view(page);
      await frame.getByRole('heading', { name: 'Space draft' }).waitFor();
      await expect(frame.getByText('Draft', { exact: true }).count()).resolves.toBe(1);
      await expect(frame.getByText('Is the Moon a planet?').count()).resolves.toBe(1);
      await expect(frame.getByText('Jupiter · 2 pts').count()).resolves.toBe(1);
      await screenshot(page, 'mcp-app-preview-1024-light');

      await press(frame.getByRole('button', { name: 'Publish' }));
      await press(frame.getByRole('button', { name: 'Publish now' }));
      await frame.getByText('Published', { exact: true }).waitFor();
      const row = await app.database.prisma.quiz.findUniqueOrThrow({ where: { id: draftId } });
      expect(row.status).toBe('published');
      await page.context().close();
    },
    TIMEOUT,
  );

  test(
    'results: the summary and bars drawn from a known data set; Load more asks for the next page',
    async () => {
      for (const [width, theme] of [
        [1024, 'light'],
        [360, 'light'],
        [360, 'dark'],
        [1024, 'dark'],
      ] as const) {
        const page = await host(width, theme);
        await show(page, 'get_results', { quiz_id: resultsId, limit: 3 }, theme);
        const frame = view(page);
        await frame.getByRole('heading', { name: 'Known results' }).waitFor();
        await expect(frame.locator('.stats').innerText()).resolves.toMatch(
          /Responses\s+4[\s\S]*Pass rate\s+75%/,
        );
        const answers = frame.getByRole('list', { name: 'Answers to Is water wet?' });
        await expect(answers.locator('.bar-value').allInnerTexts()).resolves.toEqual(['3 (75%)', '1 (25%)']);
        const widths = await answers
          .locator('.fill')
          .evaluateAll((fills) =>
            fills.map((fill) => (fill as unknown as { style: { width: string } }).style.width),
          );
        expect(widths).toEqual(['100%', '33%']);
        // Item analysis: three of four earned the one question's points; one question has no alpha.
        await expect(frame.locator('table.item-analysis tbody tr').allInnerTexts()).resolves.toEqual([
          expect.stringMatching(/^Is water wet\?\s+75%\s+–\s+None$/),
        ]);
        await frame
          .getByText("Reliability (Cronbach's alpha): not computed. It needs at least 2 questions.")
          .waitFor();
        const spread = frame.getByRole('list', { name: 'Responses by percent scored' });
        await expect(spread.locator('.bar-value').allInnerTexts()).resolves.toEqual([
          '1 (25%)',
          ...Array.from({ length: 8 }, () => '0 (0%)'),
          '3 (75%)',
        ]);
        const background = await frame
          .locator('body')
          .evaluate((body) => (globalThis as any).getComputedStyle(body).backgroundColor);
        expect(background).toBe(theme === 'dark' ? 'rgb(13, 17, 23)' : 'rgb(255, 255, 255)');
        await screenshot(page, `mcp-app-results-${width}-${theme}`);
        if (width === 1024 && theme === 'light') {
          await expect(frame.locator('table:not(.item-analysis) tbody tr').count()).resolves.toBe(3);
          await press(frame.getByRole('button', { name: 'Load more' }));
          await frame.locator('table:not(.item-analysis) tbody tr').nth(3).waitFor();
          await expect(frame.locator('table:not(.item-analysis) tbody tr').count()).resolves.toBe(4);
          // The host's theme can change while it is shown.
          await page.evaluate(() =>
            (globalThis as unknown as { setTheme: (t: string) => void }).setTheme('dark'),
          );
          const background = await eventually(
            () =>
              frame
                .locator('body')
                .evaluate((body) => (globalThis as any).getComputedStyle(body).backgroundColor),
            { until: (colour) => colour === 'rgb(13, 17, 23)' },
          );
          expect(background).toBe('rgb(13, 17, 23)');
        }
        await page.context().close();
      }
    },
    TIMEOUT,
  );

  test(
    'essays waiting for a grade: the pending responses counted in the summary and said so in the list',
    async () => {
      const quiz = await client.callTool('create_quiz', {
        title: 'Essays to grade',
        questions: [
          { type: 'yes_no', text: 'Is the Sun a star?', points: 1 },
          { type: 'essay', text: 'Why does the Moon have phases?', points: 4 },
        ],
        settings: { require_all_answers: false },
      });
      const quizId = quiz.structuredContent!.quiz_id as string;
      const slug = (await client.callTool('publish_quiz', { quiz_id: quizId })).structuredContent!
        .slug as string;
      const [star, phases] = (quiz.structuredContent!.questions as Array<{ question_id: string }>).map(
        (question) => question.question_id,
      );
      // Two with an essay (pending), one leaving it out (final).
      for (const [name, essay] of [
        ['Ana', 'The Sun lights half of it.'],
        ['Ben', 'Its shadow, I think.'],
        ['Cy', null],
      ] as const) {
        const answers = [
          { question_id: star, answer: 'yes' },
          ...(essay ? [{ question_id: phases, text: essay }] : []),
        ];
        const res = await request(app.app)
          .post(`/api/quizzes/${slug}/responses`)
          .send({ respondent: { name }, answers });
        expect(res.status).toBe(201);
      }
      const page = await host(360, 'light');
      await show(page, 'get_results', { quiz_id: quizId }, 'light');
      const frame = view(page);
      await frame.getByRole('heading', { name: 'Essays to grade' }).waitFor();
      await expect(frame.locator('.stats').innerText()).resolves.toMatch(
        /Responses\s+3[\s\S]*Waiting for a grade\s+2 responses/,
      );
      const rows = await frame.locator('table:not(.item-analysis) tbody tr').allInnerTexts();
      const row = (name: string) => rows.find((text) => text.startsWith(name)) ?? '';
      expect(rows).toHaveLength(3);
      expect(row('Ana')).toMatch(/^Ana\s+1 \/ 5\s+Waiting for a grade/);
      expect(row('Ben')).toMatch(/^Ben\s+1 \/ 5\s+Waiting for a grade/);
      expect(row('Cy')).toMatch(/^Cy\s+1 \/ 5\s+/);
      expect(row('Cy')).not.toContain('Waiting');
      // The essay's chart says its waiting answers are answered, and the scores that they are so far.
      await expect(
        frame.locator('section.chart', { hasText: 'Why does the Moon have phases?' }).innerText(),
      ).resolves.toContain('2 awaiting a grade');
      await expect(frame.getByText('2 of these await a grade: scored so far.').count()).resolves.toBe(1);
      await screenshot(page, 'mcp-app-results-pending-360-light');
      await page.context().close();
    },
    TIMEOUT,
  );

  test(
    'scales alone: no score anywhere, each scale its distribution, mean, median and Net Promoter score',
    async () => {
      const quiz = await client.callTool('create_quiz', {
        title: 'Opinions only',
        questions: [
          {
            type: 'scale',
            text: 'Would you recommend us?',
            scale_min: 0,
            scale_max: 10,
            scale_labels: ['Not at all likely', 'Extremely likely'],
          },
        ],
      });
      const quizId = quiz.structuredContent!.quiz_id as string;
      const preview = await host(360, 'light');
      await show(preview, 'get_quiz_questions', { quiz_id: quizId }, 'light');
      const drawn = view(preview);
      await drawn.getByRole('heading', { name: 'Opinions only' }).waitFor();
      await drawn.getByText('1 question · no score: no question earns points').waitFor();
      await drawn
        .getByText('Opinion scale · 0 (Not at all likely) to 10 (Extremely likely) · unscored')
        .waitFor();
      await preview.context().close();

      const published = await client.callTool('publish_quiz', { quiz_id: quizId });
      const slug = published.structuredContent!.slug as string;
      const questionId = (quiz.structuredContent!.questions as Array<{ question_id: string }>)[0]!
        .question_id;
      // 10 and 9 promote, 7 is passive, 3 detracts: mean 29 / 4 = 7.25, median (7 + 9) / 2 = 8, NPS (2 - 1) / 4 = 25.
      for (const value of [10, 9, 7, 3]) {
        const res = await request(app.app)
          .post(`/api/quizzes/${slug}/responses`)
          .send({ respondent: { name: `R ${value}` }, answers: [{ question_id: questionId, value }] });
        expect(res.status).toBe(201);
      }
      const page = await host(360, 'light');
      await show(page, 'get_results', { quiz_id: quizId }, 'light');
      const frame = view(page);
      await frame.getByRole('heading', { name: 'Opinions only' }).waitFor();
      const stats = await frame.locator('.stats').innerText();
      expect(stats).toMatch(/Responses\s+4[\s\S]*Score\s+None: no question is scored/);
      expect(stats).not.toMatch(/Mean score|Pass rate/);
      await frame
        .getByText('Mean 7.3 · median 8 · Net Promoter score 25 (2 promoters, 1 passives, 1 detractors)')
        .waitFor();
      const bars = frame.getByRole('list', { name: 'Answers to Would you recommend us?' });
      await expect(bars.locator('.bar-value').allInnerTexts()).resolves.toEqual([
        ...Array.from({ length: 3 }, () => '0 (0%)'),
        '1 (25%)',
        ...Array.from({ length: 3 }, () => '0 (0%)'),
        '1 (25%)',
        '0 (0%)',
        '1 (25%)',
        '1 (25%)',
      ]);
      const text = await frame.locator('body').innerText();
      expect(text).not.toMatch(/Item analysis|Scores of the|0 \/ 0|pts/);
      await expect(frame.locator('table tbody tr td:nth-child(2)').allInnerTexts()).resolves.toEqual(
        Array.from({ length: 4 }, () => 'Not scored'),
      );
      await screenshot(page, 'mcp-app-results-scales-360-light');
      await page.context().close();
    },
    TIMEOUT,
  );

  test(
    'item analysis: a row for each question the figures describe, none for one worth nothing',
    async () => {
      const quiz = await client.callTool('create_quiz', {
        title: 'Scored and not',
        questions: [
          { type: 'yes_no', text: 'Is ice water?', points: 1 },
          // Collects text only: no key, worth nothing, whatever its type.
          { type: 'short_text', text: 'Anything to add?' },
          { type: 'scale', text: 'How sure are you?', scale_min: 1, scale_max: 5 },
        ],
      });
      const quizId = quiz.structuredContent!.quiz_id as string;
      const slug = (await client.callTool('publish_quiz', { quiz_id: quizId })).structuredContent!
        .slug as string;
      const [ice, comments, sure] = (quiz.structuredContent!.questions as Array<{ question_id: string }>).map(
        (question) => question.question_id,
      );
      for (const [answer, text, value] of [
        ['yes', 'No', 5],
        ['yes', 'Cold', 4],
        ['no', 'Hm', 2],
      ] as const) {
        const res = await request(app.app)
          .post(`/api/quizzes/${slug}/responses`)
          .send({
            respondent: { name: `R ${text}` },
            answers: [
              { question_id: ice, answer },
              { question_id: comments, text },
              { question_id: sure, value },
            ],
          });
        expect(res.status).toBe(201);
      }
      const page = await host(1024, 'light');
      await show(page, 'get_results', { quiz_id: quizId }, 'light');
      const frame = view(page);
      await frame.getByRole('heading', { name: 'Item analysis' }).waitFor();
      await expect(frame.locator('table.item-analysis tbody tr').allInnerTexts()).resolves.toEqual([
        expect.stringMatching(/^Is ice water\?\s+67%/),
      ]);
      await page.context().close();
    },
    TIMEOUT,
  );

  test(
    'formulas typeset by the server: the preview and the results show MathML; a malformed one and dollars stay text',
    async () => {
      const quiz = await client.callTool('create_quiz', {
        title: 'Roots in chat',
        questions: [
          {
            type: 'multiple_choice',
            text: 'What is \\(\\sqrt{2}\\cdot\\sqrt{8}\\)?',
            options: [
              { label: '\\(4\\)', score: 2 },
              { label: 'It costs $5 and $10', score: 0 },
            ],
          },
          { type: 'yes_no', text: 'Is \\(\\frac{1\\) written well?', points: 1, correct_answer: 'no' },
        ],
      });
      // The model's answer keeps the source; the typeset HTML rides in _meta for the view alone.
      expect(JSON.stringify(quiz.structuredContent)).not.toContain('<math');
      const meta = (quiz as { _meta?: Record<string, Record<string, string>> })._meta?.[
        'quiz-service/rich-text'
      ];
      expect(Object.keys(meta ?? {}).sort()).toEqual([
        'Is \\(\\frac{1\\) written well?',
        'What is \\(\\sqrt{2}\\cdot\\sqrt{8}\\)?',
        '\\(4\\)',
      ]);
      // A quiz without formulas carries none.
      const plain = await client.callTool('get_quiz_questions', { quiz_id: draftId });
      expect((plain as { _meta?: unknown })._meta).toBeUndefined();

      const quizId = quiz.structuredContent!.quiz_id as string;
      const shots = fs.mkdtempSync(path.join(os.tmpdir(), 'maths-view-'));
      try {
        const page = await host(1024, 'light');
        const refused: string[] = [];
        page.on('console', (message) => {
          if (/Content Security Policy|Refused/i.test(message.text())) refused.push(message.text());
        });
        await show(page, 'get_quiz_questions', { quiz_id: quizId }, 'light');
        const frame = view(page);
        await frame.getByRole('heading', { name: 'Roots in chat' }).waitFor();
        await expect(frame.locator('.question-text math').count()).resolves.toBe(1);
        await expect(frame.locator('.options li math').count()).resolves.toBe(1);
        const width = await frame
          .locator('.question-text math')
          .evaluate(
            (node) =>
              (node as unknown as { getBoundingClientRect(): { width: number } }).getBoundingClientRect()
                .width,
          );
        expect(width).toBeGreaterThan(0);
        await expect(frame.locator('.formula-source').innerText()).resolves.toBe('\\(\\frac{1\\)');
        await frame.getByText('It costs $5 and $10 · 0 pts').waitFor();
        await expect(frame.locator('body').innerText()).resolves.not.toContain('\\sqrt');
        const preview = path.join(shots, 'view-preview.png');
        await page.screenshot({ path: preview });
        expect(fs.statSync(preview).size).toBeGreaterThan(1000);

        const published = await client.callTool('publish_quiz', { quiz_id: quizId });
        const slug = published.structuredContent!.slug as string;
        const [choice, yesNo] = (quiz.structuredContent!.questions as Array<{ question_id: string }>).map(
          (question) => question.question_id,
        );
        const sent = await request(app.app)
          .post(`/api/quizzes/${slug}/responses`)
          .send({
            respondent: { name: 'Ada' },
            answers: [
              { question_id: choice, option_index: 0 },
              { question_id: yesNo, answer: 'no' },
            ],
          });
        expect(sent.status).toBe(201);
        await show(page, 'get_results', { quiz_id: quizId }, 'light');
        await frame.getByRole('heading', { name: 'Roots in chat' }).waitFor();
        await expect(frame.locator('.chart h3 math').count()).resolves.toBe(1);
        await expect(frame.locator('.bar-label math').count()).resolves.toBe(1);
        await expect(frame.locator('table.item-analysis th math').count()).resolves.toBe(1);
        const results = path.join(shots, 'view-results.png');
        await page.screenshot({ path: results, fullPage: true });
        expect(fs.statSync(results).size).toBeGreaterThan(1000);
        expect(refused).toEqual([]);
        await page.context().close();
      } finally {
        fs.rmSync(shots, { recursive: true, force: true });
      }
    },
    TIMEOUT,
  );

  test(
    'the quiz list: status and counts; a public link opens through the host',
    async () => {
      for (const [width, theme] of [
        [360, 'light'],
        [360, 'dark'],
        [1024, 'light'],
        [1024, 'dark'],
      ] as const) {
        const page = await host(width, theme);
        await show(page, 'list_quizzes', {}, theme);
        const frame = view(page);
        await frame.getByRole('heading', { name: 'Your quizzes' }).waitFor();
        const items = frame.locator('.quiz-list li');
        await expect(items.count()).resolves.toBeGreaterThanOrEqual(2);
        const known = items.filter({ hasText: 'Known results' });
        await expect(known.innerText()).resolves.toMatch(/Published[\s\S]*1 questions · 4 responses/);
        await press(known.getByRole('button', { name: 'Open' }));
        await page.waitForFunction(() => (globalThis as any).openedLinks.length === 1);
        const opened = await page.evaluate(() => (globalThis as any).openedLinks as string[]);
        expect(opened[0]).toMatch(new RegExp(`^${app.baseUrl}/q/known-results-`));
        await screenshot(page, `mcp-app-list-${width}-${theme}`);
        await page.context().close();
      }
    },
    TIMEOUT,
  );

  test(
    'a token that may only write: the questions drawn without their key, and the view says why',
    async () => {
      const { agent } = await loggedInAgent(app, 'apps-writer');
      const { tokens } = await connectApp(app, agent, { scope: 'quizzes:write' });
      const writer = await connectAnyClient('v1 (2025)', app.baseUrl, tokens.access_token);
      try {
        const page = await host(1024, 'light', writer);
        const questions = [
          { type: 'yes_no', text: 'Is ice cold?', points: 4 },
          {
            type: 'multiple_choice',
            text: 'Which is a gas?',
            options: [
              { label: 'Helium', score: 2 },
              { label: 'Iron', score: 0 },
            ],
          },
          { type: 'short_text', text: 'Water is?', points: 1, accepted_answers: ['H2O'] },
          { type: 'number', text: 'Boiling point?', points: 1, correct_number: 100 },
        ];
        await show(page, 'create_quiz', { title: 'Written, not read', questions }, 'light');
        const frame = view(page);
        await frame.getByRole('heading', { name: 'Written, not read' }).waitFor();
        await expect(frame.locator('.question-text').allInnerTexts()).resolves.toEqual(
          questions.map((question) => question.text),
        );
        await frame.getByText('4 questions · answer key not shown', { exact: false }).waitFor();
        const text = await frame.locator('body').innerText();
        expect(text).not.toMatch(/Helium|Iron|H2O|100|scores|pts/);
        await screenshot(page, 'mcp-app-preview-write-only-1024-light');
        await page.context().close();
      } finally {
        await writer.close();
      }
    },
    TIMEOUT,
  );
});
