// Fixing an answer key and re-marking the past responses to it: explicit (remark_past_responses,
// and confirm_edit_published on a published quiz), recorded on each response (when, and its
// original score), and idempotent. Figures worked out by hand. On SQLite and PostgreSQL.
import request from 'supertest';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, errorText, payload, type AnyClient } from '../helpers/mcp-clients';

describeEachDatabase('re-marking past responses', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    client = await connectClient(app, (await createTestUser(app, 'remark')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));

  /** A quiz with a wrong key on both questions, and three responses to it. */
  async function wronglyKeyed() {
    const quiz = await call('create_quiz', {
      title: `Wrong key ${Math.random()}`,
      settings: { pass_mark_percent: 50 },
      questions: [
        // Wrong: 2 + 2 = 5 is false, yet "yes" earns.
        { type: 'yes_no', text: 'Is 2 + 2 = 5?', points: 2 },
        {
          type: 'multiple_choice',
          text: 'Capital of Australia?',
          options: [
            { label: 'Sydney', score: 3 }, // wrong key
            { label: 'Canberra', score: 0 },
          ],
        },
      ],
    });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    const [sum, capital] = quiz.questions.map((q: { question_id: string }) => q.question_id);
    const answer = async (yesNo: string, option: number) =>
      (
        await request(app.app)
          .post(`/api/quizzes/${quiz.slug}/responses`)
          .send({
            respondent: { name: 'R' },
            answers: [
              { question_id: sum, answer: yesNo },
              { question_id: capital, option_index: option },
            ],
          })
      ).body.response_id as string;
    // Under the wrong key: (no, Canberra) 0; (yes, Sydney) 5; (no, Sydney) 3.
    const ids = [await answer('no', 1), await answer('yes', 0), await answer('no', 0)];
    return { quiz, sum, capital, ids };
  }

  const fixedQuestions = (sum: string, capital: string) => [
    { question_id: sum, type: 'yes_no', text: 'Is 2 + 2 = 5?', points: 2, correct_answer: 'no' },
    {
      question_id: capital,
      type: 'multiple_choice',
      text: 'Capital of Australia?',
      options: [
        { label: 'Sydney', score: 0 },
        { label: 'Canberra', score: 3 },
      ],
    },
  ];

  test('the fixed key keeps the ids and re-marks every past response, keeping its original score', async () => {
    const { quiz, sum, capital, ids } = await wronglyKeyed();
    const before = await call('get_results', { quiz_id: quiz.quiz_id, limit: 10 });
    const scoreOf = (results: Record<string, any>, id: string) =>
      (results.responses as Array<{ response_id: string; score: number }>).find((r) => r.response_id === id)!
        .score;
    expect(ids.map((id) => scoreOf(before, id))).toEqual([0, 5, 3]);

    const updated = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      remark_past_responses: true,
      questions: fixedQuestions(sum, capital),
    });
    expect(updated.questions.map((q: { question_id: string }) => q.question_id)).toEqual([sum, capital]);
    expect(updated.remarked_responses).toBe(3);
    // The running figures followed the new marks: they equal a recomputation from the rows.
    const { responses } = app.database.repos;
    const figures = await responses.figures(quiz.quiz_id);
    await responses.recomputeFigures(quiz.quiz_id);
    const recomputed = await responses.figures(quiz.quiz_id);
    const order = (rows: object[]) => rows.map((row) => JSON.stringify(row)).sort();
    expect(order(figures.items)).toEqual(order(recomputed.items));
    expect(order(figures.scores)).toEqual(order(recomputed.scores));
    expect(figures.scores.map((row) => row.score).sort()).toEqual([0, 2, 5]);

    const after = await call('get_results', { quiz_id: quiz.quiz_id, limit: 10 });
    // Under the fixed key: (no, Canberra) 2 + 3 = 5; (yes, Sydney) 0; (no, Sydney) 2.
    expect(ids.map((id) => scoreOf(after, id))).toEqual([5, 0, 2]);
    const first = after.responses.find((r: { response_id: string }) => r.response_id === ids[0]);
    expect(first).toMatchObject({ max_score: 5, percent: 100, passed: true, original_score: 0 });
    expect(Date.parse(first.remarked_at)).not.toBeNaN();
    expect(first.answers.map((a: { points: number }) => a.points)).toEqual([2, 3]);
    expect(after.summary).toMatchObject({ response_count: 3, highest_score: 5, lowest_score: 0 });
    const stats = new Map(after.questions.map((q: { question_id: string }) => [q.question_id, q]));
    expect(stats.get(sum)).toMatchObject({ correct_answer: 'no', answered_count: 3 });

    // Again: nothing left to change, and the original score stays the first one.
    const again = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      remark_past_responses: true,
      questions: fixedQuestions(sum, capital),
    });
    expect(again.remarked_responses).toBe(0);
    const still = await call('get_results', { quiz_id: quiz.quiz_id, limit: 10 });
    expect(
      still.responses.find((r: { response_id: string }) => r.response_id === ids[0]).original_score,
    ).toBe(0);
  });

  test('without remark_past_responses a fixed key is a new question, and past scores stay', async () => {
    const { quiz, sum, capital, ids } = await wronglyKeyed();
    const updated = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      questions: fixedQuestions(sum, capital),
    });
    expect(updated.remarked_responses).toBeUndefined();
    expect(updated.questions.map((q: { question_id: string }) => q.question_id)).not.toContain(sum);
    const results = await call('get_results', { quiz_id: quiz.quiz_id, limit: 10 });
    expect(
      ids.map((id) => results.responses.find((r: { response_id: string }) => r.response_id === id).score),
    ).toEqual([0, 5, 3]);
    expect(results.responses.every((r: { remarked_at: unknown }) => r.remarked_at === null)).toBe(true);
  });

  test('refusals change nothing: unconfirmed on a published quiz, no questions, options that no longer fit', async () => {
    const { quiz, sum, capital, ids } = await wronglyKeyed();
    const unconfirmed = errorText(
      await callTool(client, 'update_quiz', {
        quiz_id: quiz.quiz_id,
        remark_past_responses: true,
        questions: fixedQuestions(sum, capital),
      }),
    );
    expect(unconfirmed).toMatch(/confirm_edit_published: true/);
    expect(
      errorText(
        await callTool(client, 'update_quiz', { quiz_id: quiz.quiz_id, remark_past_responses: true }),
      ),
    ).toMatch(/questions: is required with remark_past_responses/);

    // A third option: the past answers no longer fit, so it is a new question, not re-marked.
    const grown = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      remark_past_responses: true,
      questions: [
        fixedQuestions(sum, capital)[0],
        {
          question_id: capital,
          type: 'multiple_choice',
          text: 'Capital of Australia?',
          options: [{ label: 'Sydney' }, { label: 'Canberra', score: 3 }, { label: 'Melbourne' }],
        },
      ],
    });
    expect(grown.questions[0].question_id).toBe(sum);
    expect(grown.questions[1].question_id).not.toBe(capital);
    // Only the yes/no question was re-marked: (no) 2 + 0, (yes) 0 + 3, (no) 2 + 3.
    const results = await call('get_results', { quiz_id: quiz.quiz_id, limit: 10 });
    expect(
      ids.map((id) => results.responses.find((r: { response_id: string }) => r.response_id === id).score),
    ).toEqual([2, 3, 5]);
  });
});
