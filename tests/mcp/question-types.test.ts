// A quiz of all five question types, through every door: created and read over MCP, taken on
// the public form and over JSON, scored, counted, updated with kept ids, re-marked and exported,
// on SQLite and PostgreSQL. Every expected score is worked out by hand in the comments.
import request from 'supertest';
import { exportResponses } from '../../src/domain/quizzes/export-responses';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const QUESTIONS = [
  // "no" is right: 2 points for "no", 0 for "yes".
  { type: 'yes_no', text: 'Is Milan the capital of Italy?', points: 2, correct_answer: 'no' },
  {
    type: 'multiple_choice',
    text: 'Capital of Peru?',
    options: [
      { label: 'Lima', score: 3 },
      { label: 'Cusco', score: 0 },
      { label: 'Quito', score: -1 },
    ],
  },
  // Maximum 2 + 2 = 4; a tick sum below 0 earns 0.
  {
    type: 'multiple_select',
    text: 'Which are prime?',
    options: [
      { label: 'Two', score: 2 },
      { label: 'Three', score: 2 },
      { label: 'Four', score: -3 },
      { label: 'Nine', score: -1 },
    ],
  },
  {
    type: 'short_text',
    text: 'Which country has Lima as its capital?',
    accepted_answers: ['Perú'],
    points: 2,
    explanation: 'Lima has been the capital of Perú since 1535.',
  },
  // Right from 3.0 to 4.0, both included.
  { type: 'number', text: '7 × 8 ÷ 16?', correct_number: 3.5, tolerance: 0.5, points: 3 },
  // Collects text only: maximum 0.
  { type: 'short_text', text: 'Any comments?' },
];
const MAX = 2 + 3 + 4 + 2 + 3 + 0;

describeEachDatabase('a quiz of all five question types', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  let ownerId: string;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    const owner = await createTestUser(app, 'five-types');
    ownerId = owner.id;
    client = await connectClient(app, owner.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));

  test('created, taken by form and JSON, scored, counted, kept through edits, re-marked and exported', async () => {
    const created = await call('create_quiz', {
      title: 'Five kinds',
      questions: QUESTIONS,
      settings: { require_all_answers: false, show_correct_answers: 'after_submit' },
    });
    const read = await call('get_quiz_questions', { quiz_id: created.quiz_id });
    expect(read.max_score).toBe(MAX);
    expect(read.questions.map((q: { type: string }) => q.type)).toEqual(QUESTIONS.map((q) => q.type));
    expect(read.questions[2]).toMatchObject({ type: 'multiple_select', options: QUESTIONS[2]!.options });
    expect(read.questions[3]).toMatchObject({
      accepted_answers: ['Perú'],
      points: 2,
      explanation: 'Lima has been the capital of Perú since 1535.',
    });
    expect(read.questions[4]).toMatchObject({ correct_number: 3.5, tolerance: 0.5, points: 3 });
    expect(read.questions[5]).toMatchObject({ accepted_answers: [], points: 1 });
    const ids: string[] = read.questions.map((q: { question_id: string }) => q.question_id);
    const [yesNo, choice, select, text, number, comments] = ids as [
      string,
      string,
      string,
      string,
      string,
      string,
    ];
    await call('publish_quiz', { quiz_id: created.quiz_id });
    const slug: string = created.slug;

    // The public page offers a checkbox group, a text box, and a decimal box (not type=number).
    const page = await request(app.app).get(`/q/${slug}`);
    expect(page.text).toContain(`type="checkbox"`);
    expect(page.text).toMatch(new RegExp(`id="q_${number}_0"[^>]*inputmode="decimal"`, 's'));
    expect(page.text).not.toContain('type="number"');
    expect(page.text).not.toContain('Perú'); // the key stays out of the page

    const submit = (answers: object[]) =>
      request(app.app)
        .post(`/api/quizzes/${slug}/responses`)
        .send({ respondent: { name: 'R' }, answers });
    // A: 2 + 3 + (2 + 2) + 2 (case ignored) + 3 ("3,5" is 3.5) = 14.
    const a = await submit([
      { question_id: yesNo, answer: 'no' },
      { question_id: choice, option_index: 0 },
      { question_id: select, choices: [1, 0] },
      { question_id: text, text: 'perú' },
      { question_id: number, number: '3,5' },
      { question_id: comments, text: 'Great' },
    ]);
    expect(a.status).toBe(201);
    expect(a.body.score).toBe(14);
    // The review names every positively scored option, the accepted answers and the tolerance.
    expect(a.body.review.map((item: { correct_answers: string[] }) => item.correct_answers)).toEqual([
      ['no'],
      ['Lima'],
      ['Two', 'Three'],
      ['Perú'],
      ['3.5 ± 0.5'],
      [],
    ]);
    // B: 0 + (-1) + max(0, -3 - 1) + 0 (accents count) + 0 (4.0001 is outside) = -1.
    const b = await submit([
      { question_id: yesNo, answer: 'yes' },
      { question_id: choice, option_index: 2 },
      { question_id: select, choices: [2, 3] },
      { question_id: text, text: 'Peru' },
      { question_id: number, number: 4.0001 },
    ]);
    expect(b.body.score).toBe(-1);
    // C: 2 + 0 + 0 (none ticked is an answer) + 2 (decomposed "u" + accent is "ú") + 3 (4 is the upper bound) = 7.
    const c = await submit([
      { question_id: yesNo, answer: 'no' },
      { question_id: choice, option_index: 1 },
      { question_id: select, choices: [] },
      { question_id: text, text: 'Peru\u0301' },
      { question_id: number, number: 4 },
    ]);
    expect(c.body.score).toBe(7);
    // Grouping separators are refused with a message, and nothing is stored.
    const grouped = await submit([{ question_id: number, number: '1,000.5' }]);
    expect(grouped.status).toBe(422);
    expect(JSON.stringify(grouped.body.errors)).toContain('without thousands separators');

    // D, on the form: 2 + 3 + max(0, 2 - 3) + 2 (spaces trimmed, upper case) + 3 ("3,0" is the lower bound) = 10.
    const version = /name="version" value="(\d+)"/.exec(page.text)![1]!;
    const form = new URLSearchParams({ version, name: 'D' });
    form.set(`q_${yesNo}`, 'no');
    form.set(`q_${choice}`, '0');
    form.append(`q_${select}`, '');
    form.append(`q_${select}`, '0');
    form.append(`q_${select}`, '2');
    form.set(`q_${text}`, '  PERÚ  ');
    form.set(`q_${number}`, '3,0');
    form.set(`q_${comments}`, '');
    const posted = await request(app.app).post(`/q/${slug}`).type('form').send(form.toString());
    expect(posted.status).toBe(303);
    const resultPage = await request(app.app).get(posted.headers.location!.replace(app.baseUrl, ''));
    expect(resultPage.text).toMatch(/<span class="score-value">10<\/span>/);
    expect(resultPage.text).toContain('Two; Four');

    const results = await call('get_results', { quiz_id: created.quiz_id, limit: 10 });
    expect(results.summary).toMatchObject({
      response_count: 4,
      max_score: MAX,
      highest_score: 14,
      lowest_score: -1,
    });
    const byName = (results.responses as Array<any>).reverse(); // oldest first: A, B, C, D
    expect(byName.map((r) => r.score)).toEqual([14, -1, 7, 10]);
    const answersOf = (r: any) => r.answers.map((x: any) => x.answer);
    expect(answersOf(byName[0])).toEqual(['no', 'Lima', 'Two; Three', 'perú', '3,5', 'Great']);
    expect(answersOf(byName[2])).toEqual(['no', 'Cusco', '', 'Peru\u0301', '4', null]);
    expect(byName[0].answers[2]).toMatchObject({ choices: [0, 1] });
    expect(byName[0].answers[3]).toMatchObject({ text_answer: 'perú', text: QUESTIONS[3]!.text });
    expect(byName[0].answers[4]).toMatchObject({ number: 3.5 });
    expect(byName[3].answers[4]).toMatchObject({ answer: '3,0', number: 3 });

    const statOf = (id: string) => results.questions.find((q: any) => q.question_id === id);
    // Ticks per option: Two by A and D, Three by A, Four by B and D, Nine by B; C ticked none.
    expect(statOf(select).options.map((o: any) => o.count)).toEqual([2, 1, 2, 1]);
    expect(statOf(select).answered_count).toBe(4);
    // Typed: "perú", "Perú" (decomposed) and "PERÚ" are one answer as compared; 3 of 4 right.
    expect(statOf(text)).toMatchObject({ answered_count: 4, right_count: 3 });
    expect(statOf(text).common_answers[0].count).toBe(3);
    expect(statOf(text).common_answers[1]).toEqual({ answer: 'Peru', count: 1 });
    expect(statOf(number)).toMatchObject({ answered_count: 4, right_count: 3 });
    expect(
      statOf(number)
        .common_values.map((v: any) => v.value)
        .sort(),
    ).toEqual([3, 3.5, 4, 4.0001]);
    expect(statOf(comments)).toMatchObject({ answered_count: 1, right_count: null });

    // The questions sent back exactly as get_quiz_questions gave them (null explanations, [] accepted
    // answers) are taken as they are: same ids, same marks.
    const roundTrip = await call('update_quiz', {
      quiz_id: created.quiz_id,
      questions: read.questions,
      confirm_edit_published: true,
    });
    expect(roundTrip.questions.map((q: { question_id: string }) => q.question_id)).toEqual(ids);
    expect((await call('get_quiz_questions', { quiz_id: created.quiz_id })).questions).toEqual(
      read.questions,
    );

    // A typo fix with each question_id keeps every id.
    const edited: Array<Record<string, unknown>> = QUESTIONS.map((q, i) => ({ ...q, question_id: ids[i] }));
    edited[3] = { ...edited[3]!, text: 'Which country has Lima as its capital city?' };
    const kept = await call('update_quiz', {
      quiz_id: created.quiz_id,
      questions: edited,
      confirm_edit_published: true,
    });
    expect(kept.questions.map((q: { question_id: string }) => q.question_id)).toEqual(ids);

    // The key fixed: no tolerance. Re-marked: A's 3.5 stays right; C's 4 and D's 3 now earn 0.
    edited[4] = { ...edited[4]!, tolerance: 0 };
    const remarked = await call('update_quiz', {
      quiz_id: created.quiz_id,
      questions: edited,
      confirm_edit_published: true,
      remark_past_responses: true,
    });
    expect(remarked.remarked_responses).toBe(2);
    const after = (await call('get_results', { quiz_id: created.quiz_id, limit: 10 })).responses.reverse();
    expect(after.map((r: any) => [r.score, r.original_score])).toEqual([
      [14, null],
      [-1, null],
      [4, 7],
      [7, 10],
    ]);

    // The CSV holds each answer as results show it, the ticked labels joined.
    const exported = await exportResponses(app.deps, ownerId, created.quiz_id);
    const rows = [];
    for await (const row of exported.rows()) rows.push(row);
    expect(exported.header.slice(7, 7 + QUESTIONS.length)).toEqual(
      QUESTIONS.map((q, i) => `Q${i + 1}. ${i === 3 ? edited[3]!.text : q.text}`),
    );
    expect(rows.map((row) => row.slice(7, 7 + QUESTIONS.length))).toEqual([
      ['no', 'Lima', 'Two; Three', 'perú', '3,5', 'Great'],
      ['yes', 'Quito', 'Four; Nine', 'Peru', '4.0001', null],
      ['no', 'Cusco', '', 'Peru\u0301', '4', null],
      ['no', 'Lima', 'Two; Four', 'PERÚ', '3,0', null],
    ]);
  });
});
