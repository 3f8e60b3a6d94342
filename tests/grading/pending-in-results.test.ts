// Answers waiting for a person's grade, read as pending wherever the teacher reads results: an
// essay quiz with a pass mark and four submitted answers waiting. The questions page says how
// many await a grade instead of "not answered yet"; the summary's chart and table, the responses
// list and one response's page do not call them not passed; get_results adds the counts. On
// SQLite and PostgreSQL.
import request from 'supertest';
import type { Browser } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import {
  describeWithBrowser,
  launchBrowser,
  loggedInPage,
  screenshot,
  scrollsSideways,
} from '../helpers/browser';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { logIn, newAgent, squash, type Agent } from '../dashboard/dashboard-helpers';

const ESSAY = {
  type: 'essay',
  text: 'Should homework be banned? Argue your case.',
  points: 4,
};

/** A page's text: tags dropped, spaces collapsed. */
const text = (page: string) =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

interface Setup {
  app: TestApp;
  client: AnyClient;
  agent: Agent;
  owner: { email: string; password: string };
  quizId: string;
  responseId: string;
}

/** An essay quiz with a pass mark, published and answered by four students, none graded yet. */
async function setUp(provider?: 'sqlite' | 'postgresql'): Promise<Setup> {
  const app = await startTestApp(provider ? { provider } : {});
  const owner = await createTestUser(app, 'pending-results');
  const client = await connectClient(app, owner.apiKey);
  const agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
  const created = payload(
    await callTool(client, 'create_quiz', {
      title: 'Homework essays',
      questions: [ESSAY],
      settings: { pass_mark_percent: 50 },
    }),
  );
  const published = payload(await callTool(client, 'publish_quiz', { quiz_id: created.quiz_id }));
  const essay = created.questions[0].question_id;
  let responseId = '';
  for (const name of ['Ana', 'Bo', 'Cy', 'Di']) {
    const res = await request(app.app)
      .post(`/api/quizzes/${published.slug}/responses`)
      .send({ respondent: { name }, answers: [{ question_id: essay, text: `${name}: practice helps.` }] });
    expect(res.status).toBe(201);
    responseId = res.body.response_id;
  }
  return { app, client, agent, owner, quizId: created.quiz_id, responseId };
}

describeEachDatabase('answers waiting for a grade in the results', (provider) => {
  let setup: Setup;
  let agent: Agent;
  let client: AnyClient;
  let quizId: string;
  let responseId: string;
  beforeAll(async () => {
    setup = await setUp(provider);
    ({ agent, client, quizId, responseId } = setup);
  });
  afterAll(async () => {
    await setup.client.close();
    await setup.app.close();
  });

  const page = async (path: string) => {
    const res = await agent.get(path);
    expect(res.status).toBe(200);
    return res.text;
  };

  const results = (section: string) => page(`/dashboard/quizzes/${quizId}/results/${section}`);

  test('the questions page says four await a grade, not that the essay is unanswered', async () => {
    const shown = text(await results('questions'));
    expect(shown).toContain('Essay · 4 awaiting a grade');
    expect(shown).not.toContain('not answered yet');
  });

  test('the summary draws the waiting responses in a neutral colour and does not call them not passed', async () => {
    const summary = await results('summary');
    const chart = /<svg[^>]*class="chart histogram"[\s\S]*?<\/svg>/.exec(summary)![0];
    // Four responses at 0 of 4, all waiting: one pending bar, no failed one with any height.
    expect(chart).toMatch(/class="chart-bar pending"[^>]*height="134"/);
    expect(chart).not.toMatch(/class="chart-bar fail"[^>]*height="[1-9]/);
    expect(chart).toContain('4 await a grade: scored so far.');
    expect(squash(summary)).toContain(
      '<tr><th scope="row">0</th><td class="num">4</td><td><span class="muted">Awaiting a grade</span></td></tr>',
    );
    expect(text(summary)).toContain('awaiting a grade');
  });

  test('the item analysis says four await a grade under the essay', async () => {
    expect(text(await results('items'))).toContain('Argue your case. 4 awaiting a grade');
  });

  test('the responses list and a response say awaiting a grade, in a neutral style, never not passed', async () => {
    const listed = await results('responses');
    expect(listed.match(/<span class="muted">Awaiting a grade<\/span>/g)).toHaveLength(4);
    expect(text(listed)).not.toContain('Not passed');
    const one = await page(`/dashboard/quizzes/${quizId}/responses/${responseId}`);
    expect(squash(one)).toContain('<dt>Result</dt><dd><span class="muted">Awaiting a grade</span></dd>');
  });

  test('get_results adds how many answers await a grade, and keeps the fields it had', async () => {
    const out = payload(await callTool(client, 'get_results', { quiz_id: quizId }));
    expect(out.summary).toMatchObject({
      response_count: 4,
      pending_count: 4,
      pending_grades: 4,
      pass_count: 0,
    });
    expect(out.questions[0]).toMatchObject({ type: 'essay', answered_count: 0, pending_count: 4 });
    expect(out.responses.map((response: { grading_status?: string }) => response.grading_status)).toEqual([
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
  });
});

describeWithBrowser('answers waiting for a grade in the results, in Chromium', () => {
  let setup: Setup;
  let browser: Browser;
  beforeAll(async () => {
    setup = await setUp();
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await setup?.client.close();
    await setup?.app.close();
  });

  for (const width of [390, 1280]) {
    test(`at ${width} px every results page reads, nothing scrolls sideways, axe finds nothing serious`, async () => {
      const page = await loggedInPage(browser, setup.app.baseUrl, setup.owner, width);
      const base = `${setup.app.baseUrl}/dashboard/quizzes/${setup.quizId}`;
      for (const path of [
        ...['summary', 'questions', 'items', 'responses'].map((section) => `/results/${section}`),
        `/responses/${setup.responseId}`,
      ]) {
        await page.goto(`${base}${path}`);
        expect(await page.getByText(/awaiting a grade/i).count()).toBeGreaterThan(0);
        expect(await scrollsSideways(page)).toBe(false);
        expect(await seriousViolations(page)).toEqual([]);
      }
      await page.goto(`${base}/results/summary`);
      await page.getByText('Scores as a table').click();
      await screenshot(page, `pending-results-summary-${width}`);
      await page.context().close();
    });
  }
});
