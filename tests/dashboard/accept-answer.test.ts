// "Accept this answer": a typed answer marked wrong joins the question's accepted answers from
// the response page, after a confirmation that counts the responses it changes; those that typed
// it (case and spacing aside) are re-marked, the question keeps its id and an attempt in progress
// is still taken. On both databases; another owner, a forged form and bad input change nothing.
import request from 'supertest';
import type { Provider } from '../../src/db/database';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { describeWithPostgres } from '../helpers/test-database';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { csrfFrom, logIn, newAgent, squash, type Agent } from './dashboard-helpers';

const QUESTIONS = [
  { type: 'short_text', text: 'Which planet is red?', accepted_answers: ['Mars'], points: 2 },
  {
    type: 'fill_in_blanks',
    text: '[[1]] is the capital of [[2]].',
    blanks: [{ accepted_answers: ['Paris'] }, { accepted_answers: ['France'] }],
  },
  { type: 'yes_no', text: 'Is the Moon a planet?', correct_answer: 'no' },
];

function suite(provider: Provider) {
  let app: TestApp;
  let client: AnyClient;
  let owner: Agent;
  let stranger: Agent;
  let quiz: { quiz_id: string; slug: string; questions: Array<{ question_id: string }> };
  const ids: Record<string, string> = {};

  const start = async () => {
    const res = await request(app.app).post(`/api/quizzes/${quiz.slug}/attempts`).send({});
    expect(res.status).toBe(201);
    return res.body.attempt_token as string;
  };
  const submit = async (token: string, name: string, planet: string, blanks: string[]) => {
    const [planetQ, blanksQ, moonQ] = quiz.questions.map((question) => question.question_id);
    const res = await request(app.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .send({
        attempt_token: token,
        respondent: { name },
        answers: [
          { question_id: planetQ, text: planet },
          { question_id: blanksQ, blanks },
          { question_id: moonQ, answer: 'no' },
        ],
      });
    expect([res.status, res.body.detail]).toEqual([201, undefined]);
    return res.body.response_id as string;
  };
  const answerIds = async (responseId: string) =>
    (await app.deps.repos.responses.ownedWithAnswers(ownerId, quiz.quiz_id, responseId))!.answers;
  let ownerId = '';
  const scores = async () => {
    const results = payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id, limit: 50 }));
    return Object.fromEntries(
      results.responses.map((response: any) => [response.respondent.name, response.score]),
    ) as Record<string, number>;
  };
  const responsePage = (id: string) => `/dashboard/quizzes/${quiz.quiz_id}/responses/${id}`;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    const user = await createTestUser(app);
    ownerId = user.id;
    client = await connectClient(app, user.apiKey);
    owner = newAgent(app);
    expect((await logIn(owner, user.email, user.password)).status).toBe(303);
    const other = await createTestUser(app);
    stranger = newAgent(app);
    expect((await logIn(stranger, other.email, other.password)).status).toBe(303);
    quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Planets',
        questions: QUESTIONS,
        // Taken through attempts, so an attempt in progress can be seen to go on.
        settings: { time_limit_minutes: 30, collect_name: true },
      }),
    );
    payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
    ids.typo = await submit(await start(), 'Typo', 'Marz', ['Paris', 'Frnace']);
    ids.shouting = await submit(await start(), 'Shouting', '  MARZ ', ['paris', 'France']);
    ids.spaced = await submit(await start(), 'Spaced', 'ma rz', ['Paris', 'France']);
    ids.right = await submit(await start(), 'Right', 'Mars', ['Paris', 'France']);
    ids.wrong = await submit(await start(), 'Wrong', 'Venus', ['Lyon', 'Frnace']);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('"Marz" for "Mars": asked first with the count, then exactly the responses that typed it are re-marked', async () => {
    expect(await scores()).toEqual({ Typo: 2, Shouting: 3, Spaced: 3, Right: 5, Wrong: 1 });
    const version = (await app.deps.repos.quizzes.byId(quiz.quiz_id))!.version;
    const inProgress = await start();

    // Offered on the response page, for the wrong typed answers only.
    const page = await owner.get(responsePage(ids.typo!));
    const [planet, blanks] = await answerIds(ids.typo!);
    const accept = `${responsePage(ids.typo!)}/answers/${planet!.id}/accept`;
    expect(page.text).toContain(`href="${accept}"`);
    expect(page.text).toContain(`href="${responsePage(ids.typo!)}/answers/${blanks!.id}/accept?blank=2"`);
    expect(page.text).not.toContain(`answers/${blanks!.id}/accept?blank=1"`);
    expect((await owner.get(responsePage(ids.right!))).text).not.toContain('/accept');

    // Asked first: the count, and nothing changed yet.
    const confirm = await owner.get(accept);
    expect(confirm.status).toBe(200);
    expect(squash(confirm.text)).toContain('<h1>Accept “<bdi>Marz</bdi>”?</h1>');
    expect(squash(confirm.text)).toContain('2 responses get new marks');
    expect(await scores()).toEqual({ Typo: 2, Shouting: 3, Spaced: 3, Right: 5, Wrong: 1 });

    // A forged form, another owner, and a bad blank number change nothing.
    expect((await owner.post(accept).type('form').send({ _csrf: 'forged' })).status).toBe(403);
    expect((await stranger.get(accept)).status).toBe(404);
    const strangerCsrf = csrfFrom((await stranger.get('/dashboard/quizzes')).text);
    expect((await stranger.post(accept).type('form').send({ _csrf: strangerCsrf })).status).toBe(404);
    const badBlank = await owner.get(`${responsePage(ids.typo!)}/answers/${blanks!.id}/accept?blank=x`);
    expect(badBlank.status).toBe(400);
    expect(squash(badBlank.text)).toContain('The blank must be a blank number');
    const rightBlank = await owner.get(`${responsePage(ids.typo!)}/answers/${blanks!.id}/accept?blank=1`);
    expect(rightBlank.status).toBe(422);
    expect(squash(rightBlank.text)).toContain('already marked right');
    expect(await scores()).toEqual({ Typo: 2, Shouting: 3, Spaced: 3, Right: 5, Wrong: 1 });

    const done = await owner
      .post(accept)
      .type('form')
      .send({ _csrf: csrfFrom(confirm.text) });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe(responsePage(ids.typo!));
    expect(squash((await owner.get(responsePage(ids.typo!))).text)).toContain(
      '“Marz” is accepted: 2 responses re-marked.',
    );
    // "Marz" and "  MARZ " are re-marked; "ma rz" is another word under the type's rule.
    expect(await scores()).toEqual({ Typo: 4, Shouting: 5, Spaced: 3, Right: 5, Wrong: 1 });
    const questions = payload(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
    expect(questions.questions[0]).toMatchObject({
      question_id: quiz.questions[0]!.question_id,
      accepted_answers: ['Mars', 'Marz'],
    });
    // The quiz keeps its version: the attempt in progress is taken, and marked under the new key.
    expect((await app.deps.repos.quizzes.byId(quiz.quiz_id))!.version).toBe(version);
    await submit(inProgress, 'Late', 'marz', ['Paris', 'France']);
    expect((await scores()).Late).toBe(5);
    // Accepting again is refused, and changes nothing.
    const again = await owner
      .post(accept)
      .type('form')
      .send({ _csrf: csrfFrom(confirm.text) });
    expect(again.status).toBe(422);
    expect(squash(again.text)).toContain('already marked right');
  });

  test('a typed blank: its text joins that blank only, and the figures equal a recomputation', async () => {
    const [, blanks] = await answerIds(ids.typo!);
    const accept = `${responsePage(ids.typo!)}/answers/${blanks!.id}/accept`;
    const confirm = await owner.get(`${accept}?blank=2`);
    expect(squash(confirm.text)).toContain('<h1>Accept “<bdi>Frnace</bdi>” for blank 2?</h1>');
    expect(squash(confirm.text)).toContain('2 responses get new marks');
    const done = await owner
      .post(accept)
      .type('form')
      .send({ _csrf: csrfFrom(confirm.text), blank: '2' });
    expect(done.status).toBe(303);
    expect(await scores()).toEqual({ Typo: 5, Shouting: 5, Spaced: 3, Right: 5, Wrong: 2, Late: 5 });
    const questions = payload(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
    expect(questions.questions[1]).toMatchObject({
      question_id: quiz.questions[1]!.question_id,
      blanks: [{ accepted_answers: ['Paris'] }, { accepted_answers: ['France', 'Frnace'] }],
    });
    // The running figures followed the new marks: they equal a recomputation from the rows.
    const { responses } = app.deps.repos;
    const followed = await responses.figures(quiz.quiz_id);
    await responses.recomputeFigures(quiz.quiz_id);
    const recomputed = await responses.figures(quiz.quiz_id);
    const order = (rows: object[]) => rows.map((row) => JSON.stringify(row)).sort();
    expect(order(followed.items)).toEqual(order(recomputed.items));
    expect(order(followed.scores)).toEqual(order(recomputed.scores));
  });

  test('an answer of a type without accepted answers is refused with a clear page', async () => {
    const [, , moon] = await answerIds(ids.typo!);
    const res = await owner.get(`${responsePage(ids.typo!)}/answers/${moon!.id}/accept`);
    expect(res.status).toBe(422);
    expect(squash(res.text)).toContain('Only a typed answer matched to accepted answers can be accepted');
  });
}

describe('accept this answer (SQLite)', () => suite('sqlite'));
describeWithPostgres('accept this answer (PostgreSQL)', () => suite('postgresql'));
