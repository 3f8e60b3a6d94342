// A respondent's typed words are shown on the owner's response page exactly as typed, whatever
// they hold: TeX a respondent typed into a blank, an essay or a short answer is never typeset
// (only the owner's own words, such as options, are), so the page shows what was written.
import request from 'supertest';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { logIn, newAgent, type Agent } from './dashboard-helpers';

let app: TestApp;
let agent: Agent;
let client: AnyClient;

beforeAll(async () => {
  app = await startTestApp();
  const owner = await createTestUser(app, 'typed-owner');
  agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
  client = await connectClient(app, owner.apiKey);
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

test('TeX typed into a blank, a short answer and an essay stays as typed; the owner’s option is typeset', async () => {
  const quiz = payload(
    await callTool(client, 'create_quiz', {
      title: 'Typed words',
      questions: [
        {
          type: 'fill_in_blanks',
          text: 'The root of two is [[1]].',
          blanks: [{ accepted_answers: ['1.414'] }],
        },
        { type: 'short_text', text: 'Write a formula.', accepted_answers: ['x'] },
        { type: 'essay', text: 'Explain.', points: 2 },
        {
          type: 'multiple_choice',
          text: 'Which is the root of two?',
          options: [
            { label: '\\(\\sqrt{2}\\)', score: 1 },
            { label: '2', score: 0 },
          ],
        },
      ],
      settings: { require_all_answers: false, collect_name: false },
    }),
  );
  const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
  const [blank, short, essay, choice] = quiz.questions.map((q: { question_id: string }) => q.question_id);
  const sent = await request(app.app)
    .post(`/api/quizzes/${published.slug}/responses`)
    .send({
      answers: [
        { question_id: blank, blanks: ['\\(\\sqrt{2}\\)'] },
        { question_id: short, text: '\\(x^2\\)' },
        { question_id: essay, text: 'It is \\(\\frac{a}{b}\\).' },
        { question_id: choice, option_index: 0 },
      ],
    });
  expect(sent.status).toBe(201);

  const base = `/dashboard/quizzes/${quiz.quiz_id}`;
  const id = /\/responses\/([A-Za-z0-9_-]+)"/.exec((await agent.get(`${base}/results/responses`)).text)![1];
  const page = (await agent.get(`${base}/responses/${id}`)).text;
  const answers = [...page.matchAll(/<bdi class="review-answer">([\s\S]*?)<\/bdi>/g)].map((m) => m[1]!);
  expect(answers).toHaveLength(4);
  // The three typed answers: their TeX as text, no MathML.
  for (const typed of answers.slice(0, 3)) expect(typed).not.toContain('<math');
  expect(answers[0]).toContain('\\(\\sqrt{2}\\)');
  expect(answers[1]).toContain('\\(x^2\\)');
  expect(answers[2]).toContain('\\(\\frac{a}{b}\\)');
  // The option chosen is the owner's words: typeset.
  expect(answers[3]).toContain('<math');
});
