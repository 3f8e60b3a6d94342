// An opinion scale on the owner's surfaces: written in the editor (its range and the words of
// its ends, a bad range refused beside its field), then, for a quiz of scales alone, the results
// with figures worked out by hand (distribution, mean, median, Net Promoter score) and no score
// anywhere: no "0 of 0" on the summary, the responses list or a response's page.
import request from 'supertest';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { errorSummaryText, logIn, newAgent, squash, type Agent } from './dashboard-helpers';

let app: TestApp;
let agent: Agent;
let client: AnyClient;
let ownerId: string;

beforeAll(async () => {
  app = await startTestApp();
  const owner = await createTestUser(app, 'scale-owner');
  ownerId = owner.id;
  agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
  client = await connectClient(app, owner.apiKey);
});
afterAll(async () => {
  await client?.close();
  await app?.close();
});

type Form = Record<string, string>;

/** The form as rendered: text, hidden and checked inputs, textareas and selected options. */
function formOf(page: string): Form {
  const form: Form = {};
  for (const input of page.matchAll(/<input\b([^>]*)>/g)) {
    const attrs = input[1]!;
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    if (!name) continue;
    const type = /type="([^"]*)"/.exec(attrs)?.[1] ?? 'text';
    if ((type === 'checkbox' || type === 'radio') && !/\bchecked\b/.test(attrs)) continue;
    form[name] = type === 'checkbox' ? 'on' : (/value="([^"]*)"/.exec(attrs)?.[1] ?? '');
  }
  for (const area of page.matchAll(/<textarea\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g)) {
    form[area[1]!] = area[2]!;
  }
  for (const select of page.matchAll(/<select\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    form[select[1]!] = /<option value="([^"]*)"\s*selected/.exec(select[2]!)?.[1] ?? '';
  }
  return form;
}

const post = (path: string, form: Form, action = 'save') =>
  agent
    .post(path)
    .type('form')
    .send({ ...form, _action: action });

/** A page's text, tags dropped and spaces collapsed. */
const textOf = (page: string) =>
  page
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#39;/g, "'")
    .replace(/\s+/g, ' ');

test('the editor writes a scale: its range and end words kept, a bad range refused beside its field', async () => {
  let form = formOf((await agent.get('/dashboard/quizzes/new')).text);
  form.title = 'Course feedback';
  let page = await post('/dashboard/quizzes/new', form, 'add:scale');
  expect(page.text).toContain('Opinion scale');
  form = formOf(page.text);
  // The new form's first question is another type's: removed, the scale is the only one.
  form = formOf((await post('/dashboard/quizzes/new', form, 'remove:0')).text);
  form['questions[0][text]'] = 'How likely are you to recommend the course?';
  form['questions[0][scale_min]'] = '0';
  form['questions[0][scale_max]'] = '11';
  form['questions[0][min_label]'] = 'Not at all likely';
  form['questions[0][max_label]'] = 'Extremely likely';
  page = await post('/dashboard/quizzes/new', form);
  expect(page.status).toBe(422);
  expect(squash(page.text)).toMatch(/id="questions-0-scale_max-error"/);
  // In the words of the page, never the API's field name.
  expect(errorSummaryText(page.text)).toContain('Question 1, Highest value: use 10 or less');
  expect(errorSummaryText(page.text)).not.toContain('scale_max');
  // What was typed comes back.
  expect(formOf(page.text)['questions[0][max_label]']).toBe('Extremely likely');

  form = formOf(page.text);
  form['questions[0][scale_max]'] = '10';
  const saved = await post('/dashboard/quizzes/new', form);
  expect(saved.status).toBe(303);
  const quizId = String(saved.headers.location).split('/').pop()!;
  const stored = await app.database.prisma.question.findMany({ where: { quizId } });
  expect(stored.map((question) => [question.type, question.key])).toEqual([
    ['scale', { min: 0, max: 10, labels: ['Not at all likely', 'Extremely likely'] }],
  ]);
  const again = formOf((await agent.get(`/dashboard/quizzes/${quizId}/edit`)).text);
  expect([again['questions[0][scale_min]'], again['questions[0][scale_max]']]).toEqual(['0', '10']);
  const quiz = await app.database.prisma.quiz.findUniqueOrThrow({ where: { id: quizId } });
  expect(quiz.ownerId).toBe(ownerId);
});

test('a quiz of scales alone: the figures by hand, and no score on any page', async () => {
  const quiz = payload(
    await callTool(client, 'create_quiz', {
      title: 'Scales alone',
      questions: [
        {
          type: 'scale',
          text: 'How likely are you to recommend us?',
          scale_min: 0,
          scale_max: 10,
          scale_labels: ['Not at all likely', 'Extremely likely'],
        },
        { type: 'scale', text: 'How clear was the course?', scale_max: 5 },
      ],
      settings: { collect_name: false },
    }),
  );
  expect(quiz.max_score).toBe(0);
  const { slug } = payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
  const [nps, clear] = quiz.questions.map((question: { question_id: string }) => question.question_id);
  // NPS: 10, 9 promote; 8 is passive; 6 and 0 detract. Clarity: 5, 4, 4, 2, 1.
  const answers = [
    [10, 5],
    [9, 4],
    [8, 4],
    [6, 2],
    [0, 1],
  ];
  for (const [a, b] of answers) {
    const sent = await request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({
        answers: [
          { question_id: nps, value: a },
          { question_id: clear, value: b },
        ],
      });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({ score: 0, max_score: 0 });
  }

  const base = `/dashboard/quizzes/${quiz.quiz_id}`;
  const summary = textOf((await agent.get(`${base}/results/summary`)).text);
  expect(summary).toContain('Score None: no question is scored');
  expect(summary).not.toMatch(/Average score|0 of 0|Scores of all/);

  // Mean (10 + 9 + 8 + 6 + 0) / 5 = 6.6, median 8; NPS (2 - 2) / 5 = 0. Clarity: 16 / 5 = 3.2, median 4.
  const questions = (await agent.get(`${base}/results/questions`)).text;
  const words = textOf(questions);
  expect(words).toContain(
    'Mean 6.6 · median 8 · Net Promoter score 0 (2 promoters, 1 passives, 2 detractors).',
  );
  expect(words).toContain('Mean 3.2 · median 4.');
  expect(words).not.toMatch(/Mean 3\.2 · median 4 · Net Promoter/);
  // Every value of the range has its row, the empty ones too, the ends with their words.
  expect(words).toMatch(/0 \(Not at all likely\) unscored 1\b/);
  expect(words).toMatch(/10 \(Extremely likely\) unscored 1\b/);
  expect(words).toMatch(/7 unscored 0\b/);

  const list = textOf((await agent.get(`${base}/results/responses`)).text);
  expect(list.match(/Not scored/g)).toHaveLength(5);
  expect(list).not.toContain('0 / 0');
  const first = /\/responses\/([A-Za-z0-9_-]+)"/.exec(
    (await agent.get(`${base}/results/responses`)).text,
  )![1];
  const one = textOf((await agent.get(`${base}/responses/${first}`)).text);
  expect(one).toContain('Score None: no question is scored');
  expect(one).toContain('Points: Not scored');
  expect(one).not.toMatch(/0 of 0/);
});
