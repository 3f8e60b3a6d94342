// get_quiz_settings says how many enabled webhook endpoints receive the quiz's events, in both
// eras, with no URL and no secret in the answer.
import { createEndpoint } from '../../src/domain/webhooks/endpoints';
import { sealingKey } from '../../src/domain/webhooks/secrets';
import { callTool, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import { createPublishedQuiz } from '../respondent/respondent-fixtures';

forEachEra(({ connect }) => {
  let app: TestApp;
  let user: TestUser;
  let client: AnyClient;
  beforeAll(async () => {
    app = await startTestApp({ config: { webhooks: { allowLoopback: true, secretKey: undefined } } });
    user = await createTestUser(app, 'count');
    client = await connect(app, user.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('webhook_endpoints counts the enabled endpoints for all quizzes or for this one', async () => {
    const quiz = await createPublishedQuiz(client, 'Counted');
    const other = await createPublishedQuiz(client, 'Other');
    const settings = async () =>
      payload(await callTool(client, 'get_quiz_settings', { quiz_id: quiz.quiz_id }));
    expect((await settings()).webhook_endpoints).toBe(0);

    const hooks = {
      sealingKey: sealingKey(app.config.webhooks.secretKey, app.config.sessionSecret),
      allowLoopback: true,
    };
    const add = (quizIds: string[] | null) =>
      createEndpoint(app.deps.repos, hooks, user.id, {
        url: 'http://127.0.0.1:9/secret-path-token',
        events: ['response.submitted'],
        quizIds,
      });
    await add(null);
    await add([quiz.quiz_id]);
    await add([other.quiz_id]);
    const { endpoint: disabled } = await add([quiz.quiz_id]);
    await app.database.prisma.webhookEndpoint.update({
      where: { id: disabled.id },
      data: { disabledAt: new Date(), disabledReason: 'test' },
    });
    const answer = await settings();
    expect(answer.webhook_endpoints).toBe(2);
    expect(JSON.stringify(answer)).not.toMatch(/secret-path-token|127\.0\.0\.1:9|whsec_/);
  });
});
