// The bulk loader the scale benchmark seeds with stores exactly what the JSON route stores: the
// same submissions, once through POST /api/quizzes/:slug/responses and once through
// responseRowOf + loadResponses, give the same rows column by column (ids and times aside) and
// add the same running figures. On SQLite and PostgreSQL.
import request from 'supertest';
import { loadResponses, responseRowOf } from '../../src/domain/taking/bulk-responses';
import { loadOwnedQuiz } from '../../src/domain/owned/load-owned-quiz';
import {
  createTestUser,
  describeEachDatabase,
  raisedLimits,
  startTestApp,
  type TestApp,
} from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';

const QUESTIONS = [
  { type: 'yes_no', text: 'Yes?', points: 2, correct_answer: 'no' },
  {
    type: 'multiple_choice',
    text: 'Pick one',
    options: [
      { label: 'A', score: 0 },
      { label: 'B', score: 3 },
    ],
  },
  {
    type: 'multiple_select',
    text: 'Tick',
    options: [
      { label: 'X', score: 1 },
      { label: 'Y', score: -1 },
      { label: 'Z', score: 2 },
    ],
  },
  { type: 'short_text', text: 'Capital of Peru?', points: 1, accepted_answers: ['Lima'] },
  { type: 'number', text: 'Pi?', points: 1, correct_number: 3.14, tolerance: 0.01 },
];

describeEachDatabase('bulk responses', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  let ownerId: string;

  beforeAll(async () => {
    app = await startTestApp({ provider, config: raisedLimits() });
    const user = await createTestUser(app, 'bulk');
    ownerId = user.id;
    client = await connectClient(app, user.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('the same submissions through the JSON route and the bulk loader: the same rows and figures', async () => {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Bulk',
        settings: { require_all_answers: false, pass_mark_percent: 50, collect_email: true },
        questions: QUESTIONS,
      }),
    );
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    const ids = quiz.questions.map((q: { question_id: string }) => q.question_id);
    const inputs = Array.from({ length: 12 }, (_, i) => ({
      respondent: { name: `R${i}`, email: `r${i}@example.com` },
      answers: [
        i % 5 === 4 ? null : { question_id: ids[0], answer: i % 2 === 0 ? 'no' : 'yes' },
        { question_id: ids[1], option_index: i % 2 },
        i % 4 === 3 ? null : { question_id: ids[2], choices: [[0, 2], [1], [], [0, 1, 2]][i % 4] },
        i % 3 === 2 ? null : { question_id: ids[3], text: ['lima', 'Cusco', ' LIMA '][i % 3] },
        { question_id: ids[4], number: ['3.14', '3,15', 2][i % 3] },
      ].filter((answer) => answer !== null),
    }));
    for (const input of inputs) {
      await request(app.app).post(`/api/quizzes/${quiz.slug}/responses`).send(input).expect(201);
    }
    const { responses, prisma } = { responses: app.database.repos.responses, prisma: app.database.prisma };
    const viaRoute = await responses.figures(quiz.quiz_id);

    const loaded = await loadOwnedQuiz(app.deps, ownerId, quiz.quiz_id);
    const start = Date.now();
    expect(
      await loadResponses(
        app.database.repos,
        inputs.map((input, i) => ({ row: responseRowOf(loaded, input as never), at: new Date(start + i) })),
      ),
    ).toBe(12);

    const stored = await prisma.response.findMany({
      where: { quizId: quiz.quiz_id },
      include: { answers: { orderBy: { position: 'asc' } } },
      orderBy: [{ submittedAt: 'asc' }, { id: 'asc' }],
    });
    expect(stored).toHaveLength(24);
    const shape = (response: (typeof stored)[number]) => {
      // A kept link's secret is drawn per submission; a bulk-loaded response has none to give.
      const { id: _id, submittedAt: _at, resultKeyHash, answers, ...rest } = response;
      return {
        ...rest,
        keptLink: resultKeyHash !== null,
        answers: answers.map(({ id: _answerId, responseId: _responseId, ...answer }) => answer),
      };
    };
    const route = stored.slice(0, 12).map(shape);
    const bulk = stored.slice(12).map(shape);
    expect(route.every((row) => row.keptLink)).toBe(true);
    expect(bulk.map((row) => ({ ...row, keptLink: true }))).toEqual(route);
    // Something to compare: typed text, ticks and numbers were kept.
    expect(route[0]!.answers.map((answer) => [answer.value, answer.statKey])).toContainEqual([
      { optionIndexes: [0, 2], label: expect.any(String) },
      '[0,2]',
    ]);

    // The figures doubled, key by key: the loader added what the route added.
    const doubled = await responses.figures(quiz.quiz_id);
    const key = (row: object) => JSON.stringify(Object.values(row).slice(0, 3));
    const twice = (rows: Array<Record<string, unknown>>, counted: string[]) =>
      rows
        .map((row) =>
          Object.fromEntries(
            Object.entries(row).map(([k, v]) => [k, counted.includes(k) ? 2 * Number(v) : v]),
          ),
        )
        .sort((a, b) => key(a).localeCompare(key(b)));
    const sorted = (rows: object[]) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));
    expect(sorted(doubled.scores)).toEqual(twice(viaRoute.scores, ['count']));
    expect(sorted(doubled.items)).toEqual(
      twice(viaRoute.items, ['count', 'sumX', 'sumX2', 'sumXT', 'sumT', 'sumT2', 'sumMax']),
    );
    expect(sorted(doubled.values)).toEqual(twice(viaRoute.values, ['count']));
    // The typed answers' most common values, from their running counts (ties in text order).
    const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id, limit: 0 }));
    expect(results.questions[3].common_answers).toEqual([
      { answer: 'Cusco', count: 8 },
      { answer: 'lima', count: 8 },
    ]);
    expect(results.questions[4].common_values).toEqual([
      { value: 2, count: 8 },
      { value: 3.14, count: 8 },
      { value: 3.15, count: 8 },
    ]);
    await responses.recomputeFigures(quiz.quiz_id);
    const recomputed = await responses.figures(quiz.quiz_id);
    expect(sorted(recomputed.items)).toEqual(sorted(doubled.items));
  });
});
