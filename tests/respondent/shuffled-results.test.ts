// Results of shuffled and pooled quizzes read in the quiz's own order: the same answers given to a
// shuffled quiz and to an unshuffled control give the same totals, statistics and CSV columns;
// a pooled quiz's statistics count each question over the attempts that drew it.
import request from 'supertest';
import { exportResponses } from '../../src/domain/quizzes/export-responses';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const QUESTIONS = [
  { type: 'yes_no', text: 'Is the Sun a star?', points: 2 },
  {
    type: 'multiple_choice',
    text: 'Largest planet?',
    options: [
      { label: 'Mars', score: 0 },
      { label: 'Jupiter', score: 3 },
      { label: 'Venus', score: 1 },
    ],
  },
  {
    type: 'multiple_choice',
    text: 'Smallest prime?',
    options: [
      { label: 'One', score: 0 },
      { label: 'Two', score: 4 },
    ],
  },
];

/** Each respondent's picks, by label (a shuffled page shows them elsewhere, the label stays). */
const PICKS: Array<Record<string, string>> = [
  { 'Is the Sun a star?': 'yes', 'Largest planet?': 'Jupiter', 'Smallest prime?': 'Two' },
  { 'Is the Sun a star?': 'no', 'Largest planet?': 'Venus', 'Smallest prime?': 'Two' },
  { 'Is the Sun a star?': 'yes', 'Largest planet?': 'Mars', 'Smallest prime?': 'One' },
];

describe('results of shuffled and pooled quizzes', () => {
  let app: TestApp;
  let user: TestUser;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp();
    user = await createTestUser(app, 'shuffled');
    client = await connectClient(app, user.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  async function publish(title: string, settings: Record<string, unknown>) {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title,
        questions: QUESTIONS,
        settings: { collect_name: false, require_all_answers: false, ...settings },
      }),
    );
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz as { quiz_id: string; slug: string };
  }

  /** Starts an attempt and answers what it drew with the respondent's picks, by label. */
  async function answer(slug: string, picks: Record<string, string>) {
    const started = await request(app.app).post(`/api/quizzes/${slug}/attempts`).send({});
    expect(started.status).toBe(201);
    const answers = started.body.questions.map((q: any) =>
      q.options
        ? {
            question_id: q.question_id,
            option_index: q.options.find((o: any) => o.label === picks[q.text]).option_index,
          }
        : { question_id: q.question_id, answer: picks[q.text] },
    );
    const res = await request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({ attempt_token: started.body.attempt_token, answers });
    expect(res.status).toBe(201);
    return started.body.questions.map((q: any) => q.text) as string[];
  }

  const withoutIds = (results: any) => ({
    summary: { ...results.summary, first_submitted_at: null, last_submitted_at: null },
    questions: results.questions.map(({ question_id: _id, ...rest }: any) => rest),
    scores: results.responses.map((r: any) => [r.score, r.max_score, r.percent]).sort(),
    answers: results.responses
      .map((r: any) => r.answers.map((a: any) => `${a.text}=${a.answer}:${a.points}`).join('|'))
      .sort(),
  });

  test('a shuffled quiz gives the same totals, statistics and CSV as an unshuffled control', async () => {
    const control = await publish('Control', { time_limit_minutes: 30 });
    const shuffled = await publish('Shuffled', {
      time_limit_minutes: 30,
      shuffle_questions: true,
      shuffle_options: true,
    });
    const orders = new Set<string>();
    for (const picks of PICKS) {
      await answer(control.slug, picks);
      // Several attempts, so that some order differs from the quiz's (bounded: a few starts).
      orders.add((await answer(shuffled.slug, picks)).join('|'));
    }
    const a = withoutIds(payload(await callTool(client, 'get_results', { quiz_id: control.quiz_id })));
    const b = withoutIds(payload(await callTool(client, 'get_results', { quiz_id: shuffled.quiz_id })));
    expect(b).toEqual(a);
    expect(a.summary).toMatchObject({ response_count: 3, max_score: 9, highest_score: 9 });
    // Answers are stored in the quiz's own order, whatever order each attempt showed.
    expect(a.answers[0]).toMatch(/^Is the Sun a star\?=.*\|Largest planet\?=.*\|Smallest prime\?=/);
    expect(b.answers.every((line: string) => line.startsWith('Is the Sun a star?='))).toBe(true);

    const csv = async (quizId: string) => {
      const exported = await exportResponses(app.deps, user.id, quizId);
      const rows: unknown[][] = [];
      for await (const row of exported.rows()) rows.push(row.slice(3));
      return { header: exported.header, rows: rows.map((row) => JSON.stringify(row)).sort() };
    };
    expect(await csv(shuffled.quiz_id)).toEqual(await csv(control.quiz_id));
  });

  test('a pooled quiz: each question counted over the attempts that drew it, each score out of what was drawn', async () => {
    const pooled = await publish('Pooled', { question_pool_size: 1 });
    const drawn: Record<string, number> = {};
    for (let i = 0; i < 6; i += 1) {
      const [text] = await answer(pooled.slug, PICKS[0]!);
      drawn[text!] = (drawn[text!] ?? 0) + 1;
    }
    const results = payload(await callTool(client, 'get_results', { quiz_id: pooled.quiz_id, limit: 10 }));
    for (const question of results.questions) {
      expect([question.text, question.answered_count]).toEqual([question.text, drawn[question.text] ?? 0]);
    }
    const maxima: Record<string, number> = {
      'Is the Sun a star?': 2,
      'Largest planet?': 3,
      'Smallest prime?': 4,
    };
    for (const response of results.responses) {
      expect(response.answers).toHaveLength(1);
      expect(response.max_score).toBe(maxima[response.answers[0].text]);
      expect(response.percent).toBe(100);
    }
  });
});
