// The OIDC third-party-initiated login (LTI 1.3 core §5.1.1): reading the platform's initiation
// and the redirect to its authorization endpoint.
import { LtiError, type LtiErrorCode } from '../../src/lti/errors';
import { authenticationRedirect, readLoginRequest, type LtiLoginRequest } from '../../src/lti/login';
import type { LtiPlatform } from '../../src/lti/platform';

const platform: LtiPlatform = {
  id: 'moodle-1',
  issuer: 'https://moodle.school.example',
  clientId: 'client-abc',
  deploymentIds: ['1', '2'],
  authLoginUrl: 'https://moodle.school.example/mod/lti/auth.php',
  authTokenUrl: 'https://moodle.school.example/mod/lti/token.php',
  jwksUrl: 'https://moodle.school.example/mod/lti/certs.php',
};

const INITIATION = {
  iss: 'https://moodle.school.example',
  login_hint: '42',
  target_link_uri: 'https://quiz.example/lti/launch',
  lti_message_hint: '{"cmid":7}',
  client_id: 'client-abc',
  lti_deployment_id: '1',
};

function refusedWith(run: () => unknown, code: LtiErrorCode, message?: RegExp): void {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(LtiError);
  expect((caught as LtiError).code).toBe(code);
  if (message) expect((caught as LtiError).message).toMatch(message);
}

describe('readLoginRequest', () => {
  test('reads every parameter, optional ones included', () => {
    expect(readLoginRequest(INITIATION)).toEqual<LtiLoginRequest>({
      issuer: 'https://moodle.school.example',
      loginHint: '42',
      targetLinkUri: 'https://quiz.example/lti/launch',
      ltiMessageHint: '{"cmid":7}',
      clientId: 'client-abc',
      deploymentId: '1',
    });
  });

  test('the optional parameters may be absent, and unknown ones are ignored', () => {
    const { iss, login_hint, target_link_uri } = INITIATION;
    expect(readLoginRequest({ iss, login_hint, target_link_uri, utf8: '✓' })).toEqual({
      issuer: iss,
      loginHint: login_hint,
      targetLinkUri: target_link_uri,
    });
  });

  test('names every required parameter missing', () => {
    refusedWith(() => readLoginRequest({}), 'bad_login_request', /lacks iss, login_hint, target_link_uri/);
    refusedWith(
      () => readLoginRequest({ ...INITIATION, login_hint: '' }),
      'bad_login_request',
      /lacks login_hint:.*registration/,
    );
  });

  test('refuses a parameter sent twice, or a target that is not a URL', () => {
    refusedWith(() => readLoginRequest({ ...INITIATION, iss: ['a', 'b'] }), 'bad_login_request', /iss/);
    refusedWith(
      () => readLoginRequest({ ...INITIATION, target_link_uri: 'javascript:alert(1)' }),
      'bad_login_request',
      /target_link_uri/,
    );
  });
});

describe('authenticationRedirect', () => {
  const options = { redirectUri: 'https://quiz.example/lti/launch', state: 'state-1', nonce: 'nonce-1' };

  test("points at the platform's auth endpoint with the OIDC parameters LTI requires", () => {
    const url = new URL(authenticationRedirect(platform, readLoginRequest(INITIATION), options));
    expect(`${url.origin}${url.pathname}`).toBe(platform.authLoginUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      scope: 'openid',
      response_type: 'id_token',
      response_mode: 'form_post',
      prompt: 'none',
      client_id: 'client-abc',
      redirect_uri: 'https://quiz.example/lti/launch',
      login_hint: '42',
      lti_message_hint: '{"cmid":7}',
      state: 'state-1',
      nonce: 'nonce-1',
    });
  });

  test("keeps the auth URL's own query and sends no lti_message_hint the platform did not send", () => {
    const withQuery = {
      ...platform,
      authLoginUrl: 'https://canvas.example/api/lti/authorize_redirect?tenant=x',
    };
    const { lti_message_hint: _hint, ...initiation } = INITIATION;
    const url = new URL(authenticationRedirect(withQuery, readLoginRequest(initiation), options));
    expect(url.searchParams.get('tenant')).toBe('x');
    expect(url.searchParams.has('lti_message_hint')).toBe(false);
  });

  test('refuses a login that is not for this platform', () => {
    const login = readLoginRequest(INITIATION);
    refusedWith(
      () => authenticationRedirect(platform, { ...login, issuer: 'https://other.example' }, options),
      'wrong_issuer',
    );
    refusedWith(
      () => authenticationRedirect(platform, { ...login, clientId: 'client-xyz' }, options),
      'wrong_audience',
    );
    refusedWith(
      () => authenticationRedirect(platform, { ...login, deploymentId: '9' }, options),
      'unknown_deployment',
      /deployment 9/,
    );
  });

  test('refuses an empty state or nonce', () => {
    const login = readLoginRequest(INITIATION);
    refusedWith(
      () => authenticationRedirect(platform, login, { ...options, nonce: '' }),
      'bad_login_request',
      /nonce/,
    );
    refusedWith(
      () => authenticationRedirect(platform, login, { ...options, state: '' }),
      'bad_login_request',
      /state/,
    );
  });
});
