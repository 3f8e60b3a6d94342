// show_correct_answers: a respondent who submits learns which answers were right and why, when
// the quiz's owner allows it: never (the default), right after submitting, or once the quiz has
// closed. Until then nothing of the key or the explanations reaches them: not the page, not its
// HTML, not the JSON answer. Through the tools, the JSON route, the form and the result page,
// on SQLite and PostgreSQL.
import request from 'supertest';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const KEY_MARKERS = ['EXPLAIN-MILAN', 'EXPLAIN-PERU', 'Right answer'];

describeEachDatabase('the answer review', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'review')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));

  async function publishedQuiz(settings: Record<string, unknown>) {
    const quiz = await call('create_quiz', {
      title: `Review ${Math.random()}`,
      settings,
      questions: [
        {
          type: 'yes_no',
          text: 'Is Milan the capital of Italy?',
          points: 2,
          correct_answer: 'no',
          explanation: 'EXPLAIN-MILAN: Rome is.',
        },
        {
          type: 'multiple_choice',
          text: 'Capital of Peru?',
          explanation: 'EXPLAIN-PERU',
          options: [
            { label: 'Cusco', score: 0 },
            { label: 'Lima', score: 3 },
          ],
        },
      ],
    });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    const [milan, peru] = quiz.questions.map((q: { question_id: string }) => q.question_id);
    return { quiz, milan, peru };
  }

  const submitJson = (slug: string, answers: unknown[]) =>
    request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({ respondent: { name: 'Ann' }, answers });
  const resultPage = (url: string) => request(app.app).get(new URL(url).pathname);

  test('never (the default): no review, and no trace of the key anywhere the respondent looks', async () => {
    const { quiz, milan, peru } = await publishedQuiz({});
    expect((await call('get_quiz_settings', { quiz_id: quiz.quiz_id })).show_correct_answers).toBe('never');
    const page = await request(app.app).get(`/q/${quiz.slug}`);
    const submitted = await submitJson(quiz.slug, [
      { question_id: milan, answer: 'yes' },
      { question_id: peru, option_index: 0 },
    ]);
    expect(submitted.status).toBe(201);
    expect(submitted.body.review).toBeNull();
    const result = await resultPage(submitted.body.result_url);
    for (const text of [page.text, JSON.stringify(submitted.body), result.text]) {
      for (const marker of KEY_MARKERS) expect(text).not.toContain(marker);
    }
  });

  test('after_submit: the JSON answer and the result page mark each answer, with the key and why', async () => {
    const { quiz, milan, peru } = await publishedQuiz({ show_correct_answers: 'after_submit' });
    const submitted = await submitJson(quiz.slug, [
      { question_id: milan, answer: 'yes' },
      { question_id: peru, option_index: 1 },
    ]);
    expect(submitted.body.score).toBe(3);
    expect(submitted.body.review).toEqual([
      {
        question_id: milan,
        text: 'Is Milan the capital of Italy?',
        type: 'yes_no',
        your_answer: 'yes',
        points: 0,
        max_points: 2,
        correct_answers: ['no'],
        explanation: 'EXPLAIN-MILAN: Rome is.',
      },
      {
        question_id: peru,
        text: 'Capital of Peru?',
        type: 'multiple_choice',
        your_answer: 'Lima',
        points: 3,
        max_points: 3,
        correct_answers: ['Lima'],
        explanation: 'EXPLAIN-PERU',
      },
    ]);
    // The page as read aloud: its text, without the markup. Each answer is marked in words (the
    // ✓ and ✗ are hidden from screen readers), and its points are a phrase of their own.
    const html = (await resultPage(submitted.body.result_url)).text;
    const page = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(page).toContain(
      'Your answers 1. Is Milan the capital of Italy? ✗ Wrong Your answer: Yes Points: 0 of 2 points Right answer: No',
    );
    expect(page).toContain(
      'EXPLAIN-MILAN: Rome is. 2. Capital of Peru? ✓ Right Your answer: Lima Points: 3 of 3 points Right answer: Lima',
    );
    expect(html.match(/<span aria-hidden="true">[✓✗]<\/span>/g)).toHaveLength(2);
    // The owner's text and the answers are isolated, so mixed scripts keep their own direction.
    expect(html).toContain('<span dir="auto">Is Milan the capital of Italy?</span>');
    expect(html).toContain('<p class="review-explanation" dir="auto">EXPLAIN-MILAN: Rome is.</p>');
    expect(html).toContain('<bdi class="review-answer">Lima</bdi>');
  });

  test('after_submit through the form: the result page it leads to shows the review', async () => {
    const { quiz, milan, peru } = await publishedQuiz({ show_correct_answers: 'after_submit' });
    const posted = await request(app.app)
      .post(`/q/${quiz.slug}`)
      .type('form')
      .send({ name: 'Ben', version: '1', [`q_${milan}`]: 'no', [`q_${peru}`]: '0' });
    expect(posted.status).toBe(303);
    const page = await request(app.app).get(posted.headers.location!);
    expect(page.text).toContain('EXPLAIN-PERU');
  });

  test('with scores hidden, the review names the right answers but no points', async () => {
    const { quiz, milan, peru } = await publishedQuiz({
      show_correct_answers: 'after_submit',
      show_score_to_respondent: false,
    });
    const submitted = await submitJson(quiz.slug, [
      { question_id: milan, answer: 'no' },
      { question_id: peru, option_index: 0 },
    ]);
    expect(submitted.body.score).toBeNull();
    expect(submitted.body.review.map((item: { points: unknown }) => item.points)).toEqual([null, null]);
    expect(submitted.body.review[1].correct_answers).toEqual(['Lima']);
    expect((await resultPage(submitted.body.result_url)).text).not.toContain('review-points');
  });

  test('after_close: nothing while the quiz takes responses; the review once it is closed', async () => {
    const { quiz, milan, peru } = await publishedQuiz({ show_correct_answers: 'after_close' });
    const submitted = await submitJson(quiz.slug, [
      { question_id: milan, answer: 'no' },
      { question_id: peru, option_index: 1 },
    ]);
    expect(submitted.body.review).toBeNull();
    const open = await resultPage(submitted.body.result_url);
    for (const marker of KEY_MARKERS) expect(open.text).not.toContain(marker);

    await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      settings: { accepting_responses: false },
    });
    const closed = await resultPage(submitted.body.result_url);
    expect(closed.text).toContain('EXPLAIN-MILAN');
    expect(closed.text).toContain('EXPLAIN-PERU');
  });

  test('the newer types: accepted answers, the number and the explanations stay hidden until after_close', async () => {
    const quiz = await call('create_quiz', {
      title: `Review newer ${Math.random()}`,
      settings: { show_correct_answers: 'after_close' },
      questions: [
        {
          type: 'multiple_select',
          text: 'Tick the right ones',
          explanation: 'EXPLAIN-TICKS',
          options: [
            { label: 'Alpha', score: 1 },
            { label: 'Beta', score: -1 },
          ],
        },
        {
          type: 'short_text',
          text: 'The secret word?',
          accepted_answers: ['XYLOPHONE-KEY'],
          explanation: 'EXPLAIN-TYPED',
        },
        { type: 'number', text: 'The number?', correct_number: 98765.4321, explanation: 'EXPLAIN-NUMBER' },
      ],
    });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    const [ticks, typed, number] = quiz.questions.map((q: { question_id: string }) => q.question_id);
    const markers = [
      'EXPLAIN-TICKS',
      'EXPLAIN-TYPED',
      'EXPLAIN-NUMBER',
      'XYLOPHONE-KEY',
      '98765',
      'Right answer',
    ];
    const page = await request(app.app).get(`/q/${quiz.slug}`);
    const submitted = await submitJson(quiz.slug, [
      { question_id: ticks, choices: [1] },
      { question_id: typed, text: 'piano' },
      { question_id: number, number: '1,5' },
    ]);
    expect(submitted.status).toBe(201);
    expect(submitted.body.review).toBeNull();
    const open = await resultPage(submitted.body.result_url);
    for (const text of [page.text, JSON.stringify(submitted.body), open.text]) {
      for (const marker of markers) expect(text).not.toContain(marker);
    }

    await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      settings: { accepting_responses: false },
    });
    const closed = await resultPage(submitted.body.result_url);
    for (const marker of markers) expect(closed.text).toContain(marker);
  });

  test('a question re-keyed since the answer shows no key for it, never the new one', async () => {
    const { quiz, milan, peru } = await publishedQuiz({ show_correct_answers: 'after_submit' });
    const submitted = await submitJson(quiz.slug, [
      { question_id: milan, answer: 'no' },
      { question_id: peru, option_index: 1 },
    ]);
    await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      questions: [
        {
          question_id: milan,
          type: 'yes_no',
          text: 'Is Milan the capital of Italy?',
          points: 2,
          correct_answer: 'yes',
        },
        {
          question_id: peru,
          type: 'multiple_choice',
          text: 'Capital of Peru?',
          explanation: 'EXPLAIN-PERU, edited',
          options: [
            { label: 'Cusco', score: 0 },
            { label: 'Lima', score: 3 },
          ],
        },
      ],
    });
    const page = (await resultPage(submitted.body.result_url)).text;
    expect(page).toContain('This question has changed since you answered it.');
    expect(page).toContain('EXPLAIN-PERU, edited');
    expect(page).not.toContain('EXPLAIN-MILAN');
  });
});
