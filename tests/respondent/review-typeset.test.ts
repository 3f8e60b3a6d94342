// The review on the result page typesets the owner's words a respondent chose (ordering's items,
// matching's prompts and matches) as it does the options: formulas in them reach the respondent
// as MathML, never as the TeX the owner typed. Typed answers stay as typed.
import request from 'supertest';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';

type Part = { label: string } & Record<string, string>;
type Started = {
  attempt_token: string;
  questions: Array<{ question_id: string; type: string; items?: Part[]; prompts?: Part[]; matches?: Part[] }>;
};

describe("the result page's review typesets chosen items and matches", () => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp();
    client = await connectClient(app, (await createTestUser(app, 'review-maths')).apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('a formula in an item, a prompt or a match is MathML on the review, not raw TeX', async () => {
    const quiz = payload<{ quiz_id: string; slug: string }>(
      await callTool(client, 'create_quiz', {
        title: 'Powers',
        settings: { math_dollars: true, show_correct_answers: 'after_submit', collect_name: false },
        questions: [
          {
            type: 'ordering',
            text: 'Smallest first, for x above 1',
            points: 1,
            items: [{ label: '$x^2$' }, { label: '$x^3$' }, { label: '$x^4$' }],
          },
          {
            type: 'matching',
            text: 'Match each power with its derivative',
            pairs: [
              { prompt: '\\(y^2\\)', match: '$2y$' },
              { prompt: 'the cube', match: '\\(3y^2\\)' },
            ],
          },
        ],
      }),
    );
    payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
    const started = (await request(app.app).post(`/api/quizzes/${quiz.slug}/attempts`).send({}))
      .body as Started;
    const ordering = started.questions.find((question) => question.type === 'ordering')!;
    const matching = started.questions.find((question) => question.type === 'matching')!;
    const idOf = (parts: Part[] | undefined, label: string, key: string) =>
      parts!.find((part) => part.label === label)![key]!;
    const submitted = await request(app.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .send({
        attempt_token: started.attempt_token,
        answers: [
          {
            question_id: ordering.question_id,
            order: ['$x^2$', '$x^3$', '$x^4$'].map((label) => idOf(ordering.items, label, 'item_id')),
          },
          {
            question_id: matching.question_id,
            matches: {
              [idOf(matching.prompts, '\\(y^2\\)', 'prompt_id')]: idOf(matching.matches, '$2y$', 'match_id'),
              [idOf(matching.prompts, 'the cube', 'prompt_id')]: idOf(
                matching.matches,
                '\\(3y^2\\)',
                'match_id',
              ),
            },
          },
        ],
      });
    expect(submitted.status).toBe(201);
    const page = await request(app.app).get(new URL(submitted.body.result_url as string).pathname);
    expect(page.status).toBe(200);
    const review = page.text.slice(page.text.indexOf('class="review"'));
    // Each answer and its right answer, typeset: the review holds formulas and no TeX source.
    expect(review).toContain('<math');
    for (const tex of ['$x^2$', '$x^3$', '$x^4$', '\\(y^2\\)', '$2y$', '\\(3y^2\\)'])
      expect(review).not.toContain(tex);
  });
});
