// Platforms registered by hand: the form's fields checked, one registration per issuer and
// client id across the service, each owner seeing and removing only their own.
import { isDomainError } from '../../src/domain/errors';
import {
  listPlatforms,
  registerPlatform,
  removePlatform,
  toolEndpoints,
} from '../../src/domain/lti/platforms';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';

const moodle = (overrides: Record<string, unknown> = {}) => ({
  name: 'Moodle of Lycée Camus',
  issuer: 'https://moodle.camus.example',
  client_id: 'a1b2c3',
  deployment_ids: ['1'],
  auth_login_url: 'https://moodle.camus.example/mod/lti/auth.php',
  auth_token_url: 'https://moodle.camus.example/mod/lti/token.php',
  jwks_url: 'https://moodle.camus.example/mod/lti/certs.php',
  ...overrides,
});

async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    if (isDomainError(error))
      return { code: error.code, message: error.message, fields: error.issues.map((i) => i.field) };
    throw error;
  }
  throw new Error('it was not refused');
}

describeEachDatabase('LTI platforms registered by hand', (provider) => {
  let app: TestApp;
  let teacher: TestUser;
  let colleague: TestUser;
  beforeAll(async () => {
    app = await startTestApp({ provider });
    teacher = await createTestUser(app, 'lti-teacher');
    colleague = await createTestUser(app, 'lti-colleague');
  });
  afterAll(() => app.close());
  const deps = () => ({ repos: app.database.repos });

  test('a platform is registered to its owner, who alone lists it', async () => {
    const platform = await registerPlatform(deps(), teacher.id, moodle({ deployment_ids: ['1', '1', '7'] }));
    expect(platform).toMatchObject({
      name: 'Moodle of Lycée Camus',
      issuer: 'https://moodle.camus.example',
      client_id: 'a1b2c3',
      deployment_ids: ['1', '7'],
      registered_via: 'manual',
    });
    expect(await listPlatforms(deps(), teacher.id)).toEqual([platform]);
    expect(await listPlatforms(deps(), colleague.id)).toEqual([]);
  });

  test('the same issuer and client id again is refused, whoever asks, and nothing is stored', async () => {
    for (const who of [teacher, colleague]) {
      const refused = await refusal(registerPlatform(deps(), who.id, moodle({ name: 'Again' })));
      expect(refused).toMatchObject({ code: 'invalid_input', fields: ['client_id'] });
      expect(refused.message).toMatch(/registered already/);
      expect(refused.message).not.toContain(teacher.email);
    }
    expect((await listPlatforms(deps(), teacher.id)).map((p) => p.name)).toEqual(['Moodle of Lycée Camus']);
    expect(await listPlatforms(deps(), colleague.id)).toEqual([]);
    // Another client id on the same platform is another registration.
    await registerPlatform(deps(), colleague.id, moodle({ client_id: 'z9' }));
    expect(await listPlatforms(deps(), colleague.id)).toHaveLength(1);
  });

  test('bad fields are each named, and nothing is stored', async () => {
    const refused = await refusal(
      registerPlatform(
        deps(),
        teacher.id,
        moodle({
          issuer: 'http://moodle.camus.example',
          client_id: '  ',
          deployment_ids: [],
          jwks_url: 'https://user:pw@moodle.camus.example/certs.php',
          auth_login_url: 'not a url',
        }),
      ),
    );
    expect(refused.code).toBe('invalid_input');
    expect(refused.fields.sort()).toEqual([
      'auth_login_url',
      'client_id',
      'deployment_ids',
      'issuer',
      'jwks_url',
    ]);
    expect(refused.message).toMatch(/issuer must be an https:\/\/ address/);
    const unknown = await refusal(
      registerPlatform(deps(), teacher.id, moodle({ client_id: 'new', colour: 'red' })),
    );
    expect(unknown.message).toMatch(/unknown fields: colour/);
    expect(await listPlatforms(deps(), teacher.id)).toHaveLength(1);
  });

  test('a platform on this machine may use http, for trying a local Moodle', async () => {
    const local = await registerPlatform(
      deps(),
      teacher.id,
      moodle({
        issuer: 'http://127.0.0.1:8080',
        auth_login_url: 'http://127.0.0.1:8080/mod/lti/auth.php',
        auth_token_url: 'http://localhost:8080/mod/lti/token.php',
        jwks_url: 'http://127.0.0.1:8080/mod/lti/certs.php',
      }),
    );
    expect(local.issuer).toBe('http://127.0.0.1:8080');
    await removePlatform(deps(), teacher.id, local.platform_id);
  });

  test("an owner removes their own platform; another's is not found", async () => {
    const [mine] = await listPlatforms(deps(), teacher.id);
    expect((await refusal(removePlatform(deps(), colleague.id, mine!.platform_id))).fields).toEqual([
      'platform_id',
    ]);
    await removePlatform(deps(), teacher.id, mine!.platform_id);
    expect(await listPlatforms(deps(), teacher.id)).toEqual([]);
  });

  test('the tool endpoints an administrator copies are under the base URL', () => {
    expect(toolEndpoints('https://quiz.example.com')).toEqual({
      login_url: 'https://quiz.example.com/lti/login',
      launch_url: 'https://quiz.example.com/lti/launch',
      redirect_urls: ['https://quiz.example.com/lti/launch'],
      deep_linking_url: 'https://quiz.example.com/lti/launch',
      jwks_url: 'https://quiz.example.com/lti/jwks',
    });
  });
});
