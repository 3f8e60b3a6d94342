// An owner deletes a junk response from a quiz's results: a confirmation page, a CSRF-checked
// POST, and the summary, statistics, pass rate and export counted again at once. Another
// owner cannot see or delete it. Quizzes are made over MCP, answers through the public API.
import request from 'supertest';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { createPublishedQuiz, sampleAnswers, type PublishedQuiz } from '../respondent/respondent-fixtures';
import { csrfFrom, logIn, newAgent, squash, type Agent } from './dashboard-helpers';

let app: TestApp;
let client: AnyClient;
let owner: Agent;
let quiz: PublishedQuiz;

async function submit(name: string, yes: 'yes' | 'no', option: number): Promise<string> {
  const res = await request(app.app)
    .post(`/api/quizzes/${quiz.slug}/responses`)
    .send({ respondent: { name }, answers: sampleAnswers(quiz, yes, option) });
  expect(res.status).toBe(201);
  return res.body.response_id as string;
}

async function results() {
  return payload(await callTool(client, 'get_results', { quiz_id: quiz.quiz_id }));
}

beforeAll(async () => {
  app = await startTestApp();
  const user = await createTestUser(app);
  client = await connectClient(app, user.apiKey);
  owner = newAgent(app);
  expect((await logIn(owner, user.email, user.password)).status).toBe(303);
  quiz = await createPublishedQuiz(client, 'Junk magnet', { settings: { pass_mark_percent: 50 } });
});
afterAll(async () => {
  await client.close();
  await app.close();
});

test('confirm, delete, and the results are counted again without it', async () => {
  await submit('Ada', 'yes', 0); // 5 of 5: passed
  await submit('Grace', 'yes', 0); // 5 of 5: passed
  const junk = await submit('junk junk junk', 'no', 2); // -1 of 5: not passed
  const before = await results();
  expect(before.summary.response_count).toBe(3);
  expect(before.summary.pass_rate).toBeCloseTo(2 / 3);

  // Reachable from the responses list and from the respondent's own page.
  const responses = `/dashboard/quizzes/${quiz.quiz_id}/results/responses`;
  const link = `/dashboard/quizzes/${quiz.quiz_id}/responses/${junk}/delete`;
  expect((await owner.get(responses)).text).toContain(`href="${link}"`);
  expect((await owner.get(`/dashboard/quizzes/${quiz.quiz_id}/responses/${junk}`)).text).toContain(
    `href="${link}"`,
  );

  const confirm = await owner.get(link);
  expect(confirm.status).toBe(200);
  const text = squash(confirm.text);
  expect(text).toContain('Delete this response?');
  expect(text).toContain('junk junk junk');
  expect(text).toContain('This cannot be undone');
  // "Keep it" leads back to the respondent's page.
  expect(text).toContain(`href="/dashboard/quizzes/${quiz.quiz_id}/responses/${junk}">Keep it`);
  expect((await results()).summary.response_count).toBe(3); // looking deletes nothing

  // Without the form's token: refused, nothing deleted.
  const forged = await owner.post(link).type('form').send({});
  expect(forged.status).toBe(403);
  expect((await results()).summary.response_count).toBe(3);

  const deleted = await owner
    .post(link)
    .type('form')
    .send({ _csrf: csrfFrom(confirm.text) });
  expect(deleted.status).toBe(303);
  expect(deleted.headers.location).toBe(responses);

  const after = await results();
  expect(after.summary.response_count).toBe(2);
  expect(after.summary.pass_rate).toBe(1);
  expect(after.summary.average_score).toBe(5);
  expect(after.responses.map((r: { response_id: string }) => r.response_id)).not.toContain(junk);
  expect(await app.database.prisma.answer.count({ where: { responseId: junk } })).toBe(0);

  const page = squash((await owner.get(responses)).text);
  expect(page).toContain('The response is deleted, and the results no longer count it.');
  expect(page).not.toContain('junk junk junk');
  const csv = await owner.get(`/dashboard/quizzes/${quiz.quiz_id}/responses.csv`);
  expect(csv.text).not.toContain('junk junk junk');

  // A second try (another tab) says it is gone.
  const again = await owner
    .post(link)
    .type('form')
    .send({ _csrf: csrfFrom(confirm.text) });
  expect(again.status).toBe(303);
  expect(squash((await owner.get(responses)).text)).toContain('That response was already deleted.');
});

test('another owner can neither see nor delete a response: it is not found, and nothing changes', async () => {
  const response = await submit('Keep me', 'yes', 1);
  const stranger = await createTestUser(app, 'stranger');
  const agent = newAgent(app);
  await logIn(agent, stranger.email, stranger.password);
  const link = `/dashboard/quizzes/${quiz.quiz_id}/responses/${response}/delete`;
  expect((await agent.get(link)).status).toBe(404);
  expect((await agent.get(`/dashboard/quizzes/${quiz.quiz_id}/responses/${response}`)).status).toBe(404);
  const ownPage = await agent.get('/dashboard');
  const posted = await agent
    .post(link)
    .type('form')
    .send({ _csrf: csrfFrom(ownPage.text) });
  expect(posted.status).toBe(404);
  expect(await app.database.prisma.response.count({ where: { id: response } })).toBe(1);
  // A response id under the wrong quiz of the right owner is not found either.
  const other = await createPublishedQuiz(client, 'Second quiz');
  expect((await owner.get(`/dashboard/quizzes/${other.quiz_id}/responses/${response}/delete`)).status).toBe(
    404,
  );
  expect((await owner.get(`/dashboard/quizzes/${other.quiz_id}/responses/${response}`)).status).toBe(404);
});

test('logged out: the confirmation asks for a log-in first', async () => {
  const res = await request(app.app).get(`/dashboard/quizzes/${quiz.quiz_id}/responses/x/delete`);
  expect(res.status).toBe(303);
  expect(res.headers.location).toMatch(/^\/login\?returnTo=/);
});
