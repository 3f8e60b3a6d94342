// The account's time zone: chosen on the Account page, checked against Intl's IANA names, and
// used for the quiz page's times (opening, closing, responses) and by the tools for times given
// without an offset.
import request from 'supertest';
import { callTool, connectClient, payload } from '../helpers/mcp-clients';
import { createTestUser, sampleQuestions, startTestApp, type TestApp } from '../helpers/test-app';
import { csrfOf, errorSummaryText, logIn } from './dashboard-helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

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
      '<time datetime="2030-01-01T09:00:00.000Z">2030-01-01 05:30 America/St_Johns</time>',
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
