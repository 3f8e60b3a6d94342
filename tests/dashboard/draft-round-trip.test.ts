// The editor's form carries every typed field of every type: a quiz with each field set away from
// its default, opened in the editor and saved untouched, keeps each one. The form's reader takes
// its field names from the registry (quiz-draft.ts), so a field it does not read cannot be
// dropped without a word.
import { QUESTION_TYPE_DEFINITIONS, type QuestionType } from '../../src/domain/question-types';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { logIn, newAgent, type Agent } from './dashboard-helpers';
import { formOf } from './editor-form';

let app: TestApp;
let agent: Agent;
let client: AnyClient;

beforeAll(async () => {
  app = await startTestApp();
  const owner = await createTestUser(app, 'draft-round-trip');
  agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
  client = await connectClient(app, owner.apiKey);
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

/** Questions whose typed fields are all set, none to its default; some types twice (fields that stand in for others). */
const QUESTIONS: Array<Record<string, unknown> & { type: QuestionType }> = [
  { type: 'yes_no', text: 'Is the sea salty?', correct_answer: 'no', points: 3 },
  {
    type: 'multiple_choice',
    text: 'Largest planet?',
    options: [
      { label: 'Jupiter', score: 2 },
      { label: 'Mars', score: -1 },
      { label: 'Venus', score: 1 },
    ],
  },
  {
    type: 'multiple_select',
    text: 'Gas giants?',
    options: [
      { label: 'Jupiter', score: 1 },
      { label: 'Saturn', score: 2 },
      { label: 'Mars', score: -1 },
    ],
  },
  { type: 'short_text', text: 'Capital of Peru?', accepted_answers: ['Lima', 'Lima city'], points: 2 },
  { type: 'number', text: 'Half of seven?', correct_number: 3.5, tolerance: 0.25, points: 4 },
  {
    type: 'ordering',
    text: 'Order these',
    items: [{ label: 'Egg' }, { label: 'Larva' }, { label: 'Pupa' }],
    points: 3,
  },
  {
    type: 'ordering',
    text: 'Order these again',
    items: [{ label: 'One' }, { label: 'Two' }, { label: 'Three' }],
    points_per_item: 2,
  },
  {
    type: 'matching',
    text: 'Match the capitals',
    pairs: [
      { prompt: 'Paris', match: 'France' },
      { prompt: 'Rome', match: 'Italy' },
    ],
    extra_matches: [{ label: 'Spain' }],
    points_per_pair: 2,
  },
  {
    type: 'fill_in_blanks',
    text: 'Lima is in [[1]], founded in [[2]].',
    blanks: [
      { accepted_answers: ['Peru', 'Perú'], points: 2 },
      { options: ['1492', '1535'], correct_option: 1, points: 3 },
    ],
  },
  { type: 'scale', text: 'How clear?', scale_min: 0, scale_max: 7, scale_labels: ['Not at all', 'Very'] },
  {
    type: 'essay',
    text: 'Argue a case',
    rubric: [
      {
        criterion: 'Thesis',
        levels: [
          { label: 'none', points: 0 },
          { label: 'clear', points: 2 },
        ],
      },
    ],
    min_words: 50,
    max_words: 300,
  },
  { type: 'essay', text: 'Describe a day', points: 6, min_words: 10 },
  {
    type: 'grid',
    text: 'Which colours are on each flag?',
    items: [{ label: 'Italy' }, { label: 'Japan' }],
    columns: ['Red', 'White', 'Green'],
    checkboxes: true,
    right_columns: [
      [0, 1, 2],
      [0, 1],
    ],
    points_per_item: 3,
  },
  {
    type: 'calculated',
    text: 'A car drives {d} in {t} hours. Its mean speed in km/h?',
    formula: 'd / t',
    variables: [
      { name: 'd', min: 100, max: 900, decimals: 0, unit: 'km' },
      { name: 't', min: 2, max: 8, step: 0.5 },
    ],
    tolerance: 0.02,
    tolerance_type: 'relative',
    points: 3,
  },
];

test('every typed field of every type survives the editor: opened and saved, the quiz is as it was', async () => {
  // Each type, and each field it takes, is set by a question above.
  for (const definition of QUESTION_TYPE_DEFINITIONS) {
    for (const field of definition.takes) {
      expect({
        type: definition.name,
        field,
        set: QUESTIONS.some((q) => q.type === definition.name && field in q),
      }).toEqual({
        type: definition.name,
        field,
        set: true,
      });
    }
  }
  const quiz = payload(await callTool(client, 'create_quiz', { title: 'Every field', questions: QUESTIONS }));
  const before = payload(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));

  const path = `/dashboard/quizzes/${quiz.quiz_id}/edit`;
  const form = formOf((await agent.get(path)).text);
  const saved = await agent
    .post(path)
    .type('form')
    .send({ ...form, _action: 'save' });
  expect(saved.status).toBe(303);

  const after = payload(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
  const typed = (questions: Array<Record<string, unknown>>) =>
    questions.map((question) => {
      const definition = QUESTION_TYPE_DEFINITIONS.find((entry) => entry.name === question.type)!;
      return Object.fromEntries(['type', ...definition.takes].map((field) => [field, question[field]]));
    });
  expect(typed(after.questions)).toEqual(typed(before.questions));
  // And the fields were set as sent, not lost on the way in.
  expect(typed(before.questions)).toEqual(
    QUESTIONS.map(({ text: _text, ...fields }) => expect.objectContaining(fields)),
  );
});
