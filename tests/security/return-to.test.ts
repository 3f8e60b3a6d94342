// An attack suite's open redirect: /login?returnTo=/.//evil.example logged the user in and sent
// them to //evil.example. returnTo may only ever lead to a path on this origin; the rule judges
// the path, and keeps the query as it came (the OAuth consent flow returns through it).
import { safeReturnTo } from '../../src/web/session';
import { logIn, newAgent } from '../dashboard/dashboard-helpers';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';

const CONSENT =
  '/oauth/authorize?response_type=code&client_id=client-123&redirect_uri=https%3A%2F%2Fclient.example%2Fcb' +
  '&code_challenge=E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM&code_challenge_method=S256&state=xyz%2F..%5C&scope=quizzes%3Aread';

const HOSTILE = [
  '//x',
  '/\\x',
  '\\\\x',
  '/.//x',
  '/..//x',
  '/a/../..//x',
  '/./\\x',
  '/%2f%2fx',
  '/%2F%2Fx',
  '/%5cx',
  '/%5C%5Cx',
  '/%2e%2e//x',
  '/.%2e//x',
  'https://x',
  'http:/x',
  'HTTPS://x',
  'javascript:alert(1)',
  ' /x',
  '/\t/x',
  '/\n/x',
  '/\r\n/x',
  '/x\u0000',
  '/%09/x',
  '//x/dashboard',
  'x',
];

describe('returnTo', () => {
  test.each(HOSTILE)('refuses %j', (value) => {
    expect(safeReturnTo(value)).toBeNull();
  });

  test.each([
    ['the OAuth consent URL, byte for byte', CONSENT, CONSENT],
    [
      'a dashboard page with a query',
      '/dashboard/quizzes/abc?tab=results',
      '/dashboard/quizzes/abc?tab=results',
    ],
    ['a query holding URL-looking text', '/dashboard?next=//evil.example', '/dashboard?next=//evil.example'],
    ['a dot segment that stays local', '/a/../settings', '/settings'],
  ])('keeps %s', (_label, value, expected) => {
    expect(safeReturnTo(value)).toBe(expected);
  });

  describe('through the log-in form', () => {
    let app: TestApp;
    beforeAll(async () => {
      app = await startTestApp();
    });
    afterAll(async () => {
      await app.close();
    });

    test.each(['/.//evil.example', '/%2f%2fevil.example', '/..//evil.example'])(
      'logging in with returnTo %j lands on the dashboard',
      async (returnTo) => {
        const user = await createTestUser(app, 'return-to');
        const res = await logIn(newAgent(app), user.email, user.password, { returnTo });
        expect(res.status).toBe(303);
        expect(res.headers.location).toBe('/dashboard');
      },
    );

    test('the consent URL survives the log-in byte for byte', async () => {
      const user = await createTestUser(app, 'return-to-consent');
      const res = await logIn(newAgent(app), user.email, user.password, { returnTo: CONSENT });
      expect(res.status).toBe(303);
      expect(res.headers.location).toBe(CONSENT);
    });
  });
});
