// The LTI 1.3 launch through the service's own routes, against an emulated platform with its own
// keys: the OIDC login's redirect with a signed state (and the same state in a cookie), then the
// platform's form post of the id token, taken once, in the browser that started it.
import request from 'supertest';
import {
  launchStateKey,
  LAUNCH_STATE_LIFETIME_MS,
  newLaunchState,
  readLaunchState,
} from '../../src/domain/lti/launch-state';
import { registerPlatform } from '../../src/domain/lti/platforms';
import { forgetPlatformKeys } from '../../src/lti/platform-keys';
import { newPlatformKey, startLtiPlatform, type LtiPlatformEmulator } from '../helpers/lti-platform';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';

describeEachDatabase('LTI launch routes', (provider) => {
  let app: TestApp;
  let platform: LtiPlatformEmulator;

  beforeAll(async () => {
    app = await startTestApp({ provider, config: { lti: { allowLoopback: true } } });
    platform = await startLtiPlatform({ deploymentIds: ['deployment-1'] });
    const owner = await createTestUser(app, 'lti-launch');
    const p = platform.platform;
    await registerPlatform({ repos: app.database.repos }, owner.id, {
      name: 'Moodle of the test',
      issuer: p.issuer,
      client_id: p.clientId,
      deployment_ids: [...p.deploymentIds],
      auth_login_url: p.authLoginUrl,
      auth_token_url: p.authTokenUrl,
      jwks_url: p.jwksUrl,
    });
  });
  afterAll(async () => {
    forgetPlatformKeys();
    await platform?.close();
    await app?.close();
  });

  /** The platform's login initiation, and what the tool answered: the state, nonce and cookie. */
  async function login(query: Record<string, string> = {}) {
    const res = await request(app.app)
      .get('/lti/login')
      .query({
        iss: platform.platform.issuer,
        login_hint: 'user-1001',
        target_link_uri: `${app.baseUrl}/lti/launch`,
        lti_message_hint: 'course-42',
        client_id: platform.platform.clientId,
        ...query,
      });
    expect(res.status).toBe(302);
    const target = new URL(res.headers.location!);
    const cookie = String(res.headers['set-cookie']).split(';')[0]!;
    return {
      res,
      target,
      state: target.searchParams.get('state')!,
      nonce: target.searchParams.get('nonce')!,
      cookie,
    };
  }
  const launch = (fields: Record<string, string>, cookie?: string) => {
    const post = request(app.app).post('/lti/launch').type('form').send(fields);
    return cookie ? post.set('Cookie', cookie) : post;
  };

  test('the login sends the browser to the platform with a signed state, a nonce and the state cookie', async () => {
    const { res, target, state, nonce } = await login();
    expect(`${target.origin}${target.pathname}`).toBe(platform.platform.authLoginUrl);
    expect(Object.fromEntries(target.searchParams)).toMatchObject({
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: platform.platform.clientId,
      redirect_uri: `${app.baseUrl}/lti/launch`,
      login_hint: 'user-1001',
      lti_message_hint: 'course-42',
    });
    expect(nonce.length).toBeGreaterThanOrEqual(32);
    const cookie = String(res.headers['set-cookie']);
    expect(cookie).toContain(`lti_state=${state}`);
    for (const attribute of [
      'Path=/lti/launch',
      'HttpOnly',
      'Secure',
      'SameSite=None',
      'Partitioned',
      'Max-Age=600',
    ])
      expect(cookie).toContain(attribute);
  });

  test('a valid launch is taken once: the page names who came from where, a replay is refused', async () => {
    const { state, nonce, cookie } = await login();
    const idToken = await platform.signIdToken({ nonce });
    const first = await launch({ id_token: idToken, state }, cookie);
    expect(first.status).toBe(200);
    expect(first.text).toContain('Signed in from Moodle of the test');
    expect(first.text).toContain('Ada Lovelace');
    // Framed by the platform alone.
    expect(first.headers['content-security-policy']).toContain(`frame-ancestors ${platform.platform.issuer}`);
    // The state cookie is spent.
    expect(String(first.headers['set-cookie'])).toContain('Max-Age=0');
    const again = await launch({ id_token: idToken, state }, cookie);
    expect(again.status).toBe(400);
    expect(again.text).toMatch(/already used/);
  });

  test('each refused launch says why', async () => {
    // A token for another login's nonce.
    const one = await login();
    const other = await launch({ id_token: await platform.signIdToken(), state: one.state }, one.cookie);
    expect(other.status).toBe(400);
    expect(other.text).toContain('wrong_nonce');
    // Signed by a key the platform does not publish.
    const two = await login();
    const stranger = await newPlatformKey();
    const forged = await launch(
      {
        id_token: await platform.signIdToken(
          { nonce: two.nonce },
          { key: stranger, kid: platform.currentKey.kid },
        ),
        state: two.state,
      },
      two.cookie,
    );
    expect(forged.text).toContain('bad_signature');
    // An audience that is not the tool, a deployment the platform never registered, an expired token.
    const three = await login();
    expect(
      (
        await launch(
          {
            id_token: await platform.signIdToken({ nonce: three.nonce, aud: 'someone-else' }),
            state: three.state,
          },
          three.cookie,
        )
      ).text,
    ).toContain('wrong_audience');
    const four = await login();
    const unknown = await platform.signIdToken({
      nonce: four.nonce,
      'https://purl.imsglobal.org/spec/lti/claim/deployment_id': 'deployment-99',
    });
    expect((await launch({ id_token: unknown, state: four.state }, four.cookie)).text).toContain(
      'unknown_deployment',
    );
    const five = await login();
    const old = await platform.signIdToken(
      { nonce: five.nonce },
      { iat: Math.floor(Date.now() / 1000) - 7200, lifetimeSeconds: 600 },
    );
    expect((await launch({ id_token: old, state: five.state }, five.cookie)).text).toContain('expired');
    // A state the service never signed, or altered.
    const six = await login();
    const altered = `${six.state.slice(0, -2)}xx`;
    const refused = await launch(
      { id_token: await platform.signIdToken({ nonce: six.nonce }), state: altered },
      `lti_state=${altered}`,
    );
    expect(refused.status).toBe(400);
    expect(refused.text).toMatch(/did not come from a sign-in the quiz service started/);
    // Another sign-in's cookie in this browser.
    const seven = await login();
    const eight = await login();
    const crossed = await launch(
      { id_token: await platform.signIdToken({ nonce: seven.nonce }), state: seven.state },
      eight.cookie,
    );
    expect(crossed.text).toMatch(/belongs to another sign-in/);
    // The platform's own refusal to sign the person in.
    const nine = await launch({
      error: 'login_required',
      error_description: 'No session',
      state: seven.state,
    });
    expect(nine.text).toMatch(/did not sign you in \(login_required: No session\)/);
  });

  test('without the cookie (a frame that keeps none) the page offers the activity in a new window', async () => {
    const { state, nonce } = await login();
    const res = await launch({ id_token: await platform.signIdToken({ nonce }), state });
    expect(res.status).toBe(400);
    const link = /href="([^"]+)" target="_blank"/.exec(res.text)?.[1]?.replaceAll('&amp;', '&');
    expect(link).toBeDefined();
    const retry = new URL(link!);
    expect(retry.pathname).toBe('/lti/login');
    expect(Object.fromEntries(retry.searchParams)).toMatchObject({
      iss: platform.platform.issuer,
      login_hint: 'user-1001',
      lti_message_hint: 'course-42',
    });
  });

  test('a login from a platform nobody registered, or without its parameters, is refused', async () => {
    const stranger = await request(app.app)
      .get('/lti/login')
      .query({
        iss: 'https://lms.nowhere.example',
        login_hint: 'x',
        target_link_uri: `${app.baseUrl}/lti/launch`,
      });
    expect(stranger.status).toBe(400);
    expect(stranger.text).toMatch(/is not registered with the quiz service/);
    const bare = await request(app.app)
      .post('/lti/login')
      .type('form')
      .send({ iss: platform.platform.issuer });
    expect(bare.status).toBe(400);
    expect(bare.text).toMatch(/lacks login_hint, target_link_uri/);
  });
});

test('a login state lives ten minutes and is refused altered or under another key', () => {
  const key = launchStateKey('a server secret of some length for the test');
  const at = Date.now();
  const { state, nonce } = newLaunchState(key, 'platform-1', { iss: 'https://lms.example' }, at);
  expect(readLaunchState(key, state, at + LAUNCH_STATE_LIFETIME_MS - 1)).toMatchObject({
    ok: true,
    state: { platformId: 'platform-1', nonce, login: { iss: 'https://lms.example' } },
  });
  expect(readLaunchState(key, state, at + LAUNCH_STATE_LIFETIME_MS)).toEqual({
    ok: false,
    problem: 'expired',
  });
  expect(readLaunchState(launchStateKey('another secret'), state, at)).toEqual({
    ok: false,
    problem: 'forged',
  });
  const [body, mac] = state.split('.');
  const other = Buffer.from(
    JSON.stringify({ platformId: 'platform-2', nonce, login: {}, expiresAt: at + 1e9 }),
  ).toString('base64url');
  expect(readLaunchState(key, `${other}.${mac}`, at)).toEqual({ ok: false, problem: 'forged' });
  expect(readLaunchState(key, body, at)).toEqual({ ok: false, problem: 'forged' });
  expect(readLaunchState(key, undefined, at)).toEqual({ ok: false, problem: 'missing' });
});
