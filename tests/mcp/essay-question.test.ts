// The essay type through every door: created with a rubric over MCP (its maximum the sum of each
// criterion's top level), taken over JSON and on the form with its word bounds checked, and a
// response that holds one left pending: the score so far, no pass and no answer key yet, said so
// on the result page, and counted apart by get_results. On SQLite and PostgreSQL.
import request from 'supertest';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

export const ARGUMENT_ESSAY = {
  type: 'essay',
  text: 'Should homework be banned? Argue your case.',
  min_words: 3,
  max_words: 60,
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
const CAPITAL = { type: 'yes_no', text: 'Is Lima the capital of Peru?', points: 2, correct_answer: 'yes' };

describeEachDatabase('the essay question type', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    const owner = await createTestUser(app, 'essays');
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

  test('a rubric sets the maximum; bad rubrics are refused field by field', async () => {
    const refused = await callTool(client, 'create_quiz', {
      title: 'Bad rubric',
      questions: [
        {
          type: 'essay',
          text: 'Write.',
          points: 3,
          rubric: [{ criterion: 'Only one level', levels: [{ label: 'one', points: 1 }] }],
        },
        { type: 'essay', text: 'Write.', min_words: 50, max_words: 10 },
      ],
    });
    expect(refused.isError).toBe(true);
    const text = (refused.content as Array<{ text: string }>)[0]!.text;
    expect(text).toContain('questions[0].rubric[0].levels: a criterion takes 2-6 levels');
    expect(text).toContain('questions[0].points: an essay with a rubric takes its maximum from the rubric');
    expect(text).toContain('questions[1].max_words: max_words must be at least min_words (50)');

    const created = await call('create_quiz', {
      title: 'Essay and a question',
      questions: [ARGUMENT_ESSAY, CAPITAL, { type: 'essay', text: 'Any comments?', points: 4 }],
    });
    // 2 + 3 from the rubric's top levels, 2 for the yes_no, 4 for the essay without a rubric.
    expect(created.max_score).toBe(11);
    expect(created.questions[0]).toMatchObject({
      type: 'essay',
      rubric: ARGUMENT_ESSAY.rubric,
      min_words: 3,
      max_words: 60,
    });
    expect(created.questions[2]).toMatchObject({ type: 'essay', points: 4, rubric: [], min_words: null });
    const shown = await call('get_quiz_questions', { quiz_id: created.quiz_id, view: 'respondent' });
    // Respondents see the word bounds, never the rubric.
    expect(shown.questions[0]).toEqual({
      question_id: created.questions[0].question_id,
      type: 'essay',
      text: ARGUMENT_ESSAY.text,
      min_words: 3,
      max_words: 60,
    });
  });

  test('a response with an essay is pending: score so far, no pass, no key; the form and result page say so', async () => {
    const created = await call('create_quiz', {
      title: 'Homework debate',
      questions: [ARGUMENT_ESSAY, CAPITAL],
      settings: { pass_mark_percent: 10, show_correct_answers: 'after_submit' },
    });
    await call('publish_quiz', { quiz_id: created.quiz_id });
    const [essayId, capitalId] = created.questions.map((q: { question_id: string }) => q.question_id);
    const slug: string = created.slug;

    // Word bounds, checked by the JSON route: nothing stored.
    const short = await submit(slug, [
      { question_id: essayId, text: 'Ban it.' },
      { question_id: capitalId, answer: 'yes' },
    ]);
    expect(short.status).toBe(422);
    expect(short.body.errors).toEqual([
      { field: 'answers[0].text', message: 'Write at least 3 words (got 2).' },
    ]);
    const long = await submit(slug, [
      { question_id: essayId, text: 'word '.repeat(61) },
      { question_id: capitalId, answer: 'yes' },
    ]);
    expect(long.status).toBe(422);
    expect(long.body.errors).toEqual([
      { field: 'answers[0].text', message: 'Write at most 60 words (got 61).' },
    ]);
    const tooLong = await submit(slug, [
      { question_id: essayId, text: 'a'.repeat(10_001) },
      { question_id: capitalId, answer: 'yes' },
    ]);
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.errors).toEqual([
      { field: 'answers[0].text', message: 'Use at most 10000 characters (got 10001).' },
    ]);

    // The yes_no is marked (2 of 9); the essay waits: pending, passed null, no review yet.
    const essay = 'Homework should not be banned, because practice at home builds lasting skills.';
    const a = await submit(slug, [
      { question_id: essayId, text: `  ${essay}  ` },
      { question_id: capitalId, answer: 'yes' },
    ]);
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({
      score: 2,
      max_score: 7,
      percent: 28.57,
      passed: null,
      grading_status: 'pending',
      review: null,
    });
    const resultPage = await request(app.app).get(new URL(a.body.result_url).pathname);
    expect(resultPage.text).toContain('your final score comes after grading');
    // The page reviews the marked answer as the setting allows; the essay only says it waits.
    expect(resultPage.text).toContain('Right answer');
    expect(resultPage.text).toContain('Waiting to be graded.');

    // The form: a labelled text area with its bounds in the hint; too few words refused in its words.
    const page = await request(app.app).get(`/q/${slug}`);
    expect(page.text).toMatch(new RegExp(`<textarea\\s+id="q_${essayId}_0"\\s+name="q_${essayId}"`));
    expect(page.text).toContain('At least 3 words. At most 60 words.');
    const version = /name="version" value="(\d+)"/.exec(page.text)![1]!;
    const form = (text: string) =>
      new URLSearchParams({
        version,
        name: 'F',
        [`q_${essayId}`]: text,
        [`q_${capitalId}`]: 'no',
      }).toString();
    const refused = await request(app.app).post(`/q/${slug}`).type('form').send(form('Too short'));
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Write at least 3 words (you wrote 2).');
    // What was typed comes back in the box: nothing a respondent typed is lost.
    expect(refused.text).toMatch(/>\s*Too short<\/textarea>/);
    const posted = await request(app.app)
      .post(`/q/${slug}`)
      .type('form')
      .send(form('I disagree with banning it.'));
    expect(posted.status).toBe(303);

    const results = await call('get_results', { quiz_id: created.quiz_id, limit: 10 });
    expect(results.summary).toMatchObject({
      response_count: 2,
      pending_count: 2,
      pass_count: 0,
      pass_rate: null,
    });
    const [f, ra] = results.responses;
    expect(ra).toMatchObject({ score: 2, passed: null, grading_status: 'pending' });
    expect(f).toMatchObject({ score: 0, passed: null, grading_status: 'pending' });
    expect(ra.answers[0]).toMatchObject({
      answer: essay,
      text_answer: essay,
      points: 0,
      max_points: 5,
      grade_state: 'pending',
    });
    // A marked answer carries no grade_state: its shape is as before.
    expect(ra.answers[1]).not.toHaveProperty('grade_state');
  });

  test('an essay left blank is not waited for: the response is final', async () => {
    const created = await call('create_quiz', {
      title: 'Optional essay',
      questions: [ARGUMENT_ESSAY, CAPITAL],
      settings: { require_all_answers: false, pass_mark_percent: 10 },
    });
    await call('publish_quiz', { quiz_id: created.quiz_id });
    const capitalId = created.questions[1].question_id;
    const only = await submit(created.slug, [{ question_id: capitalId, answer: 'yes' }]);
    expect(only.body).toMatchObject({ score: 2, passed: true, grading_status: 'final' });
    const results = await call('get_results', { quiz_id: created.quiz_id });
    expect(results.summary).toMatchObject({ pending_count: 0, pass_count: 1 });
  });
});
