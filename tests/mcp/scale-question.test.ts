// The scale type through every door: created and read over MCP, taken on the public form and over
// JSON, refused out of its range, counted (distribution, mean, median, Net Promoter score) by
// get_results, kept through edits, exported and reviewed; and a quiz of scales alone, which has no
// score. On SQLite and PostgreSQL; every expected figure is worked out by hand in the comments.
import request from 'supertest';
import { exportResponses } from '../../src/domain/quizzes/export-responses';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const RECOMMEND = {
  type: 'scale',
  text: 'How likely are you to recommend us?',
  scale_min: 0,
  scale_max: 10,
  scale_labels: ['Not at all likely', 'Extremely likely'],
};
const CAPITAL = { type: 'yes_no', text: 'Is Lima the capital of Peru?', points: 2, correct_answer: 'yes' };
const EFFORT = { type: 'scale', text: 'How easy was it?', scale_max: 5 };

describeEachDatabase('the scale question type', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  let ownerId: string;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    const owner = await createTestUser(app, 'scales');
    ownerId = owner.id;
    client = await connectClient(app, owner.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));
  const submit = (slug: string, answers: object[]) =>
    request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({ respondent: { name: 'R' }, answers });

  test('beside a scored question: taken by JSON and form, refused out of range, counted, kept, exported, reviewed', async () => {
    const created = await call('create_quiz', {
      title: 'Feedback and a question',
      questions: [RECOMMEND, CAPITAL, EFFORT],
      settings: { require_all_answers: true, show_correct_answers: 'after_submit', pass_mark_percent: 50 },
    });
    // The scales add nothing to the maximum: the yes_no's 2 points alone.
    expect(created.max_score).toBe(2);
    expect(created.warnings).toEqual([]);
    const read = await call('get_quiz_questions', { quiz_id: created.quiz_id });
    expect(read.questions[0]).toMatchObject({
      type: 'scale',
      scale_min: 0,
      scale_max: 10,
      scale_labels: ['Not at all likely', 'Extremely likely'],
      explanation: null,
    });
    expect(read.questions[2]).toMatchObject({ scale_min: 1, scale_max: 5, scale_labels: ['', ''] });
    const [recommend, capital, effort] = read.questions.map(
      (q: { question_id: string }) => q.question_id,
    ) as [string, string, string];
    // Respondents are shown the range and the end words: what they need to answer.
    const shown = await call('get_quiz_questions', { quiz_id: created.quiz_id, view: 'respondent' });
    expect(shown.questions[0]).toEqual({
      question_id: recommend,
      type: 'scale',
      text: RECOMMEND.text,
      scale_min: 0,
      scale_max: 10,
      scale_labels: ['Not at all likely', 'Extremely likely'],
    });
    await call('publish_quiz', { quiz_id: created.quiz_id });
    const slug: string = created.slug;

    // Out of range, and not a whole number: field errors naming the range; nothing stored.
    const outOfRange = await submit(slug, [
      { question_id: recommend, value: 11 },
      { question_id: capital, answer: 'yes' },
      { question_id: effort, value: 0 },
    ]);
    expect(outOfRange.status).toBe(422);
    expect(outOfRange.body.errors).toEqual([
      { field: 'answers[0].value', message: 'a scale question takes value: a whole number from 0 to 10.' },
      { field: 'answers[2].value', message: 'a scale question takes value: a whole number from 1 to 5.' },
    ]);
    const notWhole = await submit(slug, [
      { question_id: recommend, value: 7.5 },
      { question_id: capital, answer: 'yes' },
      { question_id: effort, value: 3 },
    ]);
    expect(notWhole.status).toBe(422);
    expect(notWhole.body.errors).toEqual([
      { field: 'answers[0].value', message: 'value must be a whole number within the scale' },
    ]);
    // A scale is a question to answer under require_all_answers.
    const skipped = await submit(slug, [
      { question_id: recommend, value: 9 },
      { question_id: capital, answer: 'yes' },
    ]);
    expect(skipped.status).toBe(422);
    expect(JSON.stringify(skipped.body.errors)).toContain(effort);

    // A: 10 and 4 on the scales, "yes" right: 2 of 2 = 100%, passed.
    const a = await submit(slug, [
      { question_id: recommend, value: 10 },
      { question_id: capital, answer: 'yes' },
      { question_id: effort, value: 4 },
    ]);
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ score: 2, max_score: 2, percent: 100, passed: true });
    // The review shows the value picked and no right answer for a scale.
    expect(a.body.review[0]).toMatchObject({
      your_answer: '10',
      points: 0,
      max_points: 0,
      correct_answers: [],
    });
    // B: 6 and 2, "no": 0 of 2.
    const b = await submit(slug, [
      { question_id: recommend, value: 6 },
      { question_id: capital, answer: 'no' },
      { question_id: effort, value: 2 },
    ]);
    expect(b.body).toMatchObject({ score: 0, max_score: 2, percent: 0, passed: false });

    // C, on the form: 8 and 5, "yes". The page offers each value as a radio, the ends named.
    const page = await request(app.app).get(`/q/${slug}`);
    for (let value = 0; value <= 10; value++) {
      expect(page.text).toMatch(
        new RegExp(
          `type="radio"\\s+id="q_${recommend}_${value}"\\s+name="q_${recommend}"\\s+value="${value}"`,
        ),
      );
    }
    expect(page.text).toContain('Not at all likely');
    expect(page.text).toContain('Choose a number from 0 to 10.');
    const version = /name="version" value="(\d+)"/.exec(page.text)![1]!;
    const form = (recommendValue: string) =>
      new URLSearchParams({
        version,
        name: 'C',
        [`q_${recommend}`]: recommendValue,
        [`q_${capital}`]: 'yes',
        [`q_${effort}`]: '5',
      }).toString();
    // A value the page never offers is refused in the page's words, beside the question.
    const tampered = await request(app.app).post(`/q/${slug}`).type('form').send(form('12'));
    expect(tampered.status).toBe(422);
    expect(tampered.text).toContain('Choose one of the answers listed.');
    const posted = await request(app.app).post(`/q/${slug}`).type('form').send(form('8'));
    expect(posted.status).toBe(303);
    const resultPage = await request(app.app).get(posted.headers.location!.replace(app.baseUrl, ''));
    expect(resultPage.text).toMatch(/<span class="score-value">2<\/span>/);
    // The scale's review line has no "0 of 0 points"; the yes_no keeps its points.
    expect(resultPage.text).not.toContain('0 of 0 points');
    expect(resultPage.text).toContain('2 of 2 points');

    const results = await call('get_results', { quiz_id: created.quiz_id, limit: 10 });
    expect(results.summary).toMatchObject({ response_count: 3, max_score: 2, pass_count: 2 });
    const rows = (results.responses as Array<any>).reverse(); // A, B, C
    expect(rows.map((r) => r.answers[0])).toEqual([
      expect.objectContaining({ answer: '10', value: 10, option_index: null, points: 0, max_points: 0 }),
      expect.objectContaining({ answer: '6', value: 6, option_index: null }),
      expect.objectContaining({ answer: '8', value: 8, option_index: null }),
    ]);
    const statOf = (id: string) => results.questions.find((q: any) => q.question_id === id);
    // 10, 6, 8: mean 8, median 8; one promoter, one passive, one detractor: (1 - 1) / 3 = 0.
    expect(statOf(recommend)).toMatchObject({
      type: 'scale',
      answered_count: 3,
      mean: 8,
      median: 8,
      net_promoter: { score: 0, promoters: 1, passives: 1, detractors: 1 },
      facility: null,
      discrimination: null,
      top_shares: null,
      flags: [],
    });
    expect(statOf(recommend).distribution.filter((entry: any) => entry.count > 0)).toEqual([
      { value: 6, count: 1 },
      { value: 8, count: 1 },
      { value: 10, count: 1 },
    ]);
    // 4, 2, 5: mean 11 / 3 = 3.67, median 4; 1 to 5 has no Net Promoter score.
    expect(statOf(effort)).toMatchObject({ mean: 3.67, median: 4, net_promoter: null });
    expect(statOf(effort).distribution).toEqual(
      [1, 2, 3, 4, 5].map((value) => ({ value, count: value === 3 || value === 1 ? 0 : 1 })),
    );

    // Sent back as read, every id is kept; the words of an end changed keep the id and the figures.
    const roundTrip = await call('update_quiz', {
      quiz_id: created.quiz_id,
      questions: read.questions,
      confirm_edit_published: true,
    });
    expect(roundTrip.questions.map((q: { question_id: string }) => q.question_id)).toEqual([
      recommend,
      capital,
      effort,
    ]);
    const relabelled = await call('update_quiz', {
      quiz_id: created.quiz_id,
      questions: [
        { ...RECOMMEND, question_id: recommend, scale_labels: ['Never', 'Surely'] },
        { ...CAPITAL, question_id: capital },
        { ...EFFORT, question_id: effort },
      ],
      confirm_edit_published: true,
    });
    expect(relabelled.questions[0].question_id).toBe(recommend);
    const again = await call('get_results', { quiz_id: created.quiz_id });
    expect(again.questions[0]).toMatchObject({ answered_count: 3, mean: 8 });

    // The CSV holds the value picked, as results show it.
    const exported = await exportResponses(app.deps, ownerId, created.quiz_id);
    const csv = [];
    // The answers' columns; each question's points, grade state and comment follow them.
    for await (const row of exported.rows()) csv.push(row.slice(7, 10));
    expect(csv).toEqual([
      ['10', 'yes', '4'],
      ['6', 'no', '2'],
      ['8', 'yes', '5'],
    ]);
  });

  test('a quiz of scales alone has no score: no percent, no pass mark verdict, a thank-you page', async () => {
    const created = await call('create_quiz', {
      title: 'Scales alone',
      questions: [RECOMMEND, EFFORT],
      settings: { show_score_to_respondent: true, pass_mark_percent: 60 },
    });
    expect(created.max_score).toBe(0);
    await call('publish_quiz', { quiz_id: created.quiz_id });
    const [recommend, effort] = created.questions.map((q: { question_id: string }) => q.question_id);
    const res = await submit(created.slug, [
      { question_id: recommend, value: 9 },
      { question_id: effort, value: 1 },
    ]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ score: 0, max_score: 0, percent: null, passed: null });
    const resultPage = await request(app.app).get(res.body.result_url.replace(app.baseUrl, ''));
    expect(resultPage.status).toBe(200);
    expect(resultPage.text).toContain('Thank you');
    expect(resultPage.text).not.toContain('score-value');
    expect(resultPage.text).not.toMatch(/out of 0/);

    const results = await call('get_results', { quiz_id: created.quiz_id });
    expect(results.summary).toMatchObject({
      response_count: 1,
      max_score: 0,
      average_percent: null,
      pass_count: 0,
    });
    expect(results.responses[0]).toMatchObject({ score: 0, max_score: 0, percent: null, passed: null });
    // Alpha is over scored questions only: there are none.
    expect(results.item_analysis.reliability).toMatchObject({
      value: null,
      reason: 'It needs at least 2 questions.',
    });
    // One promoter of one answer: 100.
    expect(results.questions[0].net_promoter).toEqual({
      score: 100,
      promoters: 1,
      passives: 0,
      detractors: 0,
    });
  });
});
