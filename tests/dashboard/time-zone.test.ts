// The account's time zone: chosen on the Account page, checked against Intl's IANA names, used
// for every time a dashboard page shows, and by the tools for times given without an offset.
import request from 'supertest';
import { displayTime } from '../../src/domain/time-zone';
import { callTool, connectClient, payload } from '../helpers/mcp-clients';
import { createTestUser, sampleQuestions, startTestApp, type TestApp } from '../helpers/test-app';
import { connectApp, loggedInAgent } from '../oauth/oauth-helpers';
import { createPublishedQuiz, sampleAnswers } from '../respondent/respondent-fixtures';
import { startReceiver, type Receiver } from '../webhooks/receiver';
import { csrfOf, errorSummaryText, logIn, type Agent } from './dashboard-helpers';

let app: TestApp;
let receiver: Receiver;
beforeAll(async () => {
  app = await startTestApp({ config: { webhooks: { allowLoopback: true, secretKey: undefined } } });
  receiver = await startReceiver();
});
afterAll(async () => {
  await receiver?.close();
  await app?.close();
});

async function setZone(agent: Agent, zone: string): Promise<void> {
  const saved = await agent
    .post('/account/time-zone')
    .type('form')
    .send({ _csrf: await csrfOf(agent, '/account'), time_zone: zone });
  expect(saved.status).toBe(303);
}

/** Every `<time>` of a page: its machine value and the text a reader sees. */
function timesOf(page: string): Array<{ datetime: string; text: string }> {
  return [...page.matchAll(/<time datetime="([^"]+)">([^<]*)<\/time>/g)].map((m) => ({
    datetime: m[1]!,
    text: m[2]!,
  }));
}

test('an owner picks a zone; the quiz page shows its times there; a tool reads an offset-less time in it', async () => {
  const user = await createTestUser(app);
  const agent = request.agent(app.app);
  await logIn(agent, user.email, user.password);

  const account = await agent.get('/account');
  expect(account.text).toContain('<option value="UTC" selected>');
  expect(account.text).toContain('<option value="America/St_Johns"');

  const bad = await agent
    .post('/account/time-zone')
    .type('form')
    .send({ _csrf: await csrfOf(agent, '/account'), time_zone: 'Mars/Olympus' });
  expect(bad.status).toBe(422);
  expect(errorSummaryText(bad.text)).toContain('Mars/Olympus&quot; is not an IANA time zone');
  // The summary links to the list, which carries the error itself (the shared selectField part).
  expect(bad.text).toMatch(
    /<select\s+id="time_zone"[^>]*aria-describedby="time_zone-error"[^>]*aria-invalid="true"/,
  );
  expect(bad.text).toContain('id="time_zone-error"');

  const saved = await agent
    .post('/account/time-zone')
    .type('form')
    .send({ _csrf: await csrfOf(agent, '/account'), time_zone: 'america/st_johns' });
  expect(saved.status).toBe(303);
  expect((await agent.get('/account')).text).toContain('<option value="America/St_Johns" selected>');

  const client = await connectClient(app, user.apiKey);
  try {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Zoned',
        questions: sampleQuestions(),
        settings: { closes_at: '2030-01-01T09:00:00Z' },
      }),
    );
    const page = await agent.get(`/dashboard/quizzes/${quiz.quiz_id}`);
    // 09:00 UTC is 05:30 in St John's.
    expect(page.text).toContain(
      '<time datetime="2030-01-01T09:00:00.000Z">1 Jan 2030, 05:30 (America/St_Johns)</time>',
    );
    await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
    const closed = payload(
      await callTool(client, 'close_quiz', { quiz_id: quiz.quiz_id, at: '2030-01-02T09:00' }),
    );
    expect(closed.closes_at).toEqual({
      utc: '2030-01-02T12:30:00.000Z',
      local: '2030-01-02T09:00:00-03:30',
      time_zone: 'America/St_Johns',
    });
  } finally {
    await client.close();
  }
});

test('every dashboard page shows its times in the account zone, named, with the UTC instant in datetime', async () => {
  const zone = 'Asia/Kolkata';
  const { agent, user } = await loggedInAgent(app, 'zoned');
  await setZone(agent, zone);
  const client = await connectClient(app, user.apiKey);
  let quizId: string;
  let responseId: string;
  try {
    const quiz = await createPublishedQuiz(client, 'Zoned everywhere', {
      settings: { closes_at: '2030-01-01T09:00:00Z' },
    });
    quizId = quiz.quiz_id;
    const submitted = await request(app.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .send({ respondent: { name: 'Ada' }, answers: sampleAnswers(quiz) });
    expect(submitted.status).toBe(201);
    responseId = submitted.body.response_id as string;
  } finally {
    await client.close();
  }
  await connectApp(app, agent);
  const added = await agent
    .post('/settings/webhooks')
    .type('form')
    .send({
      _csrf: await csrfOf(agent, '/settings/webhooks'),
      url: receiver.url,
      events: ['response.submitted'],
      scope: 'all',
    });
  expect(added.status).toBe(303);
  const endpoint = added.headers.location as string;
  await agent
    .post(`${endpoint}/test`)
    .type('form')
    .send({ _csrf: await csrfOf(agent, endpoint) })
    .expect(303);

  // Each page with the fewest times it must show (a key's creation and last use, a delivery...).
  const pages: Array<[string, number]> = [
    ['/dashboard', 2],
    ['/dashboard/quizzes', 1],
    [`/dashboard/quizzes/${quizId}`, 5],
    [`/dashboard/quizzes/${quizId}/responses/${responseId}/delete`, 1],
    [`/dashboard/quizzes/${quizId}/results/summary`, 1],
    [`/dashboard/quizzes/${quizId}/results/responses`, 1],
    [`/dashboard/quizzes/${quizId}/responses/${responseId}`, 1],
    ['/settings/security/api-keys', 2],
    ['/settings/connected-apps', 1],
    [endpoint, 1],
    ['/account', 1],
  ];
  for (const [path, least] of pages) {
    const page = await agent.get(path).expect(200);
    const times = timesOf(page.text);
    expect([path, times.length >= least]).toEqual([path, true]);
    for (const time of times) {
      expect(time.datetime).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      expect([path, time.text]).toEqual([path, displayTime(new Date(time.datetime), zone)]);
      expect(time.text).toMatch(/^\d{1,2} [A-Z][a-z]+ \d{4}, \d{2}:\d{2} \(Asia\/Kolkata\)$/);
    }
  }
  // 09:00 UTC is 14:30 in Kolkata.
  expect((await agent.get(`/dashboard/quizzes/${quizId}`)).text).toContain(
    '<time datetime="2030-01-01T09:00:00.000Z">1 Jan 2030, 14:30 (Asia/Kolkata)</time>',
  );
});
