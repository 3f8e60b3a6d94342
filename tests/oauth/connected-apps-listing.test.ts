// "Connected apps" lists an app once its client holds a token: an Allow whose code is never
// exchanged (a retried consent, a client that gave up or registered again) gives nobody access
// and is not listed, and consent retries from one client leave one entry.
import { squash } from '../dashboard/dashboard-helpers';
import { describeEachDatabase, type TestApp } from '../helpers/test-app';
import {
  authorizationParams,
  connectApp,
  exchangeCode,
  loggedInAgent,
  mcp,
  obtainCode,
  registerPublicClient,
  startOAuthTestApp,
} from './oauth-helpers';

const PAGE = '/settings/connected-apps';

/** The app cards on the page, by the name in their title. */
const listedNames = (page: string) =>
  [...page.matchAll(/<h2 class="card-title">([^<]*)<\/h2>/g)].map((match) => match[1]);

describeEachDatabase('connected apps are the clients holding a token', (provider) => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startOAuthTestApp({ provider });
  });
  afterAll(async () => {
    await app.close();
  });

  test('Allow without an exchange lists nothing; the exchange lists one app, and retries keep it one', async () => {
    const { agent } = await loggedInAgent(app);
    const client = await registerPublicClient(app);
    // Three Allows from one client, none exchanged, and the same app registered again, not exchanged.
    for (let i = 0; i < 3; i += 1) await obtainCode(agent, authorizationParams(client).params);
    const again = await registerPublicClient(app);
    await obtainCode(agent, authorizationParams(again).params);
    const before = await agent.get(PAGE);
    expect(squash(before.text)).toContain('No apps are connected.');
    expect(listedNames(before.text)).toEqual([]);

    // A fourth Allow whose code the client exchanges: one app.
    const { params, verifier } = authorizationParams(client);
    const code = await obtainCode(agent, params);
    const tokens = await exchangeCode(app, client, code, verifier);
    expect(tokens.status).toBe(200);
    expect((await mcp(app, tokens.body.access_token)).status).toBe(200);
    expect(listedNames((await agent.get(PAGE)).text)).toEqual(['Test assistant']);

    // The same client retries the consent and exchanges again: still one app.
    await connectApp(app, agent, { client });
    await obtainCode(agent, authorizationParams(client).params);
    expect(listedNames((await agent.get(PAGE)).text)).toEqual(['Test assistant']);
  });

  test('the account page counts connected apps the same way', async () => {
    const { agent } = await loggedInAgent(app);
    const client = await registerPublicClient(app);
    await obtainCode(agent, authorizationParams(client).params);
    const page = squash((await agent.get('/account')).text);
    const connected = await connectApp(app, agent);
    const after = squash((await agent.get('/account')).text);
    expect(connected.tokens.access_token).toBeTruthy();
    expect(page).toMatch(/0 connected apps/);
    expect(after).toMatch(/1 connected app/);
  });
});
