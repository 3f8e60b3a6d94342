// Grading from end to end, through the real doors, on SQLite and PostgreSQL: a quiz of two essays
// (one with a rubric, one with points) and three marked questions, made over MCP and taken by five
// respondents, waits for grades with partial scores; an MCP client standing in for the assistant
// reads the answers and proposes grades, which change no score; the teacher approves them in
// Chromium by keyboard alone; the scores become final, the running figures equal a recomputation
// and get_results agrees; each review page shows the levels and the comments; and a webhook
// receiver gets response.graded for each response, a failed delivery retried as the clock moves.
import request from 'supertest';
import type { Browser, Page } from 'playwright-core';
import { webhookWorkerOf } from '../../src/app';
import type { ResultRows } from '../../src/db/repositories';
import { createEndpoint } from '../../src/domain/webhooks/endpoints';
import { RETRY_DELAYS_MS } from '../../src/domain/webhooks/schedule';
import { sealingKey } from '../../src/domain/webhooks/secrets';
import { describeWithBrowser, launchBrowser, loggedInPage, screenshot } from '../helpers/browser';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { startReceiver, verifiedSignatures, type Receiver } from '../webhooks/receiver';

jest.setTimeout(120_000);

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
};
const POINTS_ESSAY = { type: 'essay', text: 'What would you change in this unit?', points: 4 };
const CAPITAL = { type: 'yes_no', text: 'Is Lima the capital of Peru?', points: 2, correct_answer: 'yes' };
const CHOICE = {
  type: 'multiple_choice',
  text: 'Capital of Italy?',
  options: [
    { label: 'Rome', score: 3 },
    { label: 'Milan', score: 0 },
  ],
};
const PLANET = { type: 'short_text', text: 'Which planet is red?', points: 1, accepted_answers: ['Mars'] };
const MAX_SCORE = 5 + 4 + 2 + 3 + 1;

const NAMES = ['Ana', 'Ben', 'Cy', 'Di', 'Ed'];
/** Respondent i's marked answers: yes for the even ones, Rome for the first three, Mars but the last. */
const MARKED = [6, 4, 6, 1, 2];
/** What the assistant proposes: levels per criterion of the rubric essay, points of the other. */
const LEVELS = [
  [2, 2],
  [1, 1],
  [0, 0],
  [2, 1],
  [1, 2],
];
const LEVEL_LABELS = [
  ['none', 'vague', 'clear'],
  ['none', 'some', 'strong'],
];
const LEVEL_POINTS = [
  [0, 1, 2],
  [0, 2, 3],
];
const OPEN_POINTS = [4, 2, 0, 3, 1];
/** Marked + rubric essay + points essay, of 15; the pass mark is 50 %. */
const FINAL = [15, 9, 6, 8, 7];
const PASSED = [true, true, false, true, false];

/** A page's text: tags dropped, entities of quotes read, spaces collapsed. */
const squash = (page: string) =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ')
    .trim();

/** Presses Tab until the focused element's text or label matches, as a keyboard user would. */
async function tabTo(page: Page, name: RegExp): Promise<void> {
  const seen: string[] = [];
  for (let presses = 0; presses < 80; presses += 1) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate<string>(
      `(() => { const e = document.activeElement; if (!e) return ''; const label = e.labels && e.labels[0] ? e.labels[0].innerText : ''; return ((e.innerText || '') + ' ' + label).replace(/\\s+/g, ' ').trim(); })()`,
    );
    seen.push(focused);
    if (name.test(focused)) return;
  }
  throw new Error(`Nothing matching ${name} takes the focus (last: ${seen.slice(-12).join(' | ')})`);
}

/** The worker's clock: real time plus what the test moved it by. */
function testClock() {
  let offset = 0;
  return {
    now: () => new Date(Date.now() + offset),
    advance: (ms: number) => {
      offset += ms;
    },
  };
}

describeEachDatabase('grading, done when', (provider) => {
  describeWithBrowser('five respondents graded by the assistant and approved by keyboard', () => {
    const clock = testClock();
    let app: TestApp;
    let owner: TestUser;
    let assistant: AnyClient;
    let receiver: Receiver;
    let browser: Browser;
    let secret = '';
    let quiz: { quizId: string; slug: string; rubricId: string; openId: string };
    const responses: Array<{ id: string; resultPath: string }> = [];

    beforeAll(async () => {
      app = await startTestApp({
        provider,
        config: { webhooks: { allowLoopback: true, secretKey: undefined } },
        webhookHooks: { now: clock.now, timeoutMs: 1_000 },
      });
      owner = await createTestUser(app, 'teacher');
      assistant = await connectClient(app, owner.apiKey);
      receiver = await startReceiver();
      browser = await launchBrowser();
    });
    afterAll(async () => {
      await browser?.close();
      await assistant?.close();
      await receiver?.close();
      await app?.close();
    });

    const call = async (tool: string, args: Record<string, unknown>) =>
      payload(await callTool(assistant, tool, args));
    /** get_results' responses, in respondent order. */
    const results = async () => {
      const got = await call('get_results', { quiz_id: quiz.quizId, limit: 50 });
      const byName = new Map(got.responses.map((response: any) => [response.respondent.name, response]));
      return { summary: got.summary, responses: NAMES.map((name) => byName.get(name) as any) };
    };
    const figures = () => app.deps.repos.responses.figures(quiz.quizId);
    /** The figures in one order, so a recomputation's rows compare equal. */
    const sorted = (rows: ResultRows) => {
      const key = (row: object) => JSON.stringify(row);
      return {
        scores: rows.scores.map(key).sort(),
        items: rows.items.map(key).sort(),
        values: rows.values.map(key).sort(),
        ungraded: (rows.ungraded ?? []).map(key).sort(),
      };
    };

    test('made over MCP and taken by five: pending, with the marked part as the score', async () => {
      const created = await call('create_quiz', {
        title: 'Homework and capitals',
        questions: [RUBRIC_ESSAY, CAPITAL, CHOICE, POINTS_ESSAY, PLANET],
        settings: { pass_mark_percent: 50, show_correct_answers: 'after_submit' },
      });
      const published = await call('publish_quiz', { quiz_id: created.quiz_id });
      const [rubricId, capitalId, choiceId, openId, planetId] = created.questions.map(
        (question: { question_id: string }) => question.question_id,
      );
      quiz = { quizId: created.quiz_id, slug: published.slug, rubricId, openId };
      const registered = await createEndpoint(
        app.deps.repos,
        {
          sealingKey: sealingKey(app.config.webhooks.secretKey, app.config.sessionSecret),
          allowLoopback: true,
        },
        owner.id,
        { url: receiver.url, events: ['response.graded'], quizIds: [quiz.quizId] },
      );
      secret = registered.secret;

      for (const [i, name] of NAMES.entries()) {
        const res = await request(app.app)
          .post(`/api/quizzes/${quiz.slug}/responses`)
          .send({
            respondent: { name },
            answers: [
              { question_id: rubricId, text: `${name}: homework should stay, because practice helps.` },
              { question_id: capitalId, answer: i % 2 === 0 ? 'yes' : 'no' },
              { question_id: choiceId, option_index: i < 3 ? 0 : 1 },
              { question_id: openId, text: `${name} would like more examples.` },
              { question_id: planetId, text: i === 4 ? 'Venus' : 'Mars' },
            ],
          });
        expect([res.status, res.body.detail]).toEqual([201, undefined]);
        responses.push({ id: res.body.response_id, resultPath: new URL(res.body.result_url).pathname });
      }

      const { summary, responses: rows } = await results();
      expect(summary).toMatchObject({ response_count: 5, pending_count: 5, pass_count: 0 });
      expect(rows.map((row) => [row.grading_status, row.score, row.max_score, row.passed])).toEqual(
        MARKED.map((score) => ['pending', score, MAX_SCORE, null]),
      );
      const page = await request(app.app).get(responses[0]!.resultPath);
      expect(page.text).toContain('your final score comes after grading');
    });

    test('the assistant reads the answers to grade and proposes grades: no score changes', async () => {
      const before = sorted(await figures());
      const answers: any[] = [];
      const questions = new Map<string, any>();
      let cursor: string | null = null;
      do {
        const page: any = await call('get_answers_to_grade', {
          quiz_id: quiz.quizId,
          ...(cursor ? { cursor } : {}),
        });
        answers.push(...page.answers);
        for (const question of page.questions) questions.set(question.question_id, question);
        cursor = page.next_cursor;
      } while (cursor);
      expect(answers).toHaveLength(10);
      expect(answers.every((answer) => answer.grade_state === 'pending' && answer.proposal === null)).toBe(
        true,
      );
      expect(questions.get(quiz.rubricId)).toMatchObject({ max_points: 5, rubric: RUBRIC_ESSAY.rubric });
      expect(questions.get(quiz.openId)).toMatchObject({ max_points: 4, rubric: [] });

      const respondentOf = (answer: any) =>
        responses.findIndex((response) => response.id === answer.response_id);
      const grades = answers.map((answer) => {
        const i = respondentOf(answer);
        expect(answer.student_text).toContain(NAMES[i]!);
        return answer.question_id === quiz.rubricId
          ? {
              answer_id: answer.answer_id,
              levels: LEVELS[i],
              feedback: `Essay one, ${NAMES[i]}: see the rubric.`,
            }
          : {
              answer_id: answer.answer_id,
              points: OPEN_POINTS[i],
              feedback: `Essay two, ${NAMES[i]}: thank you.`,
            };
      });
      const graded = await call('grade_answers', { grades });
      expect(graded.grades.map((grade: any) => grade.stored)).toEqual(grades.map(() => 'proposed'));
      expect(graded.finalized_responses).toEqual([]);

      const { summary, responses: rows } = await results();
      expect(summary).toMatchObject({ pending_count: 5, pass_count: 0 });
      expect(rows.map((row) => [row.grading_status, row.score, row.passed])).toEqual(
        MARKED.map((score) => ['pending', score, null]),
      );
      expect(sorted(await figures())).toEqual(before);
      const again = await call('get_answers_to_grade', { quiz_id: quiz.quizId });
      expect(again.answers.every((answer: any) => answer.grade_state === 'proposed')).toBe(true);
    });

    test('the teacher approves every proposal in Chromium by keyboard: scores final, figures as recomputed', async () => {
      const width = provider === 'sqlite' ? 390 : 1280;
      const page = await loggedInPage(browser, app.baseUrl, owner, width);
      await page.goto(`${app.baseUrl}/dashboard/quizzes/${quiz.quizId}/grading`);
      for (const position of [1, 4]) {
        await tabTo(page, new RegExp(`^Approve all 5 proposed grades\\s*of question ${position}$`));
        await Promise.all([page.waitForEvent('load'), page.keyboard.press('Enter')]);
        await page.getByText('5 proposed grades approved.').waitFor();
      }
      await screenshot(page, `grading-done-when-${provider}`);
      expect(await page.getByRole('button', { name: /Approve all/ }).count()).toBe(0);
      await page.context().close();

      // get_results leaves grading_status out once a response is final (its documented shape).
      const { summary, responses: rows } = await results();
      expect(rows.map((row) => [row.grading_status, row.score, row.max_score, row.passed])).toEqual(
        FINAL.map((score, i) => [undefined, score, MAX_SCORE, PASSED[i]]),
      );
      expect(summary).toMatchObject({ response_count: 5, pending_count: 0, pass_count: 3 });
      const stored = await app.deps.repos.responses.oldestFirst(quiz.quizId, 10);
      expect(stored.map((response) => [response.score, response.gradingStatus])).toEqual(
        FINAL.map((score) => [score, 'final']),
      );

      // The figures followed each grade; a full recomputation finds the same.
      const kept = sorted(await figures());
      expect(await app.deps.repos.responses.recomputeFigures(quiz.quizId)).toBe(1);
      expect(sorted(await figures())).toEqual(kept);
      const recomputed = await results();
      expect(recomputed.summary).toEqual(summary);
      expect(recomputed.responses).toEqual(rows);
    });

    test("each respondent's review page shows the levels and both comments", async () => {
      for (const [i, name] of NAMES.entries()) {
        const res = await request(app.app).get(responses[i]!.resultPath);
        expect(res.status).toBe(200);
        expect(res.text).not.toContain('your final score comes after grading');
        const text = squash(res.text);
        expect(text).toContain('Rubric:');
        for (const [criterion, { label, max }] of [
          ['Thesis', { label: 0, max: 2 }],
          ['Evidence', { label: 1, max: 3 }],
        ] as const) {
          const level = LEVELS[i]![label]!;
          expect(text).toContain(
            `${criterion} : ${LEVEL_LABELS[label]![level]} (${LEVEL_POINTS[label]![level]} of ${max} points)`,
          );
        }
        expect(text).toContain(`Essay one, ${name}: see the rubric.`);
        expect(text).toContain(`Essay two, ${name}: thank you.`);
      }
    });

    test('the webhook receiver gets response.graded for each, a failed delivery retried as the clock moves', async () => {
      let answered = 0;
      // The first delivery fails: it comes again once its retry is due, not before.
      receiver.answer = () =>
        answered++ === 0 ? { status: 503, body: 'busy' } : { status: 200, body: 'ok' };
      const worker = webhookWorkerOf(app.app);
      expect(await worker.runOnce()).toBe(5);
      clock.advance(RETRY_DELAYS_MS[1]! - 1_000);
      expect(await worker.runOnce()).toBe(0);
      clock.advance(1_000);
      expect(await worker.runOnce()).toBe(1);
      expect(await worker.runOnce()).toBe(0);

      const graded = receiver.received.filter((received) => received.json.type === 'response.graded');
      expect(graded).toHaveLength(6);
      expect(graded.every((received) => verifiedSignatures(received, secret) === 1)).toBe(true);
      const delivered = graded.slice(1);
      expect(delivered.map((received) => received.json.data.response_id).sort()).toEqual(
        responses.map((response) => response.id).sort(),
      );
      for (const received of delivered) {
        const i = responses.findIndex((response) => response.id === received.json.data.response_id);
        expect(received.json.data).toMatchObject({
          quiz: { quiz_id: quiz.quizId, slug: quiz.slug },
          score: FINAL[i],
          max_score: MAX_SCORE,
          passed: PASSED[i],
        });
      }
    });
  });
});
