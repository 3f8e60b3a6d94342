// Text that is not well-formed Unicode (a lone surrogate, bytes that are not UTF-8) used to be
// stored with U+FFFD in its place: what was saved differed from what was sent, silently. It is
// refused at every door instead, naming the field where the door can, as NUL is, and nothing
// is stored. On SQLite and PostgreSQL.
import request from 'supertest';
import { csrfFrom, logIn, newAgent } from '../dashboard/dashboard-helpers';
import { expectProblem } from '../helpers/http';
import {
  ACCEPT_BOTH,
  createTestUser,
  describeEachDatabase,
  sampleQuestions,
  sseMessages,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { callTool, connectClient, errorText, payload } from '../helpers/mcp-clients';

const LONE = /lone surrogate/;
const NOT_UTF8 = /not UTF-8/;

/** A JSON text whose string holds the byte 0xFF, which no UTF-8 text holds. */
function bodyWithByteFF(prefix: string, suffix: string): Buffer {
  return Buffer.concat([Buffer.from(prefix), Buffer.from([0xff]), Buffer.from(suffix)]);
}

/** POSTs the bytes as they are (supertest would serialise a Buffer as JSON). */
async function postBytes(app: TestApp, path: string, headers: Record<string, string>, body: Buffer) {
  const res = await fetch(`${app.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

describeEachDatabase('text that is not well-formed Unicode is refused, never rewritten', (provider) => {
  let app: TestApp;
  let owner: TestUser;
  let slug: string;

  const quizCount = () => app.database.prisma.quiz.count({ where: { ownerId: owner.id } });

  beforeAll(async () => {
    app = await startTestApp({ provider });
    owner = await createTestUser(app, 'unicode');
    const client = await connectClient(app, owner.apiKey);
    const quiz = payload(
      await callTool(client, 'create_quiz', { title: 'Unicode quiz', questions: sampleQuestions() }),
    );
    payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
    slug = quiz.slug;
    await client.close();
  });
  afterAll(async () => {
    await app.close();
  });

  test.each([
    ['title', { title: 'a\ud800b', questions: [] }],
    ['questions[0].text', { title: 'ok', questions: [{ type: 'yes_no', text: 'Q\udfff?', points: 1 }] }],
  ])('create_quiz with a lone surrogate in %s: isError naming it, nothing stored', async (field, args) => {
    const client = await connectClient(app, owner.apiKey);
    try {
      const before = await quizCount();
      expect(errorText(await callTool(client, 'create_quiz', args))).toMatch(
        new RegExp(`- ${field.replace(/[[\]]/g, '\\$&')}: must be well-formed Unicode`),
      );
      expect(await quizCount()).toBe(before);
    } finally {
      await client.close();
    }
  });

  test('a surrogate pair (an emoji) is text, and is stored as sent', async () => {
    const client = await connectClient(app, owner.apiKey);
    try {
      const quiz = payload(await callTool(client, 'create_quiz', { title: 'Quiz 🙂', questions: [] }));
      expect(payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id })).title).toBe(
        'Quiz 🙂',
      );
    } finally {
      await client.close();
    }
  });

  test('the MCP endpoint: a body with bytes that are not UTF-8 is a parse error, nothing stored', async () => {
    const before = await quizCount();
    const res = await postBytes(
      app,
      '/api/mcp',
      { Accept: ACCEPT_BOTH, Authorization: `Bearer ${owner.apiKey}` },
      bodyWithByteFF(
        '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_quiz","arguments":{"title":"Caf',
        '","questions":[]}}}',
      ),
    );
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32700, message: expect.stringMatching(NOT_UTF8) });
    expect(await quizCount()).toBe(before);
  });

  test('the JSON submission: 422 naming a lone surrogate, 400 for bytes that are not UTF-8', async () => {
    const lone = await request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .set('Content-Type', 'application/json')
      .send('{"respondent":{"name":"Ann\\ud800"},"answers":[]}');
    expect(lone.status).toBe(422);
    expectProblem(lone, app.baseUrl, 'validation_failed');
    expect(lone.body.errors).toEqual([{ field: 'respondent.name', message: expect.stringMatching(LONE) }]);

    const bytes = await postBytes(
      app,
      `/api/quizzes/${slug}/responses`,
      {},
      bodyWithByteFF('{"respondent":{"name":"Ann', '"},"answers":[]}'),
    );
    expect(bytes.status).toBe(400);
    expect(bytes.body).toMatchObject({ code: 'bad_request', detail: expect.stringMatching(NOT_UTF8) });
    expect(await app.database.prisma.response.count()).toBe(0);
  });

  test('the quiz form: a 400 page naming a field whose escapes are not UTF-8', async () => {
    const res = await request(app.app).post(`/q/${slug}`).type('form').send('name=Ann%FF&email=a%40b.c');
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.text).toMatch(/The field name must be UTF-8 text/);
    // Correct escapes of the same kind of text go through to the form's own checks.
    const fine = await request(app.app).post(`/q/${slug}`).type('form').send('name=Jos%C3%A9');
    expect(fine.status).not.toBe(400);
  });

  test('a dashboard form: a 400 page naming the field, nothing created', async () => {
    const agent = newAgent(app);
    expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
    const csrf = csrfFrom((await agent.get('/settings/security/api-keys')).text);
    const keys = () => app.database.prisma.apiKey.count({ where: { userId: owner.id } });
    const before = await keys();
    const res = await agent
      .post('/settings/security/api-keys')
      .type('form')
      .send(`_csrf=${encodeURIComponent(csrf)}&name=Laptop%E9`);
    expect(res.status).toBe(400);
    expect(res.text).toMatch(/The field name must be UTF-8 text/);
    expect(await keys()).toBe(before);
  });

  test('OAuth: registration and token requests answer invalid_* naming the field', async () => {
    const register = await request(app.app)
      .post('/oauth/register')
      .set('Content-Type', 'application/json')
      .send('{"client_name":"Evil\\udc00","redirect_uris":["https://client.example/cb"]}');
    expect(register.status).toBe(400);
    expect(register.body).toMatchObject({
      error: 'invalid_client_metadata',
      error_description: expect.stringMatching(/client_name must be well-formed Unicode/),
    });
    const token = await request(app.app)
      .post('/oauth/token')
      .type('form')
      .send('grant_type=authorization_code&code=%FF%FE');
    expect(token.status).toBe(400);
    expect(token.body).toMatchObject({
      error: 'invalid_request',
      error_description: expect.stringMatching(/code must be UTF-8 text/),
    });
  });

  test('a query string whose escapes are not UTF-8 is a 400 problem; correct ones pass', async () => {
    const res = await request(app.app).get('/dashboard/quizzes?after=%C3');
    expect(res.status).toBe(400);
    expectProblem(res, app.baseUrl, 'bad_request');
    expect(res.body.detail).toMatch(NOT_UTF8);
    expect((await request(app.app).get('/en/docs/api-reference?q=caf%C3%A9')).status).toBe(200);
  });

  test('MCP 2025 era over SSE: the refusal reaches the client as a tool error, not a transport failure', async () => {
    const res = await request(app.app)
      .post('/api/mcp')
      .set('Accept', ACCEPT_BOTH)
      .set('Authorization', `Bearer ${owner.apiKey}`)
      .send({
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'get_quiz_questions', arguments: { quiz_id: '\ud800' } },
      });
    expect(res.status).toBe(200);
    const [message] = sseMessages(res.text);
    expect(message.result.isError).toBe(true);
    expect(message.result.content[0].text).toMatch(/quiz_id: must be well-formed Unicode/);
  });
});
