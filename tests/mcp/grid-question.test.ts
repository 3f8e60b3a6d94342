// The grid type through every door: created and read over MCP, taken on the public form and over
// JSON, counted per row and column by get_results, a column per row in the CSV, carried by the
// webhook's answer; a keyed grid scored per row and in the item analysis, a survey grid unscored
// and out of it. On SQLite and PostgreSQL; every expected figure is worked out in the comments.
import request from 'supertest';
import { exportResponses } from '../../src/domain/quizzes/export-responses';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { logIn, newAgent, squash } from '../dashboard/dashboard-helpers';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const CAPITALS = {
  type: 'grid',
  text: 'Which country is each city the capital of?',
  items: [{ label: 'Paris' }, { label: 'Rome' }, { label: 'Lima' }],
  columns: ['France', 'Italy', 'Peru'],
  right_columns: [[0], [1], [2]],
  points_per_item: 2,
};
const COLOURS = {
  type: 'grid',
  text: 'Which colours are on each flag?',
  items: [{ label: 'Italy' }, { label: 'Japan' }],
  columns: ['Red', 'White', 'Green'],
  checkboxes: true,
  right_columns: [
    [0, 1, 2],
    [0, 1],
  ],
};
const OPINION = {
  type: 'grid',
  text: 'How did you find each part?',
  items: [{ label: 'Reading' }, { label: 'Exercises' }],
  columns: ['Easy', 'Fair', 'Hard'],
};
const CAPITAL = { type: 'yes_no', text: 'Is Lima the capital of Peru?', points: 1, correct_answer: 'yes' };

describeEachDatabase('the grid question type', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  let ownerId: string;
  let owner: TestUser;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    owner = await createTestUser(app, 'grids');
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

  test('refuses a key that does not fit its rows and columns, by name', async () => {
    const res = await callTool(client, 'create_quiz', {
      title: 'Bad grid',
      questions: [{ ...CAPITALS, right_columns: [[0], [3], [2]] }],
    });
    expect(res.isError).toBe(true);
    expect(JSON.stringify(res.content)).toContain('right_columns[1] must hold one column index from 0 to 2');
  });

  test('keyed, checkbox and survey grids: taken by JSON and form, scored per row, counted, exported', async () => {
    const created = await call('create_quiz', {
      title: 'Grids',
      questions: [CAPITALS, COLOURS, OPINION, CAPITAL],
      settings: { show_correct_answers: 'after_submit' },
    });
    // 3 rows x 2 + 2 rows x 1 + the survey's 0 + 1.
    expect(created.max_score).toBe(9);
    expect(created.warnings).toEqual([]);
    const read = await call('get_quiz_questions', { quiz_id: created.quiz_id });
    expect(read.questions[0]).toMatchObject({
      type: 'grid',
      items: CAPITALS.items,
      columns: CAPITALS.columns,
      checkboxes: false,
      right_columns: [[0], [1], [2]],
      points_per_item: 2,
    });
    expect(read.questions[2]).toMatchObject({ checkboxes: false, points_per_item: 1 });
    expect(read.questions[2]).not.toHaveProperty('right_columns');
    const [capitals, colours, opinion, capital] = read.questions.map(
      (q: { question_id: string }) => q.question_id,
    ) as [string, string, string, string];
    // Respondents are shown the rows and columns, never the key.
    const shown = await call('get_quiz_questions', { quiz_id: created.quiz_id, view: 'respondent' });
    expect(shown.questions[1]).toEqual({
      question_id: colours,
      type: 'grid',
      text: COLOURS.text,
      items: COLOURS.items,
      columns: COLOURS.columns,
      checkboxes: true,
    });
    await call('publish_quiz', { quiz_id: created.quiz_id });
    const slug: string = created.slug;

    // A column that is not there, and two columns in a one-per-row grid: refused by name.
    const bad = await submit(slug, [
      { question_id: capitals, rows: [0, 1, 3] },
      { question_id: opinion, rows: [[0, 1], null] },
    ]);
    expect(bad.status).toBe(422);
    const fields = bad.body.errors.map((error: { field: string }) => error.field);
    expect(fields.filter((field: string) => field.endsWith('.rows'))).toEqual([
      'answers[0].rows',
      'answers[1].rows',
    ]);
    expect(bad.body.errors[fields.indexOf('answers[1].rows')].message).toContain(
      'This grid takes one column per row',
    );

    // A, by JSON: all right; colours all right; opinion Easy, Hard; yes. 6 + 2 + 1 = 9.
    const a = await submit(slug, [
      { question_id: capitals, rows: [0, 1, 2] },
      {
        question_id: colours,
        rows: [
          [2, 1, 0],
          [0, 1],
        ],
      },
      { question_id: opinion, rows: [0, 2] },
      { question_id: capital, answer: 'yes' },
    ]);
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ score: 9, max_score: 9 });
    expect(a.body.review[0]).toMatchObject({
      your_answer: 'Paris: France; Rome: Italy; Lima: Peru',
      points: 6,
      max_points: 6,
    });
    expect(a.body.review[2]).toMatchObject({ points: 0, max_points: 0, correct_answers: [] });
    // B, by JSON: Paris France, Rome France, Lima empty (2); Italy red only, Japan red and white (1); no.
    const b = await submit(slug, [
      { question_id: capitals, rows: [0, 0, null] },
      { question_id: colours, rows: [[0], [0, 1]] },
      { question_id: opinion, rows: [1, 2] },
      { question_id: capital, answer: 'no' },
    ]);
    expect(b.body).toMatchObject({ score: 3, max_score: 9 });

    // C, on the form: a table with a radio group per row, each cell named by its row and column.
    const page = await request(app.app).get(`/q/${slug}`);
    expect(page.text).toContain('<th scope="col" id="grid-' + capitals + '-c0"');
    expect(page.text).toContain(`<th scope="row" id="grid-${capitals}-r2"`);
    expect(page.text).toMatch(
      new RegExp(
        `type="radio"\\s+id="q_${capitals}_0"\\s+name="q_${capitals}_r0"\\s+value="0"\\s+aria-labelledby="grid-${capitals}-r0 grid-${capitals}-c0"`,
      ),
    );
    expect(page.text).toMatch(new RegExp(`type="checkbox"\\s+id="q_${colours}_5"\\s+name="q_${colours}_r1"`));
    expect(page.text).toContain('Choose one answer in each row.');
    expect(page.text).toContain('Tick any answers in each row.');
    const version = /name="version" value="(\d+)"/.exec(page.text)![1]!;
    const form = (lima: string) => {
      const body = new URLSearchParams({ version, name: 'C' });
      // Paris Italy (wrong), Rome Italy, Lima as given: 2 or 4.
      body.append(`q_${capitals}_r0`, '1');
      body.append(`q_${capitals}_r1`, '1');
      body.append(`q_${capitals}_r2`, lima);
      // Italy red, white, green (right); Japan left empty: 1.
      for (const column of ['0', '1', '2']) body.append(`q_${colours}_r0`, column);
      body.append(`q_${opinion}_r0`, '2');
      body.append(`q_${capital}`, 'yes');
      return body.toString();
    };
    const tampered = await request(app.app).post(`/q/${slug}`).type('form').send(form('7'));
    expect(tampered.status).toBe(422);
    expect(tampered.text).toContain('Choose one of the answers listed.');
    // What was ticked stays ticked beside the error.
    expect(tampered.text).toMatch(new RegExp(`id="q_${capitals}_1"[^>]*checked`));
    const posted = await request(app.app).post(`/q/${slug}`).type('form').send(form('2'));
    expect(posted.status).toBe(303);

    const results = await call('get_results', { quiz_id: created.quiz_id, limit: 10 });
    // C: 4 + 1 + 0 + 1 = 6.
    const scores = (results.responses as Array<{ score: number }>).map((r) => r.score).reverse();
    expect(scores).toEqual([9, 3, 6]);
    const c = (results.responses as Array<any>)[0];
    expect(c.answers[0]).toMatchObject({
      answer: 'Paris: Italy; Rome: Italy; Lima: Peru',
      rows: [[1], [1], [2]],
      points: 4,
      max_points: 6,
    });
    expect(c.answers[1]).toMatchObject({ rows: [[0, 1, 2], []], points: 1 });
    const statOf = (id: string) => results.questions.find((q: any) => q.question_id === id);
    // Paris: France A B, Italy C (right 2 of 3); Rome: Italy A C, France B (2 of 3); Lima: Peru A C (2 of 3).
    expect(statOf(capitals)).toMatchObject({
      type: 'grid',
      answered_count: 3,
      right_count: 1,
      rows: [
        { row: 'Paris', counts: [2, 1, 0], right_share: 0.67 },
        { row: 'Rome', counts: [1, 2, 0], right_share: 0.67 },
        { row: 'Lima', counts: [0, 0, 2], right_share: 0.67 },
      ],
    });
    // Italy: red A B C, white A C, green A C; right A C. Japan: red A B, white A B; right A B.
    expect(statOf(colours).rows).toEqual([
      { row: 'Italy', counts: [3, 2, 2], right_share: 0.67 },
      { row: 'Japan', counts: [2, 2, 0], right_share: 0.67 },
    ]);
    // The survey: counted per column, no right share, no item analysis figures.
    expect(statOf(opinion)).toMatchObject({
      type: 'grid',
      right_count: null,
      rows: [
        { row: 'Reading', counts: [1, 1, 1], right_share: null },
        { row: 'Exercises', counts: [0, 0, 2], right_share: null },
      ],
      facility: null,
      discrimination: null,
    });
    // The keyed grid is an item of the test: its facility is its mean share, (6 + 2 + 4) / 3 / 6.
    expect(statOf(capitals).facility).toBe(0.67);

    // The dashboard's results: each grid's name, and the item analysis without the survey.
    const agent = newAgent(app);
    expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
    const questionsPage = squash(
      (await agent.get(`/dashboard/quizzes/${created.quiz_id}/results/questions`).expect(200)).text,
    );
    expect(questionsPage).toContain('Grid');
    expect(questionsPage).toContain('Reading: Hard');
    const items = squash(
      (await agent.get(`/dashboard/quizzes/${created.quiz_id}/results/items`).expect(200)).text,
    );
    expect(items).toContain(CAPITALS.text);
    expect(items).toContain(COLOURS.text);
    expect(items).not.toContain(OPINION.text);

    // The CSV has a column per row of each grid, its columns' labels joined.
    const exported = await exportResponses(app.deps, ownerId, created.quiz_id);
    expect(exported.header.slice(7, 16)).toEqual([
      `Q1. ${CAPITALS.text} [Paris]`,
      `Q1. ${CAPITALS.text} [Rome]`,
      `Q1. ${CAPITALS.text} [Lima]`,
      `Q2. ${COLOURS.text} [Italy]`,
      `Q2. ${COLOURS.text} [Japan]`,
      `Q3. ${OPINION.text} [Reading]`,
      `Q3. ${OPINION.text} [Exercises]`,
      `Q4. ${CAPITAL.text}`,
      'grading_status',
    ]);
    expect(exported.header.slice(16, 19)).toEqual(['Q1 points', 'Q1 grade', 'Q1 comment']);
    const csv = [];
    for await (const row of exported.rows()) csv.push(row.slice(7, 15));
    expect(csv).toEqual([
      ['France', 'Italy', 'Peru', 'Red, White, Green', 'Red, White', 'Easy', 'Hard', 'yes'],
      ['France', 'France', null, 'Red', 'Red, White', 'Fair', 'Hard', 'no'],
      ['Italy', 'Italy', 'Peru', 'Red, White, Green', null, 'Hard', null, 'yes'],
    ]);

    // Sent back as read, every id is kept.
    const roundTrip = await call('update_quiz', {
      quiz_id: created.quiz_id,
      questions: read.questions,
      confirm_edit_published: true,
    });
    expect(roundTrip.questions.map((q: { question_id: string }) => q.question_id)).toEqual([
      capitals,
      colours,
      opinion,
      capital,
    ]);
  });

  test('a quiz of a survey grid alone has no score and no item of analysis', async () => {
    const created = await call('create_quiz', { title: 'Survey', questions: [OPINION] });
    expect(created.max_score).toBe(0);
    await call('publish_quiz', { quiz_id: created.quiz_id });
    const [opinion] = created.questions.map((q: { question_id: string }) => q.question_id);
    const res = await submit(created.slug, [{ question_id: opinion, rows: [0, 1] }]);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ score: 0, max_score: 0, percent: null, passed: null });
    const results = await call('get_results', { quiz_id: created.quiz_id });
    expect(results.item_analysis.reliability).toMatchObject({ value: null });
    expect(results.questions[0]).toMatchObject({ right_count: null, facility: null });
  });
});
