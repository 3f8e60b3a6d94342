// The fill_in_blanks question type through the real doors: created, read back and updated over
// MCP in both eras, taken through an attempt (JSON and form), scored with the marks worked out by
// hand (case, an accent that counts, a choice-list blank), re-marked after a key fix, exported to
// CSV and reviewed; and the proof that nothing a respondent receives holds the key.
import request from 'supertest';
import { exportResponses } from '../../src/domain/quizzes/export-responses';
import { callTool, connectClient, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';

// Q1: a typed blank (2 points) and a choice-list blank (1 point), maximum 3.
// Q2: two typed blanks, 1 point each, maximum 2. The quiz's maximum is 5.
const CAPITALS = {
  type: 'fill_in_blanks',
  text: 'The capital of Peru is [[1]], and the Eiffel Tower was finished in [[2]].',
  blanks: [
    { accepted_answers: ['Lima'], points: 2 },
    { options: ['1789', '1889', '1901'], correct_option: 1 },
  ],
};
const RIVERS = {
  type: 'fill_in_blanks',
  text: 'The longest river of [[2]] is the [[1]].',
  blanks: [{ accepted_answers: ['Amazonas', 'Amazon'] }, { accepted_answers: ['Perú'] }],
};

type Option = { option_id: string; label: string };
type Started = {
  attempt_token: string;
  questions: Array<{
    question_id: string;
    text: string;
    blank_count: number;
    blank_2_options?: Option[];
  }>;
};

forEachEra((era) => {
  let app: TestApp;
  let client: AnyClient;
  beforeAll(async () => {
    app = await startTestApp();
    client = await era.connect(app, (await createTestUser(app, `blanks-${era.era}`)).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('create_quiz, get_quiz_questions and update_quiz keep the blanks as sent', async () => {
    const created = payload(
      await callTool(client, 'create_quiz', { title: 'Blanks', questions: [CAPITALS, RIVERS] }),
    );
    expect(created.max_score).toBe(5);
    const read = payload(await callTool(client, 'get_quiz_questions', { quiz_id: created.quiz_id }));
    expect(read.questions[0]).toMatchObject({
      type: 'fill_in_blanks',
      text: CAPITALS.text,
      blanks: [
        { accepted_answers: ['Lima'], points: 2 },
        { options: ['1789', '1889', '1901'], correct_option: 1, points: 1 },
      ],
    });
    // Sent back as read, with one blank's points changed: maximum 6; the unchanged question keeps
    // its id, the changed key gets a new one (as every type's does).
    const questions = read.questions.map((question: Record<string, unknown>) => {
      const { position: _position, ...rest } = question;
      return rest;
    });
    questions[1].blanks[0].points = 2;
    const updated = payload(await callTool(client, 'update_quiz', { quiz_id: created.quiz_id, questions }));
    expect(updated.max_score).toBe(6);
    expect(updated.questions[0].question_id).toBe(read.questions[0].question_id);
    expect(updated.questions[1].question_id).not.toBe(read.questions[1].question_id);
    expect(updated.questions[1].blanks[0]).toEqual({ accepted_answers: ['Amazonas', 'Amazon'], points: 2 });
    // A marker without its entry is refused by name; nothing changes.
    const refused = await callTool(client, 'update_quiz', {
      quiz_id: created.quiz_id,
      questions: [{ ...CAPITALS, text: `${CAPITALS.text} And [[3]].` }],
    });
    expect(refused.isError).toBe(true);
    expect(JSON.stringify(refused.content)).toContain(
      'text has the marker [[3]] but blanks has no entry for it',
    );
    const after = payload(await callTool(client, 'get_quiz_questions', { quiz_id: created.quiz_id }));
    expect(after.questions).toHaveLength(2);
  });
});

describeEachDatabase('the fill_in_blanks question type', (provider) => {
  let app: TestApp;
  let user: TestUser;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    user = await createTestUser(app, `blanks-${provider}`);
    client = await connectClient(app, user.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    payload(await callTool(client, name, args));

  async function publish(settings: Record<string, unknown> = {}, questions: object[] = [CAPITALS, RIVERS]) {
    const quiz = await call('create_quiz', {
      title: 'Fill in the blanks',
      questions,
      settings: { collect_name: false, require_all_answers: false, ...settings },
    });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
  }

  const start = async (slug: string) => {
    const started = await request(app.app).post(`/api/quizzes/${slug}/attempts`).send({});
    expect(started.status).toBe(201);
    return started.body as Started;
  };

  /** Answers both questions: Q1's typed blank and the label chosen, Q2's two typed blanks. */
  async function answer(
    slug: string,
    capital: string | null,
    year: string | null,
    river: string,
    country: string,
  ) {
    const started = await start(slug);
    const [q1, q2] = started.questions;
    const option = q1!.blank_2_options!.find((o) => o.label === year)?.option_id ?? null;
    return request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({
        attempt_token: started.attempt_token,
        answers: [
          { question_id: q1!.question_id, blanks: [capital, option] },
          { question_id: q2!.question_id, blanks: [river, country] },
        ],
      });
  }

  test('scored by hand per blank: case, an accent that counts, a choice list; reviewed, counted, re-marked, exported', async () => {
    const quiz = await publish({ show_correct_answers: 'after_submit' });
    // All right, case and spaces aside: 2 + 1 + 1 + 1 = 5.
    const right = await answer(quiz.slug, '  LIMA ', '1889', 'amazon', 'perú');
    expect(right.status).toBe(201);
    expect(right.body).toMatchObject({ score: 5, max_score: 5 });
    // "Peru" without its accent is wrong (0); 1789 is wrong (0); Lima right (2); Amazonas right (1): 3.
    const accent = await answer(quiz.slug, 'Lima', '1789', 'Amazonas', 'Peru');
    expect(accent.body).toMatchObject({ score: 3, max_score: 5 });
    // The choice list alone right in Q1 (1); Nile wrong, Perú right (1): 2.
    const list = await answer(quiz.slug, null, '1889', 'Nile', 'Perú');
    expect(list.body).toMatchObject({ score: 2, max_score: 5 });

    // The review shows what was given and the right answers per blank.
    const review = accent.body.review as Array<Record<string, unknown>>;
    expect(review[0]).toMatchObject({
      your_answer: '1: Lima; 2: 1789',
      points: 2,
      max_points: 3,
      correct_answers: ['1: Lima; 2: 1889'],
    });
    expect(review[1]).toMatchObject({ your_answer: '1: Amazonas; 2: Peru', points: 1, max_points: 2 });

    // get_results: the answer string, the blanks given, and per blank the share right and the common wrong one.
    const results = await call('get_results', { quiz_id: quiz.quiz_id, limit: 10 });
    const accented = results.responses.find((r: any) => r.score === 3);
    expect(accented.answers[0]).toMatchObject({
      answer: '1: Lima; 2: 1789',
      blanks: ['Lima', '1789'],
      option_index: null,
      choices: null,
      points: 2,
      max_points: 3,
    });
    const [capitals, rivers] = results.questions;
    // Blank 1 right in 2 of 3 answers (one left it empty); blank 2 right in 2 of 3, 1789 once.
    expect(capitals).toMatchObject({ type: 'fill_in_blanks', answered_count: 3 });
    expect(capitals.blanks).toEqual([
      { blank: 1, right_share: 0.67, common_wrong_answer: null, common_wrong_count: 0 },
      { blank: 2, right_share: 0.67, common_wrong_answer: '1789', common_wrong_count: 1 },
    ]);
    // River: Nile once wrong; country: "peru" (as compared) once wrong.
    expect(rivers.blanks[0]).toMatchObject({
      right_share: 0.67,
      common_wrong_answer: 'nile',
      common_wrong_count: 1,
    });
    expect(rivers.blanks[1]).toMatchObject({
      right_share: 0.67,
      common_wrong_answer: 'peru',
      common_wrong_count: 1,
    });
    // The item analysis: facility is the mean share of the maximum, (3 + 2 + 1) / (3 x 3).
    expect(capitals.facility).toBeCloseTo(6 / 9, 2);

    // The key fixed (the owner accepts "Peru" too): past answers re-marked.
    const fixed = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      remark_past_responses: true,
      questions: [
        { ...CAPITALS, question_id: quiz.questions[0]!.question_id },
        {
          ...RIVERS,
          question_id: quiz.questions[1]!.question_id,
          blanks: [RIVERS.blanks[0], { accepted_answers: ['Perú', 'Peru'] }],
        },
      ],
    });
    // Only the answer with "Peru" gets new marks: 3 becomes 4.
    expect(fixed.remarked_responses).toBe(1);
    const after = await call('get_results', { quiz_id: quiz.quiz_id, limit: 10 });
    expect(after.responses.map((r: any) => r.score).sort()).toEqual([2, 4, 5]);

    // The CSV holds the answer strings, as results show them.
    const exported = await exportResponses(app.deps, user.id, quiz.quiz_id);
    const cells: string[] = [];
    for await (const row of exported.rows()) cells.push(...row.map(String));
    expect(cells).toContain('1: Lima; 2: 1789');
    expect(cells).toContain('1: Nile; 2: Perú');
  });

  test('bad blanks are refused with what to fix, nothing stored; a choice list needs an attempt', async () => {
    const quiz = await publish();
    const started = await start(quiz.slug);
    const q1 = started.questions[0]!;
    const send = (blanks: unknown, token: string | undefined = started.attempt_token) =>
      request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({
          ...(token ? { attempt_token: token } : {}),
          answers: [{ question_id: q1.question_id, blanks }],
        });
    const wrongLength = await send(['Lima']);
    expect(wrongLength.status).toBe(422);
    expect(JSON.stringify(wrongLength.body.errors)).toContain('a list of 2 entries in blank order');
    const notAnId = await send(['Lima', '1889']);
    expect(notAnId.status).toBe(422);
    expect(JSON.stringify(notAnId.body.errors)).toContain('blank 2 is a choice list');
    const notStrings = await send([1, 2]);
    expect(notStrings.status).toBe(422);
    const noToken = await send(['Lima', q1.blank_2_options![0]!.option_id], '');
    expect(noToken.status).toBe(409);
    // Ids of another attempt name nothing here.
    const other = (await start(quiz.slug)).questions[0]!;
    expect((await send(['Lima', other.blank_2_options![1]!.option_id])).status).toBe(422);
    const results = await call('get_results', { quiz_id: quiz.quiz_id });
    expect(results.summary.response_count).toBe(0);
  });

  test('typed blanks alone need no attempt: answered by JSON straight away', async () => {
    const quiz = await publish({}, [RIVERS]);
    const sent = await request(app.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .send({ answers: [{ question_id: quiz.questions[0]!.question_id, blanks: ['Amazon', null] }] });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ score: 1, max_score: 2 });
  });

  test('nothing a respondent receives holds the key: attempt, quiz JSON, form and scripts', async () => {
    const quiz = await publish();
    const seen = new Set<string>();
    for (let i = 0; i < 3; i += 1) {
      const started = await start(quiz.slug);
      const q1 = started.questions[0]!;
      expect(q1.blank_count).toBe(2);
      for (const option of q1.blank_2_options!) {
        expect(option.option_id).toMatch(/^[A-Za-z0-9_-]{8}$/);
        expect(seen.has(option.option_id)).toBe(false);
        seen.add(option.option_id);
      }
      const text = JSON.stringify(started);
      // Accepted answers are never sent; nor is which option is right, or any score.
      for (const secret of ['Lima', 'Amazonas', 'Amazon"', 'Perú']) expect(text).not.toContain(secret);
      expect(text).not.toMatch(/"(correct_option|accepted_answers|index|option_index|score|points)"/);
    }
    const begun = await request(app.app).post(`/q/${quiz.slug}/start`).type('form').send({});
    const page = await request(app.app).get(String(begun.headers.location));
    expect(page.status).toBe(200);
    const html = page.text;
    for (const secret of ['Lima', 'Amazonas', 'Perú']) expect(html).not.toContain(secret);
    const values = [...html.matchAll(/<option value="([^"]*)"/g)].map((match) => match[1]!);
    expect(values.filter((value) => value !== '').every((value) => /^[A-Za-z0-9_-]{8}$/.test(value))).toBe(
      true,
    );
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    for (const [, attributes, inline] of scripts) {
      expect(inline!.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attributes!)![1]!;
      const body = (await request(app.app).get(src)).text;
      for (const secret of ['Lima', 'Amazonas', '1889']) expect(body).not.toContain(secret);
    }
  });

  test('the form: a box or select in place of each marker, labelled with its number; scored; a blank too long is named', async () => {
    const quiz = await publish({ language: 'en' });
    const begun = await request(app.app).post(`/q/${quiz.slug}/start`).type('form').send({});
    const token = decodeURIComponent(String(begun.headers.location).split('attempt=')[1] ?? '');
    const page = (await request(app.app).get(String(begun.headers.location))).text;
    const [q1, q2] = quiz.questions.map((q) => q.question_id);
    // The controls sit in the text, in place of the markers, each labelled "Blank n".
    expect(page).toContain('The capital of Peru is <span class="blank"');
    expect(page).not.toContain('[[1]]');
    expect(page).toMatch(/<span class="sr-only">Blank 1<\/span\s*>/);
    expect(page).toContain(`name="q_${q1}_b1"`);
    expect(page).toContain(`name="q_${q1}_b2"`);
    // In Q2, [[2]] comes first in the text: its control is still blank 2's.
    expect(page.indexOf(`name="q_${q2}_b2"`)).toBeLessThan(page.indexOf(`name="q_${q2}_b1"`));
    const select = new RegExp(`<select[^>]*name="q_${q1}_b2"[^>]*>([\\s\\S]*?)</select>`).exec(page)![1]!;
    const idOf = (label: string) => new RegExp(`<option value="([^"]+)"\\s*>\\s*${label}`).exec(select)![1]!;

    const tooLong = new URLSearchParams({ attempt_token: token });
    tooLong.append(`q_${q1}_b1`, 'x'.repeat(501));
    tooLong.append(`q_${q1}_b2`, idOf('1889'));
    const refused = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(tooLong.toString());
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Use at most 500 characters.');
    // The choice made is kept.
    expect(refused.text).toMatch(new RegExp(`value="${idOf('1889')}"\\s+selected`));

    const body = new URLSearchParams({ attempt_token: token });
    body.append(`q_${q1}_b1`, 'lima');
    body.append(`q_${q1}_b2`, idOf('1889'));
    body.append(`q_${q2}_b1`, 'Amazon');
    body.append(`q_${q2}_b2`, '');
    const sent = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(body.toString());
    expect(sent.status).toBe(303);
    // 2 + 1 + 1 + 0 (left empty) = 4.
    const results = await call('get_results', { quiz_id: quiz.quiz_id });
    expect(results.responses[0]).toMatchObject({ score: 4, max_score: 5 });
    expect(results.responses[0].answers[1].answer).toBe('1: Amazon');
  });
});
