// Every question type shows its question's picture on the public form: the newer controls
// (essay, fill in the blanks, matching, ordering, scale) as well as the first five.
import request from 'supertest';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { solidPng } from './fixtures';

let app: TestApp;
let client: AnyClient;

beforeAll(async () => {
  app = await startTestApp();
  client = await connectClient(app, (await createTestUser(app, 'pictures-owner')).apiKey);
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

test('a picture on a question of each type is on the public form, with its alt text', async () => {
  const data = (await solidPng(40, 20, '#2a6')).toString('base64');
  const picture = (type: string) => ({ alt: `A picture for ${type}`, data });
  const questions = [
    { type: 'yes_no', text: 'Green?' },
    { type: 'multiple_choice', text: 'Which?', options: [{ label: 'A', score: 1 }, { label: 'B' }] },
    { type: 'short_text', text: 'Name it.', accepted_answers: ['green'] },
    { type: 'number', text: 'How many?', correct_number: 2 },
    { type: 'ordering', text: 'Order them.', items: [{ label: 'a' }, { label: 'b' }, { label: 'c' }] },
    {
      type: 'matching',
      text: 'Match them.',
      pairs: [
        { prompt: 'p', match: 'm' },
        { prompt: 'q', match: 'n' },
      ],
    },
    { type: 'fill_in_blanks', text: 'It is [[1]].', blanks: [{ accepted_answers: ['green'] }] },
    { type: 'scale', text: 'How much?', scale_min: 1, scale_max: 5 },
    { type: 'essay', text: 'Describe it.', points: 2 },
  ].map((question) => ({ ...question, image: picture(question.type) }));
  const quiz = payload(await callTool(client, 'create_quiz', { title: 'Pictures everywhere', questions }));
  const published = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
  // Ordering and matching are taken through an attempt: its page is the form.
  const begun = await request(app.app).post(`/q/${published.slug}/start`).type('form').send({});
  expect(begun.status).toBe(303);
  const page = await request(app.app).get(String(begun.headers.location));
  expect(page.status).toBe(200);
  const alts = [...page.text.matchAll(/<img\b[^>]*\balt="([^"]*)"/g)].map((match) => match[1]);
  expect(alts.sort()).toEqual(questions.map((question) => question.image.alt).sort());
});
