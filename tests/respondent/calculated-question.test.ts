// A calculated question through the real doors, on both databases: created over MCP (its field
// errors first), each attempt drawing its own numbers that a reload, the JSON attempt and the
// form all show alike, marked against them, reviewed with them, re-marked against each answer's
// own numbers after a key fix, exported to Moodle XML and imported back, and Moodle's
// calculatedsimple read.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { callTool, connectClient, errorText, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';

const QUESTION = {
  type: 'calculated',
  text: 'A car drives {d} km in {t} hours. Its mean speed in km/h?',
  points: 2,
  formula: 'd / t',
  variables: [
    { name: 'd', min: 100, max: 900, decimals: 0 },
    { name: 't', min: 2, max: 8, decimals: 1 },
  ],
  tolerance: 0.5,
};

/** The numbers a text shows for d and t. */
function numbersOf(text: string): { d: number; t: number } {
  const match = /drives (\d+) km in (\d+\.\d) hours/.exec(text);
  expect(match).not.toBeNull();
  return { d: Number(match![1]), t: Number(match![2]) };
}

describeEachDatabase('a calculated question', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, `calculated-${provider}`)).apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    payload(await callTool(client, name, args));
  const refusal = async (question: Record<string, unknown>) =>
    errorText(await callTool(client, 'create_quiz', { title: 'Refused', questions: [question] }));

  test('a formula that reaches code, does not read, or has no finite value is refused on formula', async () => {
    expect(await refusal({ ...QUESTION, formula: 'd.constructor' })).toMatch(
      /formula.*cannot reach into a value/,
    );
    expect(await refusal({ ...QUESTION, formula: 'constructor' })).toMatch(
      /formula.*constructor, which is not a variable/,
    );
    expect(await refusal({ ...QUESTION, formula: 'process(d)' })).toMatch(/formula.*not a function it knows/);
    expect(await refusal({ ...QUESTION, formula: 'd = t' })).toMatch(/formula.*cannot be read/);
    expect(await refusal({ ...QUESTION, formula: 'this' })).toMatch(/formula/);
    expect(await refusal({ ...QUESTION, formula: 'd.t' })).toMatch(/formula.*cannot reach into a value/);
    expect(await refusal({ ...QUESTION, formula: 'd'.repeat(501) })).toMatch(/formula takes at most 500/);
    expect(
      await refusal({
        ...QUESTION,
        variables: [QUESTION.variables[0], { name: 't', min: 2, max: 8, decimals: 1, step: 0.5 }],
      }),
    ).toMatch(/variables.*takes decimals or step, not both/);
    expect(
      await refusal({
        ...QUESTION,
        variables: [QUESTION.variables[0], { name: 't', min: 2, max: 8, step: 0 }],
      }),
    ).toMatch(/variables.*step must be a number above 0/);
    expect(await refusal({ ...QUESTION, formula: `${'('.repeat(30)}d${')'.repeat(30)}` })).toMatch(
      /formula.*nests more than 20 parentheses/,
    );
    expect(await refusal({ ...QUESTION, formula: 'd / (t - 2)' })).toMatch(
      /formula.*no finite value for d = 100, t = 2.0/,
    );
    expect(await refusal({ ...QUESTION, formula: '9^9^9^d' })).toMatch(/formula.*no finite value/);
    expect(await refusal({ ...QUESTION, text: 'A car drives {d} km in {x} hours.' })).toMatch(
      /variables.*the text shows \{x\} but no variable is named so/,
    );
  });

  test('each attempt its own numbers, kept on reload, marked, reviewed, re-marked, exported', async () => {
    const created = await call('create_quiz', {
      title: 'Speeds',
      questions: [QUESTION],
      settings: { collect_name: false, show_correct_answers: 'after_submit' },
    });
    const questionId: string = created.questions[0].question_id;
    expect(created.questions[0]).toMatchObject({ formula: 'd / t', tolerance_type: 'absolute' });
    const published = await call('publish_quiz', { quiz_id: created.quiz_id });
    const slug: string = published.slug ?? created.slug;

    // Without an attempt: refused, as the numbers are the attempt's.
    const bare = await request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({ answers: [{ question_id: questionId, number: 1 }] });
    expect(bare.status).toBe(409);

    // Attempts draw their own numbers (two of several are sure to differ).
    const attempts = [];
    for (let i = 0; i < 6; i += 1) {
      const started = await request(app.app).post(`/api/quizzes/${slug}/attempts`).send({});
      expect(started.status).toBe(201);
      attempts.push({
        token: started.body.attempt_token as string,
        text: started.body.questions[0].text as string,
      });
    }
    expect(new Set(attempts.map((attempt) => attempt.text)).size).toBeGreaterThan(1);
    for (const attempt of attempts) expect(attempt.text).not.toContain('{');

    // Right for its own numbers, then one wrong by 1 (within 0.5 after the fix to 2).
    const [first, second] = attempts;
    const right = (text: string) => {
      const { d, t } = numbersOf(text);
      return d / t;
    };
    const sent = await request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({
        attempt_token: first!.token,
        answers: [{ question_id: questionId, number: right(first!.text) }],
      });
    expect(sent.status).toBe(201);
    expect(sent.body.score).toBe(2);
    expect(sent.body.review[0].text).toBe(first!.text);
    expect(sent.body.review[0].correct_answers).toEqual([
      `${Number(right(first!.text).toPrecision(12))} ± 0.5`,
    ]);
    const off = await request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({
        attempt_token: second!.token,
        answers: [{ question_id: questionId, number: right(second!.text) + 1 }],
      });
    expect(off.body.score).toBe(0);

    // The form: its page shows the attempt's numbers, a reload the same ones.
    const begun = await request(app.app).post(`/q/${slug}/start`).type('form').send({});
    expect(begun.status).toBe(303);
    const location = String(begun.headers.location);
    const page = (await request(app.app).get(location)).text;
    const again = (await request(app.app).get(location)).text;
    const shown = /A car drives \d+ km in \d+\.\d hours/.exec(page)![0];
    expect(again).toContain(shown);
    const token = decodeURIComponent(location.split('attempt=')[1] ?? '');
    const form = new URLSearchParams({ attempt_token: token, [`q_${questionId}`]: String(right(shown)) });
    const posted = await request(app.app).post(`/q/${slug}`).type('form').send(form.toString());
    expect(posted.status).toBe(303);
    const resultPage = (await request(app.app).get(String(posted.headers.location))).text;
    expect(resultPage).toContain(shown);

    // The key fixed (a wider tolerance): each answer re-marked against its own numbers.
    const fixed = await call('update_quiz', {
      quiz_id: created.quiz_id,
      confirm_edit_published: true,
      remark_past_responses: true,
      questions: [{ ...QUESTION, tolerance: 2, question_id: questionId }],
    });
    expect(fixed.remarked_responses).toBe(1);
    const results = await call('get_results', { quiz_id: created.quiz_id, limit: 10 });
    expect(results.responses.map((response: any) => response.score).sort()).toEqual([2, 2, 2]);
    expect(results.questions[0]).toMatchObject({ type: 'calculated', right_count: 3 });

    // Moodle XML and back: the formula in Moodle's syntax, the same question imported.
    const links = await call('get_quiz_links', { quiz_id: created.quiz_id });
    const file = await request(app.app).get(links.exports.moodle_xml.slice(app.baseUrl.length)).buffer(true);
    expect(file.text).toContain('<question type="calculatedsimple">');
    expect(file.text).toContain('<text>({d} / {t})</text>');
    const imported = await call('import_questions', { text: file.text, title: 'Back' });
    const back = await call('get_quiz_questions', { quiz_id: imported.quizzes[0].quiz_id });
    expect(back.questions[0]).toMatchObject({
      type: 'calculated',
      text: QUESTION.text,
      formula: '(d / t)',
      variables: QUESTION.variables,
      tolerance: 2,
      tolerance_type: 'absolute',
    });
  });

  test("Moodle's calculatedsimple imports, naming what it loses", async () => {
    const text = readFileSync(path.join(__dirname, '../fixtures/import/calculatedsimple.moodle.xml'), 'utf8');
    const preview = await call('import_questions', { text, title: 'Moodle', dry_run: true });
    const lost = JSON.stringify(preview);
    for (const words of ['shared datasets', 'loguniform distribution', 'its stored datasets']) {
      expect(lost).toContain(words);
    }
    const imported = await call('import_questions', { text, title: 'Moodle' });
    const back = await call('get_quiz_questions', { quiz_id: imported.quizzes[0].quiz_id });
    expect(back.questions[0]).toMatchObject({
      type: 'calculated',
      text: 'What is {a} + {b}?',
      formula: 'a + b',
      variables: [
        { name: 'a', min: 1, max: 10, decimals: 1 },
        { name: 'b', min: 1, max: 10, decimals: 0 },
      ],
      tolerance: 0.01,
      tolerance_type: 'relative',
    });
  });
});

describeEachDatabase('a calculated question with a step and a unit', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, `calc-step-${provider}`)).apiKey);
  });
  afterAll(async () => {
    await client?.close();
    await app?.close();
  });

  test('values are min + k × step, shown with their unit in the attempt and its review', async () => {
    const created = payload(
      await callTool(client, 'create_quiz', {
        title: 'Steps',
        questions: [
          {
            type: 'calculated',
            text: 'A block of {m} is pushed with {f} N. Its acceleration in m/s²?',
            formula: 'f / m',
            variables: [
              { name: 'm', min: 1, max: 3, step: 0.25, unit: 'kg' },
              { name: 'f', min: 10, max: 50, decimals: 0 },
            ],
            tolerance: 0.01,
            tolerance_type: 'relative',
          },
        ],
        settings: { collect_name: false, show_correct_answers: 'after_submit' },
      }),
    );
    await callTool(client, 'publish_quiz', { quiz_id: created.quiz_id });
    const questionId: string = created.questions[0].question_id;
    const seen = new Set<number>();
    for (let i = 0; i < 12; i += 1) {
      const started = await request(app.app).post(`/api/quizzes/${created.slug}/attempts`).send({});
      const text: string = started.body.questions[0].text;
      const match = /^A block of (\d\.\d\d) kg is pushed with (\d+) N\./.exec(text);
      expect(match).not.toBeNull();
      const m = Number(match![1]);
      const f = Number(match![2]);
      // On the step's grid, within its range.
      expect(Number.isInteger((m - 1) / 0.25)).toBe(true);
      expect(m).toBeGreaterThanOrEqual(1);
      expect(m).toBeLessThanOrEqual(3);
      seen.add(m);
      if (i === 0) {
        const sent = await request(app.app)
          .post(`/api/quizzes/${created.slug}/responses`)
          .send({
            attempt_token: started.body.attempt_token,
            answers: [{ question_id: questionId, number: f / m }],
          });
        expect(sent.status).toBe(201);
        expect(sent.body.score).toBe(1);
        expect(sent.body.review[0].text).toBe(text);
        expect(sent.body.review[0].correct_answers).toEqual([`${Number((f / m).toPrecision(12))} ± 1%`]);
      }
    }
    // Twelve draws among nine values: at least two differ unless the draw is broken.
    expect(seen.size).toBeGreaterThan(1);
    // Moodle XML draws by decimals: the step's (0.25: 2), the step itself named as lost.
    const links = payload(await callTool(client, 'get_quiz_links', { quiz_id: created.quiz_id }));
    const file = await request(app.app).get(links.exports.moodle_xml.slice(app.baseUrl.length)).buffer(true);
    expect(file.text).toContain('<name><text>m</text></name>');
    expect(file.text).toMatch(/<name><text>m<\/text><\/name>.*?<decimals><text>2<\/text><\/decimals>/s);
    expect(file.text).not.toContain('undefined');
  });
});
