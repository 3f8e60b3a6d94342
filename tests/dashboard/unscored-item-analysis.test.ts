// An unscored question (an opinion, such as a scale) has no place in the item analysis, and both
// results pages that show it ask the question's type whether it is scored: the item analysis
// leaves it out, and the questions page gives it no average points. A scored question beside it
// keeps both. A type that says it is unscored is left out alike, whatever its name.
import request from 'supertest';
import { definitionOf } from '../../src/domain/question-types';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { logIn, newAgent, type Agent } from './dashboard-helpers';

let app: TestApp;
let agent: Agent;
let client: AnyClient;

beforeAll(async () => {
  app = await startTestApp();
  const owner = await createTestUser(app, 'unscored-owner');
  agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
  client = await connectClient(app, owner.apiKey);
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

/** A page's text, tags dropped and spaces collapsed. */
const textOf = (page: string) =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');

/** A published quiz of a yes/no question, a multiple-choice one and a scale, answered three times. */
async function answeredQuiz(title: string): Promise<string> {
  const quiz = payload(
    await callTool(client, 'create_quiz', {
      title,
      questions: [
        { type: 'yes_no', text: 'Is the sea salty?', correct_answer: 'yes' },
        {
          type: 'multiple_choice',
          text: 'Which planet is largest?',
          options: [
            { label: 'Jupiter', score: 1 },
            { label: 'Mars', score: 0 },
          ],
        },
        { type: 'scale', text: 'How much did you enjoy it?', scale_max: 5 },
      ],
      settings: { collect_name: false },
    }),
  );
  const { slug } = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
  const [truth, planet, enjoy] = quiz.questions.map(
    (question: { question_id: string }) => question.question_id,
  );
  for (const [answer, option, value] of [
    ['yes', 0, 5],
    ['no', 1, 2],
    ['yes', 1, 4],
  ] as const) {
    const sent = await request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({
        answers: [
          { question_id: truth, answer },
          { question_id: planet, option_index: option },
          { question_id: enjoy, value },
        ],
      });
    expect(sent.status).toBe(201);
  }
  return quiz.quiz_id as string;
}

/** Each question's line of figures on the questions page, by its text. */
async function figureLines(quizId: string): Promise<Record<string, string>> {
  const page = (await agent.get(`/dashboard/quizzes/${quizId}/results/questions`)).text;
  const lines: Record<string, string> = {};
  for (const item of page.split('<li class="question">').slice(1)) {
    const text = textOf(/<p class="question-text"[^>]*>([\s\S]*?)<\/p>/.exec(item)![1]!).trim();
    lines[text] = textOf(/<p class="muted">([\s\S]*?)<\/p>/.exec(item)![1]!).trim();
  }
  return lines;
}

async function itemAnalysis(quizId: string): Promise<string> {
  const page = await agent.get(`/dashboard/quizzes/${quizId}/results/items`);
  expect(page.status).toBe(200);
  return textOf(page.text);
}

test('a scale shows nowhere in the item analysis; the scored questions beside it do', async () => {
  const quizId = await answeredQuiz('Opinions beside facts');
  const items = await itemAnalysis(quizId);
  expect(items).toContain('Is the sea salty?');
  expect(items).toContain('Which planet is largest?');
  expect(items).not.toContain('How much did you enjoy it?');
  // Numbered as in the quiz: the two scored questions keep their places.
  expect(items).toContain('1. Is the sea salty?');
  expect(items).toContain('2. Which planet is largest?');

  const lines = await figureLines(quizId);
  expect(lines['Is the sea salty?']).toMatch(/answered 3 times · average [\d.]+ points?/);
  expect(lines['Which planet is largest?']).toMatch(/answered 3 times · average [\d.]+ points?/);
  expect(lines['How much did you enjoy it?']).toBe('Opinion scale · answered 3 times');
});

test('a type that says it is unscored is left out of both pages alike, whatever its name', async () => {
  // As a type unscored by its definition would be (the scale's rule, on another type here).
  const definition = definitionOf('multiple_choice') as { unscored?: () => boolean };
  definition.unscored = () => true;
  try {
    const quizId = await answeredQuiz('An unscored choice');
    const items = await itemAnalysis(quizId);
    expect(items).toContain('1. Is the sea salty?');
    expect(items).not.toContain('Which planet is largest?');
    const lines = await figureLines(quizId);
    expect(lines['Is the sea salty?']).toMatch(/average/);
    expect(lines['Which planet is largest?']).toBe('Multiple choice · answered 3 times');
  } finally {
    delete definition.unscored;
  }
});
