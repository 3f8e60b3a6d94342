// Grades by a person, shown wherever results are read: the respondent's review page (each
// criterion's level and the teacher's comment, final grades only, the key held back until then),
// the CSV (each answer's points, grade state and comment after the existing columns), the
// dashboard's results (each response's grading state, the pending counts) and the owner's page
// of one respondent. On SQLite and PostgreSQL; the review once more in Chromium at 390 px with axe.
import request from 'supertest';
import type { Browser } from 'playwright-core';
import { seriousViolations } from '../helpers/axe';
import { describeWithBrowser, launchBrowser, screenshot, scrollsSideways } from '../helpers/browser';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { logIn, newAgent, type Agent } from '../dashboard/dashboard-helpers';
import { parseCsv } from '../dashboard/parse-csv';
import { gradeAnswers } from '../../src/domain/grading/grade-answers';

const RUBRIC_ESSAY = {
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
    {
      criterion: 'Evidence',
      levels: [
        { label: 'none', points: 0 },
        { label: 'some', points: 2 },
        { label: 'strong', points: 3 },
      ],
    },
  ],
  explanation: 'A clear thesis backed by evidence.',
};
const CAPITAL = {
  type: 'yes_no',
  text: 'Is Lima the capital of Peru?',
  points: 2,
  correct_answer: 'yes',
  explanation: 'Since 1535.',
};

/** A page's text: tags dropped, entities of quotes read, spaces collapsed. */
const squash = (page: string) =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

/** A comment in another script and with markup: it must read as text, in its own direction. */
const COMMENT = 'Your thesis is clear: "ban it". <b>Cite</b> a study — مثال.';

interface Setup {
  app: TestApp;
  client: AnyClient;
  agent: Agent;
  ownerId: string;
}

async function setUp(provider?: 'sqlite' | 'postgresql'): Promise<Setup> {
  const app = await startTestApp(provider ? { provider } : {});
  const owner = await createTestUser(app, 'grades-shown');
  const client = await connectClient(app, owner.apiKey);
  const agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
  return { app, client, agent, ownerId: owner.id };
}

/** A published quiz of an essay with a rubric and a yes/no, taken by `names`, in order. */
async function quizTakenBy(
  { app, client }: Setup,
  title: string,
  names: string[],
  settings: Record<string, unknown> = {},
) {
  const created = payload(
    await callTool(client, 'create_quiz', { title, questions: [RUBRIC_ESSAY, CAPITAL], settings }),
  );
  const published = payload(await callTool(client, 'publish_quiz', { quiz_id: created.quiz_id }));
  const [essay, capital] = created.questions.map((question: { question_id: string }) => question.question_id);
  const responses: Array<{ id: string; resultPath: string; essayAnswer: string }> = [];
  for (const name of names) {
    const res = await request(app.app)
      .post(`/api/quizzes/${published.slug}/responses`)
      .send({
        respondent: { name },
        answers: [
          { question_id: essay, text: `${name}: homework should stay, because practice helps.` },
          { question_id: capital, answer: 'yes' },
        ],
      });
    expect(res.status).toBe(201);
    const answer = await app.database.prisma.answer.findFirstOrThrow({
      where: { responseId: res.body.response_id, questionId: essay },
    });
    responses.push({
      id: res.body.response_id,
      resultPath: new URL(res.body.result_url).pathname,
      essayAnswer: answer.id,
    });
  }
  return { quizId: created.quiz_id as string, slug: published.slug as string, responses };
}

/**
 * Grades one essay answer through the grading domain: a proposal from the assistant, or the
 * teacher's final grade (which also finalises the response once nothing else waits).
 */
async function grade(
  { app, ownerId }: Setup,
  answerId: string,
  grade: { state: 'proposed' | 'final'; levels: number[]; feedback: string },
) {
  const outcome = await gradeAnswers(app.deps, ownerId, {
    grades: [{ answerId, levels: grade.levels, feedback: grade.feedback }],
    final: grade.state === 'final',
    by: grade.state === 'final' ? { kind: 'teacher' } : { kind: 'assistant', client: 'test' },
  });
  expect(outcome.grades.map((each) => each.stored)).toEqual([grade.state]);
}

describeEachDatabase('grades shown', (provider) => {
  let setup: Setup;
  beforeAll(async () => {
    setup = await setUp(provider);
  });
  afterAll(async () => {
    await setup.client.close();
    await setup.app.close();
  });

  test('the review: pending says so and holds the key back; a proposal shows nothing; a final grade shows its levels and comment', async () => {
    const { app } = setup;
    const quiz = await quizTakenBy(setup, 'Reviewed essays', ['Ana'], {
      show_correct_answers: 'after_submit',
    });
    const [ana] = quiz.responses;
    const page = async () => {
      const res = await request(app.app).get(ana!.resultPath);
      expect(res.status).toBe(200);
      return res.text;
    };

    const pending = await page();
    expect(pending).toContain('your final score comes after grading');
    // The figures shown are only the score so far, and the card says so.
    expect(squash(pending)).toMatch(/out of \d+ so far/);
    expect(squash(pending)).toMatch(/\d+% so far/);
    // The marked yes/no is reviewed with its key, as after_submit allows; the essay's explanation
    // and any grade wait for the teacher's final one.
    expect(squash(pending)).toContain('Since 1535.');
    expect(squash(pending)).toContain('Right answer');
    expect(squash(pending)).toContain('Waiting to be graded.');
    expect(squash(pending)).not.toMatch(/A clear thesis backed|Rubric:/);

    await grade(setup, ana!.essayAnswer, { state: 'proposed', levels: [2, 1], feedback: COMMENT });
    const proposed = await page();
    expect(proposed).toContain('your final score comes after grading');
    expect(proposed).not.toContain('Your thesis is clear');
    expect(proposed).not.toContain('Rubric:');

    await grade(setup, ana!.essayAnswer, { state: 'final', levels: [2, 1], feedback: COMMENT });
    const final = await page();
    expect(final).not.toContain('your final score comes after grading');
    expect(final).not.toContain('so far');
    const text = squash(final);
    expect(text).toContain('Rubric:');
    expect(text).toContain('Thesis : clear (2 of 2 points)');
    expect(text).toContain('Evidence : some (2 of 3 points)');
    // The owner's words isolated, escaped, never markup.
    expect(final).toMatch(/<span class="rubric-criterion" dir="auto">Thesis<\/span>/);
    expect(final).toMatch(/<bdi class="rubric-level">clear<\/bdi>/);
    expect(final).toContain(
      '<span class="feedback-text" dir="auto">Your thesis is clear: &quot;ban it&quot;. &lt;b&gt;Cite&lt;/b&gt; a study — مثال.</span>',
    );
    // The key and explanations, now that it is graded; an essay has no "no right answer" line.
    expect(text).toContain('A clear thesis backed by evidence.');
    expect(text).toContain('Since 1535.');
    expect(text).not.toContain('it collects your thoughts');
  });

  test('without the key shown, a final grade still reaches the respondent: levels and comment, no key; no points when scores are hidden', async () => {
    const { app } = setup;
    const quiz = await quizTakenBy(setup, 'Graded, key kept', ['Ben'], {
      show_correct_answers: 'never',
      show_score_to_respondent: false,
      language: 'ar',
    });
    const [ben] = quiz.responses;
    await grade(setup, ben!.essayAnswer, { state: 'final', levels: [1, 2], feedback: COMMENT });
    const res = await request(app.app).get(ben!.resultPath);
    expect(res.text).toMatch(/<html lang="ar"\s+dir="rtl"/);
    expect(res.text).toContain('إجاباتك المُقيَّمة');
    expect(res.text).toContain('معايير التقييم:');
    expect(res.text).toMatch(/<bdi class="rubric-level">vague<\/bdi>/);
    expect(res.text).toMatch(/<bdi class="rubric-level">strong<\/bdi>/);
    expect(res.text).toContain('Your thesis is clear');
    expect(res.text).not.toContain('rubric-points');
    expect(res.text).not.toMatch(/Since 1535|A clear thesis backed|Is Lima the capital/);
  });

  test('the dashboard: each response pending, proposed or final in the list and on its page; pending counts in the summary', async () => {
    const { agent } = setup;
    const quiz = await quizTakenBy(setup, 'Dashboard essays', ['Cy', 'Di', 'Ed']);
    const [cy, di, ed] = quiz.responses;
    await grade(setup, di!.essayAnswer, { state: 'proposed', levels: [1, 1], feedback: 'Some.' });
    await grade(setup, ed!.essayAnswer, { state: 'final', levels: [2, 2], feedback: 'Strong.' });

    const list = await agent.get(`/dashboard/quizzes/${quiz.quizId}/results/responses`);
    expect(list.status).toBe(200);
    const rows = [...list.text.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map((row) => squash(row[1]!));
    const rowOf = (name: string) => rows.find((row) => row.includes(name)) ?? '';
    expect(list.text).toMatch(/<th[^>]*>\s*Grading\s*<\/th>/);
    expect(rowOf('Cy')).toContain('Pending: waiting for a grade');
    expect(rowOf('Di')).toContain('Proposed: grades to approve');
    expect(rowOf('Ed')).toMatch(/Final/);
    expect(rowOf('Ed')).not.toMatch(/Pending|Proposed/);

    const page = squash((await agent.get(`/dashboard/quizzes/${quiz.quizId}/responses/${cy!.id}`)).text);
    expect(page).toMatch(/Score 2 of 7 \([\d.]+%\), so far/);
    expect(page).toContain('Grading Pending: waiting for a grade');
    const edPage = squash((await agent.get(`/dashboard/quizzes/${quiz.quizId}/responses/${ed!.id}`)).text);
    expect(edPage).toContain('Grading Final');
    expect(edPage).not.toContain('so far');

    const summary = squash((await agent.get(`/dashboard/quizzes/${quiz.quizId}/results/summary`)).text);
    expect(summary).toContain('Waiting for a grade 2 responses (scored so far)');
    expect(summary).toContain('2 responses wait for a grade');
    expect(summary).toContain('1 answer to grade');
    expect(summary).toContain('1 proposed grade to approve');
  });

  test('a quiz no person grades: no grading column, no pending counts', async () => {
    const { app, client, agent } = setup;
    const created = payload(
      await callTool(client, 'create_quiz', { title: 'Marked alone', questions: [CAPITAL] }),
    );
    const published = payload(await callTool(client, 'publish_quiz', { quiz_id: created.quiz_id }));
    const res = await request(app.app)
      .post(`/api/quizzes/${published.slug}/responses`)
      .send({
        respondent: { name: 'Jo' },
        answers: [{ question_id: created.questions[0].question_id, answer: 'no' }],
      });
    expect(res.status).toBe(201);
    const list = (await agent.get(`/dashboard/quizzes/${created.quiz_id}/results/responses`)).text;
    expect(list).not.toMatch(/<th[^>]*>\s*Grading\s*<\/th>/);
    const summary = squash((await agent.get(`/dashboard/quizzes/${created.quiz_id}/results/summary`)).text);
    expect(summary).not.toMatch(/Waiting for a grade|wait for a grade/);
  });

  test("the CSV: the existing columns in place, then grading_status and each question's points, grade state and comment", async () => {
    const { agent } = setup;
    const quiz = await quizTakenBy(setup, 'CSV essays', ['Fay', 'Gus', 'Hal']);
    const [, gus, hal] = quiz.responses;
    await grade(setup, gus!.essayAnswer, { state: 'proposed', levels: [1, 0], feedback: 'Vague.' });
    await grade(setup, hal!.essayAnswer, { state: 'final', levels: [2, 1], feedback: '=cite more' });
    const res = await agent.get(`/dashboard/quizzes/${quiz.quizId}/responses.csv`).buffer(true);
    expect(res.status).toBe(200);
    const rows = parseCsv(res.text.slice(1));
    expect(rows[0]).toEqual([
      'submitted_at',
      'name',
      'email',
      'score',
      'max_score',
      'percent',
      'passed',
      `Q1. ${RUBRIC_ESSAY.text}`,
      `Q2. ${CAPITAL.text}`,
      'grading_status',
      'Q1 points',
      'Q1 grade',
      'Q1 comment',
      'Q2 points',
      'Q2 grade',
      'Q2 comment',
    ]);
    const byName = new Map(rows.slice(1).map((row) => [row[1], row]));
    expect(byName.get('Fay')!.slice(9)).toEqual(['pending', '0', 'pending', '', '2', 'auto', '']);
    expect(byName.get('Gus')!.slice(9)).toEqual(['proposed', '0', 'proposed', 'Vague.', '2', 'auto', '']);
    // A comment is the owner's text: a formula start is neutralised like every other cell.
    expect(byName.get('Hal')!.slice(9)).toEqual(['final', '4', 'final', "'=cite more", '2', 'auto', '']);
    expect(byName.get('Hal')!.slice(3, 5)).toEqual(['6', '7']);
  });
});

describeWithBrowser('the graded review in Chromium', () => {
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

  test('at 390 px: levels and comment readable, nothing scrolls sideways, axe finds nothing serious', async () => {
    const quiz = await quizTakenBy(setup, 'Essays on a phone', ['Ivy'], {
      show_correct_answers: 'after_submit',
    });
    const [ivy] = quiz.responses;
    await grade(setup, ivy!.essayAnswer, {
      state: 'final',
      levels: [2, 1],
      feedback: COMMENT,
    });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${setup.app.baseUrl}${ivy!.resultPath}`);
    await page.getByText('Rubric:').waitFor();
    await expect(page.locator('.rubric-levels li').allInnerTexts()).resolves.toEqual([
      expect.stringMatching(/^Thesis:\s*clear \(2 of 2 points\)$/),
      expect.stringMatching(/^Evidence:\s*some \(2 of 3 points\)$/),
    ]);
    await expect(page.locator('.feedback-text').innerText()).resolves.toBe(COMMENT);
    expect(await scrollsSideways(page)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'respondent-graded-review-390');
    await context.close();
  }, 90_000);
});
