// One endpoint, both protocol eras: each kind of client that reaches us in the field lists the
// tools and calls all eight, once with an API key and once with an OAuth access token.
import { loggedInAgent, connectApp } from '../oauth/oauth-helpers';
import {
  createTestUser,
  describeEachDatabase,
  sampleQuestions,
  DEFAULT_TOOLS,
  startTestApp,
  type TestApp,
} from '../helpers/test-app';
import { CLIENT_KINDS, connectAnyClient, EXPECTED, payload, type AnyClient } from '../helpers/mcp-clients';

/** Every tool once, in the order an assistant would use them on a new quiz. */
async function callAllEight(client: AnyClient, title: string): Promise<void> {
  const created = payload(await client.callTool('create_quiz', { title, questions: sampleQuestions() }));
  expect(created).toMatchObject({ title, status: 'draft', question_count: 2 });
  const listed = payload(await client.callTool('list_quizzes'));
  expect(listed.quizzes.map((quiz: { quiz_id: string }) => quiz.quiz_id)).toContain(created.quiz_id);
  const questions = payload(await client.callTool('get_quiz_questions', { quiz_id: title }));
  expect(questions.questions.map((q: { text: string }) => q.text)).toEqual(
    sampleQuestions().map((q) => q.text),
  );
  const settings = payload(await client.callTool('get_quiz_settings', { quiz_id: created.slug }));
  expect(settings).toMatchObject({ quiz_id: created.quiz_id, status: 'draft', public_url: null });
  const updated = payload(
    await client.callTool('update_quiz', {
      quiz_id: created.quiz_id,
      questions: [{ type: 'yes_no', text: 'Still there?', points: 1 }],
    }),
  );
  expect(updated.question_count).toBe(1);
  const published = payload(await client.callTool('publish_quiz', { quiz_id: created.quiz_id }));
  expect(published.status).toBe('published');
  const results = payload(await client.callTool('get_results', { quiz_id: created.quiz_id }));
  expect(results.summary.response_count).toBe(0);
  const refused = await client.callTool('delete_quiz', { quiz_id: created.quiz_id });
  expect(refused.isError).toBe(true);
  payload(await client.callTool('delete_quiz', { quiz_id: created.quiz_id, confirm: true }));
  const gone = await client.callTool('get_quiz_questions', { quiz_id: created.quiz_id });
  expect(gone.isError).toBe(true);
}

describeEachDatabase('both protocol eras on one endpoint', (provider) => {
  let app: TestApp;
  let apiKey: string;
  let accessToken: string;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    apiKey = (await createTestUser(app, 'eras')).apiKey;
    const { agent } = await loggedInAgent(app, 'eras-oauth');
    accessToken = (await connectApp(app, agent)).tokens.access_token;
  });
  afterAll(async () => {
    await app.close();
  });

  describe.each(CLIENT_KINDS)('%s', (kind) => {
    test.each([
      ['an API key', () => apiKey],
      ['an OAuth access token', () => accessToken],
    ])('with %s: lands on its era, lists the tools and calls all eight', async (label, credential) => {
      const client = await connectAnyClient(kind, app.baseUrl, credential());
      try {
        expect({ era: client.era, version: client.protocolVersion }).toEqual(EXPECTED[kind]);
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual(DEFAULT_TOOLS);
        await callAllEight(client, `Eras ${kind} ${label}`);
      } finally {
        await client.close();
      }
    });
  });

  test('the tools look the same in both eras: names, input and output schemas', async () => {
    const listings = await Promise.all(
      CLIENT_KINDS.map(async (kind) => {
        const client = await connectAnyClient(kind, app.baseUrl, apiKey);
        try {
          return (await client.listTools()).tools.map(({ name, inputSchema, outputSchema }) => ({
            name,
            inputSchema,
            outputSchema,
          }));
        } finally {
          await client.close();
        }
      }),
    );
    expect(listings[1]).toEqual(listings[0]);
    expect(listings[2]).toEqual(listings[0]);
  });
});
