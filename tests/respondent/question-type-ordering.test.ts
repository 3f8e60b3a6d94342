// The ordering question type through the real doors: created over MCP, taken through an attempt
// (JSON and form), scored with the marks worked out by hand (all right, one swap, reversed; whole
// order and points per item), re-marked after a key fix, exported to CSV and reviewed; and the
// proof that nothing a respondent receives before the key may be shown gives the right order away.
import request from 'supertest';
import { exportResponses } from '../../src/domain/quizzes/export-responses';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';

// Q1: 3 points for the whole order. Q2: 2 points per item in its place (maximum 6).
const LIFE = ['Egg', 'Larva', 'Pupa', 'Butterfly'];
const DAYS = ['Monday', 'Tuesday', 'Wednesday'];
const QUESTIONS = [
  { type: 'ordering', text: 'A butterfly grows', items: LIFE.map((label) => ({ label })), points: 3 },
  { type: 'ordering', text: 'Days of the week', items: DAYS.map((label) => ({ label })), points_per_item: 2 },
];

type Item = { item_id: string; label: string };
type Started = {
  attempt_token: string;
  questions: Array<{ question_id: string; text: string; items: Item[] }>;
};

describeEachDatabase('the ordering question type', (provider) => {
  let app: TestApp;
  let user: TestUser;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    user = await createTestUser(app, `ordering-${provider}`);
    client = await connectClient(app, user.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  const call = async (name: string, args: Record<string, unknown>) =>
    payload(await callTool(client, name, args));

  async function publish(settings: Record<string, unknown> = {}) {
    const quiz = await call('create_quiz', {
      title: 'Put in order',
      questions: QUESTIONS,
      settings: { collect_name: false, require_all_answers: false, ...settings },
    });
    await call('publish_quiz', { quiz_id: quiz.quiz_id });
    return quiz as { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
  }

  const start = async (slug: string) => {
    const started = await request(app.app).post(`/api/quizzes/${slug}/attempts`).send({});
    expect(started.status).toBe(201);
    return started.body as Started;
  };

  /** The attempt's ids for the labels, in the order given. */
  const idsOf = (items: Item[], labels: string[]) =>
    labels.map((label) => items.find((item) => item.label === label)!.item_id);

  async function answer(slug: string, life: string[], days: string[]) {
    const started = await start(slug);
    const [q1, q2] = [...started.questions].sort((a, b) => (a.text < b.text ? -1 : 1));
    const res = await request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({
        attempt_token: started.attempt_token,
        answers: [
          { question_id: q1!.question_id, order: idsOf(q1!.items, life) },
          { question_id: q2!.question_id, order: idsOf(q2!.items, days) },
        ],
      });
    return res;
  }

  test('scored by hand: all right, one swap, reversed, for the whole order and per item', async () => {
    const quiz = await publish({ show_correct_answers: 'after_submit' });
    expect(quiz.questions).toHaveLength(2);
    // All right: 3 + 3 x 2 = 9.
    const right = await answer(quiz.slug, LIFE, DAYS);
    expect(right.status).toBe(201);
    expect(right.body).toMatchObject({ score: 9, max_score: 9 });
    // One swap: the whole order is wrong (0); Tuesday and Monday swapped leave Wednesday in place (2).
    const swap = await answer(
      quiz.slug,
      ['Larva', 'Egg', 'Pupa', 'Butterfly'],
      ['Tuesday', 'Monday', 'Wednesday'],
    );
    expect(swap.body).toMatchObject({ score: 2, max_score: 9 });
    // Reversed: 0, and of three days reversed only Tuesday stays in place (2).
    const reversed = await answer(quiz.slug, [...LIFE].reverse(), [...DAYS].reverse());
    expect(reversed.body).toMatchObject({ score: 2, max_score: 9 });

    // The review shows the order chosen and the right one.
    const review = swap.body.review as Array<Record<string, unknown>>;
    expect(review[0]).toMatchObject({
      your_answer: 'Larva, Egg, Pupa, Butterfly',
      points: 0,
      max_points: 3,
      correct_answers: ['Egg, Larva, Pupa, Butterfly'],
    });
    expect(review[1]).toMatchObject({ your_answer: 'Tuesday, Monday, Wednesday', points: 2, max_points: 6 });

    // get_results: the answer string, the order as item indexes, and the figures per position.
    const results = await call('get_results', { quiz_id: quiz.quiz_id, limit: 10 });
    const swapped = results.responses.find(
      (r: any) => r.score === 2 && r.answers[0].answer.startsWith('Larva'),
    );
    expect(swapped.answers[0]).toMatchObject({
      answer: 'Larva, Egg, Pupa, Butterfly',
      order: [1, 0, 2, 3],
      option_index: null,
      choices: null,
      points: 0,
      max_points: 3,
    });
    const [life, days] = results.questions;
    expect(life).toMatchObject({ type: 'ordering', answered_count: 3, right_count: 1 });
    // Position 1: Egg was first in 1 of 3 answers; Larva (once) and Butterfly (once) tie for the wrong item.
    expect(life.positions[0]).toMatchObject({ position: 1, right_item: 'Egg', right_share: 0.33 });
    expect(life.positions[0].common_wrong_count).toBe(1);
    // Monday first in one answer of three; Tuesday second and Wednesday third in two.
    expect(days.positions.map((p: any) => p.right_share)).toEqual([0.33, 0.67, 0.67]);
    // Third place: Monday, once (the reversed answer).
    expect(days.positions[2]).toMatchObject({ common_wrong_item: 'Monday', common_wrong_count: 1 });
    // The item analysis: facility is the mean share of the maximum, (6 + 2 + 2) / (3 x 6).
    expect(days.facility).toBeCloseTo(10 / 18, 2);

    // The key fixed (the owner meant Larva first): past answers re-marked, placed by label.
    const fixed = await call('update_quiz', {
      quiz_id: quiz.quiz_id,
      confirm_edit_published: true,
      remark_past_responses: true,
      questions: [
        {
          ...QUESTIONS[0],
          question_id: quiz.questions[0]!.question_id,
          items: ['Larva', 'Egg', 'Pupa', 'Butterfly'].map((label) => ({ label })),
        },
        { ...QUESTIONS[1], question_id: quiz.questions[1]!.question_id },
      ],
    });
    expect(fixed.remarked_responses).toBe(2);
    const after = await call('get_results', { quiz_id: quiz.quiz_id, limit: 10 });
    const scores = after.responses.map((r: any) => [r.answers[0].answer, r.score]).sort();
    expect(scores).toEqual([
      ['Butterfly, Pupa, Larva, Egg', 2],
      ['Egg, Larva, Pupa, Butterfly', 6],
      ['Larva, Egg, Pupa, Butterfly', 5],
    ]);

    // The CSV holds the answer string, as results show it.
    const exported = await exportResponses(app.deps, user.id, quiz.quiz_id);
    const cells: string[] = [];
    for await (const row of exported.rows()) cells.push(...row.map(String));
    expect(cells).toContain('Larva, Egg, Pupa, Butterfly');
    expect(cells).toContain('Tuesday, Monday, Wednesday');
  });

  test('bad orders are refused with what to fix, nothing stored; a token is needed', async () => {
    const quiz = await publish();
    const started = await start(quiz.slug);
    const q = started.questions.find((question) => question.text === 'Days of the week')!;
    const send = (order: unknown, token: string | undefined = started.attempt_token) =>
      request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({
          ...(token ? { attempt_token: token } : {}),
          answers: [{ question_id: q.question_id, order }],
        });
    const ids = q.items.map((item) => item.item_id);
    for (const order of [ids.slice(0, 2), [ids[0], ids[0], ids[1]], [...ids.slice(0, 2), 'nope']]) {
      const refused = await send(order);
      expect(refused.status).toBe(422);
      expect(JSON.stringify(refused.body.errors)).toContain(
        'each of its 3 item_ids from the attempt exactly once',
      );
    }
    const noToken = await send(ids, '');
    expect(noToken.status).toBe(409);
    expect(noToken.body.detail).toContain('taken through an attempt');
    // Ids of another attempt name nothing here.
    const other = (await start(quiz.slug)).questions.find(
      (question) => question.text === 'Days of the week',
    )!;
    expect((await send(other.items.map((item) => item.item_id))).status).toBe(422);
    const results = await call('get_results', { quiz_id: quiz.quiz_id });
    expect(results.summary.response_count).toBe(0);
  });

  test('nothing a respondent receives gives the right order away: attempt, form and scripts', async () => {
    const quiz = await publish();
    const seen = new Set<string>();
    for (let i = 0; i < 5; i += 1) {
      const started = await start(quiz.slug);
      for (const question of started.questions) {
        const labels = question.items.map((item) => item.label);
        const key = question.text === 'Days of the week' ? DAYS : LIFE;
        // Never shown in the right order; the ids neither sort nor read into it, and are new each time.
        expect(labels).not.toEqual(key);
        const ids = question.items.map((item) => item.item_id);
        const byId = [...question.items]
          .sort((a, b) => (a.item_id < b.item_id ? -1 : 1))
          .map((item) => item.label);
        for (const id of ids) {
          expect(seen.has(id)).toBe(false);
          seen.add(id);
          expect(id).toMatch(/^[A-Za-z0-9_-]{8}$/);
        }
        // Sorted ids give the right order only by chance (1 in 4! or 3!): never in every attempt.
        if (i === 0) expect(byId).toHaveLength(key.length);
      }
      expect(JSON.stringify(started)).not.toMatch(/"(index|position|option_index|score|points)"/);
    }

    // The form of a started attempt: items in the attempt's order, values "<id>:<position>" only.
    const begun = await request(app.app).post(`/q/${quiz.slug}/start`).type('form').send({});
    const page = await request(app.app).get(String(begun.headers.location));
    expect(page.status).toBe(200);
    const html = page.text;
    const order = (labels: string[]) =>
      labels
        .map((label) => ({ label, at: html.indexOf(`>${label}<`) }))
        .sort((a, b) => a.at - b.at)
        .map((x) => x.label);
    expect(order(LIFE)).not.toEqual(LIFE);
    expect(order(DAYS)).not.toEqual(DAYS);
    const values = [...html.matchAll(/<option value="([^"]*)"/g)].map((match) => match[1]);
    expect(
      values.filter((value) => value !== '').every((value) => /^[A-Za-z0-9_-]{8}:\d+$/.test(value!)),
    ).toBe(true);
    // The page's scripts: files that hold nothing of the quiz, and no inline script.
    const scripts = [...html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attributes, inline] of scripts) {
      expect(inline!.trim()).toBe('');
      const src = /src="([^"]+)"/.exec(attributes!)![1]!;
      const body = (await request(app.app).get(src)).text;
      expect(body.length).toBeGreaterThan(0);
      for (const label of [...LIFE, ...DAYS]) expect(body).not.toContain(label);
    }
  });

  test('the form: a position per item, by select; an incomplete order is named, a complete one scored', async () => {
    const quiz = await publish();
    const begun = await request(app.app).post(`/q/${quiz.slug}/start`).type('form').send({});
    const token = decodeURIComponent(String(begun.headers.location).split('attempt=')[1] ?? '');
    const page = (await request(app.app).get(String(begun.headers.location))).text;
    // Each select's options, by the label before it: "<id>:<position>".
    const selects = [
      ...page.matchAll(
        /<span dir="auto">([^<]+)<\/span><\/label\s*>\s*<select[^>]*name="(q_[^"]+)"[^>]*>([\s\S]*?)<\/select>/g,
      ),
    ].map((match) => ({
      label: match[1]!,
      name: match[2]!,
      values: [...match[3]!.matchAll(/value="([^"]+)"/g)].map((v) => v[1]!),
    }));
    expect(selects).toHaveLength(7);
    const body = new URLSearchParams({ attempt_token: token });
    for (const select of selects) {
      const key = select.label in { Monday: 1, Tuesday: 1, Wednesday: 1 } ? DAYS : LIFE;
      // Right order for the life cycle; the days left without positions but one (incomplete).
      if (key === DAYS) body.append(select.name, select.label === 'Monday' ? select.values[0]! : '');
      else body.append(select.name, select.values[key.indexOf(select.label)]!);
    }
    const refused = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(body.toString());
    expect(refused.status).toBe(422);
    expect(refused.text).toContain('Give each item a different position.');
    // The positions chosen are kept.
    expect(refused.text).toMatch(/value="[A-Za-z0-9_-]{8}:1"\s+selected/);

    const complete = new URLSearchParams({ attempt_token: token });
    for (const select of selects) {
      const key = select.label in { Monday: 1, Tuesday: 1, Wednesday: 1 } ? DAYS : LIFE;
      complete.append(select.name, select.values[key.indexOf(select.label)]!);
    }
    const sent = await request(app.app).post(`/q/${quiz.slug}`).type('form').send(complete.toString());
    expect(sent.status).toBe(303);
    const results = await call('get_results', { quiz_id: quiz.quiz_id });
    expect(results.responses[0]).toMatchObject({ score: 9, max_score: 9 });
  });

  test('create_quiz names what is wrong with an ordering question', async () => {
    const res = await callTool(client, 'create_quiz', {
      title: 'Bad',
      questions: [
        { type: 'ordering', text: 'Too few', items: [{ label: 'A' }, { label: 'B' }] },
        { type: 'ordering', text: 'Twice', items: [{ label: 'A' }, { label: 'B' }, { label: 'A' }] },
        {
          type: 'ordering',
          text: 'Both',
          items: DAYS.map((label) => ({ label })),
          points: 2,
          points_per_item: 1,
        },
      ],
    });
    const text = JSON.stringify(res);
    expect(text).toContain('needs at least 3 items');
    expect(text).toContain('items[2] repeats the label of items[0]');
    expect(text).toContain('not both');
  });
});
