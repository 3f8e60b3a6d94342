// The dashboard in a real Chromium: sign up, API keys end to end against /api/mcp, a quiz made
// over MCP showing its results, log out. Screenshots of each main page go to test-artifacts/.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createApiKey } from '../../src/domain/api-keys';
import { submitResponse } from '../../src/domain/taking/submit-response';
import { describeWithBrowser, launchBrowser, screenshot } from '../helpers/browser';
import { createTestUser, sampleQuestions, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload } from '../helpers/mcp-clients';
import { PASSWORD, uniqueEmail } from './dashboard-helpers';

jest.setTimeout(60_000);

describeWithBrowser('dashboard in a browser', () => {
  let app: TestApp;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    app = await startTestApp();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  beforeEach(async () => {
    context = await browser.newContext({ viewport: { width: 1100, height: 800 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: app.baseUrl });
    page = await context.newPage();
    // CSP violations and script errors surface here: every page must be free of them.
    // (Pages answering 4xx on purpose, such as a refused form, log "Failed to load resource":
    // those are checked through their responses instead: only sub-resources must not fail.)
    problems = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400 && response.request().resourceType() !== 'document') {
        problems.push(`${response.status()} ${response.url()}`);
      }
    });
  });
  afterEach(async () => {
    await context.close();
    expect(problems).toEqual([]);
  });

  function mcpToolsList(key: string) {
    return fetch(`${app.baseUrl}/api/mcp`, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'application/json',
        Accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
  }

  async function logInAs(email: string, password: string, shot?: string) {
    await page.goto(`${app.baseUrl}/login`);
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password').fill(password);
    if (shot) await screenshot(page, shot);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${app.baseUrl}/dashboard`);
  }

  test('sign up -> create a key -> it works on /api/mcp -> reload hides it -> revoke -> 401', async () => {
    await page.goto(`${app.baseUrl}/signup`);
    await screenshot(page, 'dashboard-signup');
    await page.getByLabel('Email').fill('not an email');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.getByRole('alert').filter({ hasText: 'There is a problem' }).waitFor();
    expect(await page.getByLabel('Email').getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'dashboard-signup-errors');

    await page.getByLabel('Email').fill(uniqueEmail('browser'));
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(`${app.baseUrl}/dashboard`);
    await page.getByText('You have no quizzes yet.').waitFor();
    await screenshot(page, 'dashboard-quizzes-empty');

    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Browser test key');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.waitForURL(`${app.baseUrl}/settings/security/api-keys`);
    const key = ((await page.locator('#new-key-value').textContent()) ?? '').trim();
    expect(key).toMatch(/^svc_[0-9A-Za-z]{43}$/);
    await page.getByText('cannot be shown again').waitFor();
    await page.getByRole('button', { name: 'Copy key' }).click();
    await page.getByText('The key is on your clipboard.').waitFor();
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    await screenshot(page, 'dashboard-api-keys-new-key');

    const works = await mcpToolsList(key);
    expect(works.status).toBe(200);
    expect(await works.text()).toContain('create_quiz');

    await page.reload();
    expect(await page.content()).not.toContain(key);
    expect(await page.locator('#new-key-value').count()).toBe(0);
    await page.getByRole('cell', { name: `${key.slice(0, 8)}…${key.slice(-4)}` }).waitFor();
    await screenshot(page, 'dashboard-api-keys');

    await page.getByRole('button', { name: 'Revoke Browser test key' }).click();
    await page.getByText('is revoked').waitFor();
    const refused = await mcpToolsList(key);
    expect(refused.status).toBe(401);
  });

  test('the 11th key is refused with the message on the page', async () => {
    const user = await createTestUser(app, 'limit'); // already holds one key
    for (let i = 2; i <= 10; i += 1) await createApiKey(app.database.repos, user.id, `key ${i}`);
    await logInAs(user.email, user.password);
    await page.goto(`${app.baseUrl}/settings/security/api-keys`);
    await page.getByLabel('Name').fill('one too many');
    await page.getByRole('button', { name: 'Create key' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'There is a problem' });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('You already have 10 API keys, the most allowed.');
    expect(await alert.isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /^Revoke / }).count()).toBe(10);
    await screenshot(page, 'dashboard-api-keys-limit');
  });

  test('a quiz made over MCP shows in the dashboard with its results, and its CSV downloads', async () => {
    const user = await createTestUser(app, 'mcp');
    const client = await connectClient(app, user.apiKey);
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Geography <basics>',
        questions: sampleQuestions(),
        settings: { pass_mark_percent: 60, collect_email: true },
      }),
    );
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    await client.close();
    const [yesNo, choice] = quiz.questions;
    for (const [name, answer, option] of [
      ['Ada Lovelace', 'yes', 0],
      ['Grace Hopper', 'no', 1],
    ] as const) {
      await submitResponse(app.deps, quiz.slug, {
        respondent: { name, email: `${name.split(' ')[0]!.toLowerCase()}@example.com` },
        answers: [
          { question_id: yesNo.question_id, answer },
          { question_id: choice.question_id, option_index: option },
        ],
      });
    }

    await logInAs(user.email, user.password, 'dashboard-login');
    const card = page.locator('li.card').filter({ hasText: 'Geography <basics>' });
    await card.waitFor();
    expect(await card.textContent()).toMatch(/2 questions ·\s+2 responses/);
    expect(await card.getByRole('link', { name: `${app.baseUrl}/q/${quiz.slug}` }).count()).toBe(1);
    await screenshot(page, 'dashboard-quizzes');

    await card.getByRole('link', { name: 'Geography <basics>' }).click();
    await page.waitForURL(`${app.baseUrl}/dashboard/quizzes/${quiz.quiz_id}`);
    await page.getByRole('heading', { level: 1, name: /Geography <basics>/ }).waitFor();
    expect(await page.locator('.stats').textContent()).toMatch(/Responses\s*2/);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Download responses (CSV)' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`${quiz.slug}-responses.csv`);

    // The responses have a section of their own.
    await page.goto(`${app.baseUrl}/dashboard/quizzes/${quiz.quiz_id}/results/responses`);
    await page.getByRole('cell', { name: 'Ada Lovelace' }).waitFor();
    await page.getByText('Grace Hopper').first().waitFor();
    await screenshot(page, 'dashboard-quiz');

    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await screenshot(page, 'dashboard-quiz-phone');
  });

  test('log out locks the pages: they send you to the login', async () => {
    const user = await createTestUser(app, 'logout');
    await logInAs(user.email, user.password);
    await page.getByRole('link', { name: 'Connected apps' }).click();
    await page.getByText('No apps are connected.').waitFor();
    await screenshot(page, 'dashboard-connected-apps');

    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${app.baseUrl}/login`);
    await page.getByText('You are logged out.').waitFor();
    for (const path of ['/dashboard', '/settings/security/api-keys', '/settings/connected-apps']) {
      await page.goto(`${app.baseUrl}${path}`);
      expect(page.url()).toBe(`${app.baseUrl}/login?returnTo=${encodeURIComponent(path)}`);
      await page.getByRole('heading', { name: 'Log in' }).waitFor();
    }
    // Logging in again goes back where the person was heading.
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForURL(`${app.baseUrl}/settings/connected-apps`);
  });
});
