// Secrets never reach the logs: a full run at the most verbose level (sign-up and login, API
// keys created, used, mistyped and revoked, tool calls, failures, a submission) is captured and
// searched for every secret it handled.
import { Writable } from 'node:stream';
import request from 'supertest';
import { createLogger } from '../../src/logger';
import { csrfOf, newAgent, signUp, uniqueEmail } from '../dashboard/dashboard-helpers';
import {
  connectApp,
  LOOPBACK_REDIRECT,
  loggedInAgent,
  mcp as oauthMcp,
  refresh,
  registerClient,
} from '../oauth/oauth-helpers';
import {
  ACCEPT_BOTH,
  createTestUser,
  mistype,
  startTestApp,
  toolCall,
  type TestApp,
} from '../helpers/test-app';

describe('logs of a full run', () => {
  test('contain no API key, OAuth token, code, client secret, session cookie or password, only request ids and outcomes', async () => {
    let captured = '';
    const sink = new Writable({
      write(chunk, _encoding, done) {
        captured += chunk.toString();
        done();
      },
    });
    const app: TestApp = await startTestApp({ logger: createLogger('trace', sink) });
    try {
      const user = await createTestUser(app);
      const mcp = (key: string, body: object) =>
        request(app.app)
          .post('/api/mcp')
          .set('Authorization', `Bearer ${key}`)
          .set('Accept', ACCEPT_BOTH)
          .send(body);
      await mcp(
        user.apiKey,
        toolCall('create_quiz', { title: 'Logged', questions: [{ type: 'yes_no', text: 'Q?', points: 1 }] }),
      ).expect(200);
      await mcp(user.apiKey, toolCall('publish_quiz', { quiz_id: 'Logged' })).expect(200);
      await mcp(user.apiKey, toolCall('get_quiz_questions', { quiz_id: 'nope' })).expect(200);
      const mistyped = mistype(user.apiKey);
      await mcp(mistyped, toolCall('list_quizzes')).expect(401);
      await request(app.app)
        .post('/api/mcp?access_token=svc_in_query_string')
        .send(toolCall('list_quizzes'))
        .expect(401);

      // Dashboard: sign up, log in, create and revoke a key through the pages.
      const agent = newAgent(app);
      const email = uniqueEmail('logs');
      const password = 'a very secret password 123';
      await signUp(agent, email, password);
      const csrf = await csrfOf(agent, '/settings/security/api-keys');
      const created = await agent
        .post('/settings/security/api-keys')
        .type('form')
        .send({ _csrf: csrf, name: 'from the page' });
      const shown = await agent.get(created.headers.location ?? '/settings/security/api-keys');
      const pageKey = /svc_[0-9A-Za-z]{43}/.exec(shown.text)?.[0];
      expect(pageKey).toBeDefined();
      await mcp(pageKey!, toolCall('list_quizzes')).expect(200);
      const cookies = ([] as string[]).concat(created.headers['set-cookie'] ?? []);

      // OAuth: a confidential registration (client secret), consent, code, tokens, refresh, revocation.
      const confidential = await registerClient(app, {
        client_name: 'Logged app',
        redirect_uris: [LOOPBACK_REDIRECT],
        token_endpoint_auth_method: 'client_secret_post',
      });
      const clientSecret = confidential.body.client_secret as string;
      expect(clientSecret).toMatch(/^qcs_/);
      const { agent: oauthAgent } = await loggedInAgent(app, 'logs-oauth');
      const { client, tokens } = await connectApp(app, oauthAgent);
      await oauthMcp(app, tokens.access_token).expect(200);
      const refreshed = await refresh(app, client, tokens.refresh_token);
      expect(refreshed.status).toBe(200);
      await request(app.app)
        .post('/oauth/revoke')
        .type('form')
        .send({ token: refreshed.body.refresh_token, client_id: client.clientId })
        .expect(200);
      await oauthMcp(app, refreshed.body.access_token).expect(401);
      const oauthSecrets = [
        clientSecret,
        tokens.access_token,
        tokens.refresh_token,
        refreshed.body.access_token,
        refreshed.body.refresh_token,
      ];

      // A respondent's submission.
      await request(app.app)
        .post('/api/quizzes/logged/responses')
        .send({ respondent: { name: 'Resp' }, answers: [] });

      const lines = captured
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Record<string, unknown>);
      expect(lines.length).toBeGreaterThan(10);
      for (const line of lines.filter((l) => l.msg === 'request'))
        expect(line.requestId).toEqual(expect.any(String));
      for (const secret of [
        ...oauthSecrets,
        user.apiKey,
        mistyped,
        pageKey!,
        password,
        user.password,
        ...cookies.map((c) => c.split(';')[0]!.split('=')[1]!),
      ]) {
        expect(captured).not.toContain(secret);
      }
      expect(captured).not.toMatch(/(svc|qat|qrt|qac|qcs)_[0-9A-Za-z]{10,}/);
      expect(captured).not.toContain('access_token');
    } finally {
      await app.close();
    }
  });
});
