// A yes/no question with an answer key, explanations and a description, and questions that keep
// their ids (and statistics) through an edit: through the tools, the JSON submission and the
// public page, on SQLite and PostgreSQL. Requests shaped as before these existed answer as before.
import request from 'supertest';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, errorText, payload, type AnyClient } from '../helpers/mcp-clients';

describeEachDatabase('answer keys, explanations, descriptions and kept question ids', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'keys')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));
  const submit = (slug: string, answers: unknown[]) =>
    request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({ respondent: { name: 'Ann' }, answers });

  test('"Is Milan the capital of Italy?" with correct_answer "no" rewards "no", and only "no"', async () => {
    const quiz = await call('create_quiz', {
      title: 'Italy',
      questions: [
        { type: 'yes_no', text: 'Is Milan the capital of Italy?', points: 3, correct_answer: 'no' },
      ],
    });
    expect(quiz.max_score).toBe(3);
    expect(quiz.questions[0]).toMatchObject({ correct_answer: 'no', points: 3 });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    const id = quiz.questions[0].question_id;
    const no = await submit(quiz.slug, [{ question_id: id, answer: 'no' }]);
    const yes = await submit(quiz.slug, [{ question_id: id, answer: 'yes' }]);
    expect([no.status, no.body.score, yes.status, yes.body.score]).toEqual([201, 3, 201, 0]);
    const results = await call('get_results', { quiz_id: quiz.quiz_id });
    expect(results.questions[0]).toMatchObject({ yes_count: 1, no_count: 1, correct_answer: 'no' });
  });

  test('requests shaped as before: a yes_no without correct_answer still rewards "yes"', async () => {
    const quiz = await call('create_quiz', {
      title: 'Old shape',
      questions: [
        { type: 'yes_no', text: 'Is the sky blue?', points: 2 },
        { type: 'multiple_choice', text: 'Pick', options: [{ label: 'A', score: 1 }, { label: 'B' }] },
      ],
    });
    // Every field an existing caller reads is there, with the value it had.
    expect(quiz).toMatchObject({ status: 'draft', max_score: 3, public_url: null, question_count: 2 });
    expect(quiz.questions[0]).toMatchObject({ type: 'yes_no', text: 'Is the sky blue?', points: 2 });
    expect(quiz.questions[1]).toMatchObject({
      type: 'multiple_choice',
      options: [
        { label: 'A', score: 1 },
        { label: 'B', score: 0 },
      ],
    });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    const res = await submit(quiz.slug, [
      { question_id: quiz.questions[0].question_id, answer: 'yes' },
      { question_id: quiz.questions[1].question_id, option_index: 0 },
    ]);
    expect(res.body).toMatchObject({ score: 3, max_score: 3 });
  });

  test('a description and explanations come back from the tools; the public page shows the description only', async () => {
    const quiz = await call('create_quiz', {
      title: 'Described',
      description: 'Capitals of Europe.\nTen minutes, no notes. <b>not bold</b>',
      questions: [
        { type: 'yes_no', text: 'Is Rome in Italy?', explanation: 'SECRET-EXPLANATION-1' },
        {
          type: 'multiple_choice',
          text: 'Capital of Peru?',
          explanation: 'SECRET-EXPLANATION-2',
          options: [
            { label: 'Lima', score: 1 },
            { label: 'Cusco', score: 0 },
          ],
        },
      ],
    });
    const read = await call('get_quiz_questions', { quiz_id: quiz.quiz_id });
    expect(read.description).toBe('Capitals of Europe.\nTen minutes, no notes. <b>not bold</b>');
    expect(read.questions.map((q: { explanation: string }) => q.explanation)).toEqual([
      'SECRET-EXPLANATION-1',
      'SECRET-EXPLANATION-2',
    ]);
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    const page = await request(app.app).get(`/q/${quiz.slug}`);
    expect(page.text).toContain(
      '<p class="quiz-description" dir="auto">Capitals of Europe.\nTen minutes, no notes. &lt;b&gt;not bold&lt;/b&gt;</p>',
    );
    // Nothing of the answer key reaches a respondent before it may be shown.
    expect(page.text).not.toContain('SECRET-EXPLANATION');
    const submitted = await submit(quiz.slug, [
      { question_id: read.questions[0].question_id, answer: 'yes' },
    ]);
    expect(JSON.stringify(submitted.body)).not.toContain('SECRET-EXPLANATION');

    const cleared = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      description: null,
      confirm_edit_published: true,
    });
    expect(cleared.description).toBeNull();
  });

  test('an edit that keeps a question marking as before keeps its id, and its statistics go on', async () => {
    const quiz = await call('create_quiz', {
      title: 'Kept ids',
      questions: [
        { type: 'yes_no', text: 'Is Paris in Frnace?', points: 1 },
        {
          type: 'multiple_choice',
          text: 'Pick one',
          options: [{ label: 'Rigth', score: 2 }, { label: 'Wrong' }],
        },
        { type: 'yes_no', text: 'Is 2 + 2 = 5?', points: 1 },
      ],
    });
    const [paris, pick, sum] = quiz.questions.map((q: { question_id: string }) => q.question_id);
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    await submit(quiz.slug, [
      { question_id: paris, answer: 'yes' },
      { question_id: pick, option_index: 0 },
      { question_id: sum, answer: 'no' },
    ]);

    const edited = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      questions: [
        // Typo fixes in the text and a label, and a new explanation: same marking, same id.
        { question_id: paris, type: 'yes_no', text: 'Is Paris in France?', points: 1, explanation: 'It is.' },
        {
          question_id: pick,
          type: 'multiple_choice',
          text: 'Pick one',
          options: [{ label: 'Right', score: 2 }, { label: 'Wrong' }],
        },
        // The answer key fixed: a new id, so no statistics mix two markings.
        { question_id: sum, type: 'yes_no', text: 'Is 2 + 2 = 5?', points: 1, correct_answer: 'no' },
        // The same id sent twice: the second item is a new question.
        { question_id: paris, type: 'yes_no', text: 'A copy', points: 1 },
        // An id that is not one of this quiz's questions: a new question.
        { question_id: 'cnotaquestionofthisquiz', type: 'yes_no', text: 'New', points: 1 },
      ],
    });
    const ids = edited.questions.map((q: { question_id: string }) => q.question_id);
    expect(ids.slice(0, 2)).toEqual([paris, pick]);
    // Three new ids, none of them an old one.
    expect(new Set([...ids.slice(2), paris, pick, sum]).size).toBe(6);

    const second = await submit(quiz.slug, [
      { question_id: paris, answer: 'yes' },
      { question_id: pick, option_index: 1 },
      { question_id: ids[2], answer: 'no' },
      { question_id: ids[3], answer: 'no' },
      { question_id: ids[4], answer: 'no' },
    ]);
    expect(second.status).toBe(201);
    const results = await call('get_results', { quiz_id: quiz.quiz_id });
    const stats = new Map(results.questions.map((q: { question_id: string }) => [q.question_id, q]));
    // Both versions' answers count for the kept questions; the re-keyed one starts afresh.
    expect(stats.get(paris)).toMatchObject({ answered_count: 2, yes_count: 2, text: 'Is Paris in France?' });
    expect(stats.get(pick)).toMatchObject({ answered_count: 2, options: [{ count: 1 }, { count: 1 }] });
    expect(stats.get(ids[2])).toMatchObject({ answered_count: 1, no_count: 1 });
  });

  test('per-type fields on the wrong type are field errors, and nothing changes', async () => {
    const before = (await call('list_quizzes', { limit: 100 })).quizzes.length;
    const text = errorText(
      await callTool(client, 'create_quiz', {
        title: 'Wrong fields',
        questions: [
          {
            type: 'multiple_choice',
            text: 'Pick',
            correct_answer: 'no',
            options: [{ label: 'A' }, { label: 'B' }],
          },
          { type: 'yes_no', text: 'Yes?', correct_answer: 'maybe' },
          { type: 'multiple_choice', text: 'One option', options: [{ label: 'A' }] },
        ],
      }),
    );
    expect(text).toContain(
      '- questions[0].correct_answer: a multiple_choice question takes no correct_answer (only yes_no): remove it',
    );
    expect(text).toContain('- questions[1].correct_answer: correct_answer must be "yes" or "no"');
    expect(text).toContain(
      '- questions[2].options: a multiple_choice question needs at least 2 options (got 1)',
    );
    expect((await call('list_quizzes', { limit: 100 })).quizzes).toHaveLength(before);
  });
});
