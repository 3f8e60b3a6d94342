// Settings > Learning platforms (LTI), through the dashboard's own forms on both databases: the
// list, a registration by hand (good, refused fields shown beside their fields as typed, an issuer
// and client id already registered), removal after a page that asks (another owner's refused),
// and a Dynamic Registration URL shown once, its token neither in the database in clear nor logged.
import { registerPlatform } from '../../src/domain/lti/platforms';
import { registrationTokenHash } from '../../src/domain/lti/registration-links';
import { createLogger } from '../../src/logger';
import { memoryLog } from '../helpers/memory-log';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { csrfFrom, errorSummaryText, logIn, newAgent, squash, type Agent } from './dashboard-helpers';

const PATH = '/settings/lti';
const REGISTRATION_URL = /https?:\/\/[^"<\s]+\/lti\/register\/([A-Za-z0-9_-]{43})/;

const moodle = (n: string) => ({
  name: `Moodle ${n}`,
  issuer: `https://moodle-${n}.example.org`,
  client_id: `client-${n}`,
  deployment_ids: '1\n2',
  auth_login_url: `https://moodle-${n}.example.org/mod/lti/auth.php`,
  auth_token_url: `https://moodle-${n}.example.org/mod/lti/token.php`,
  jwks_url: `https://moodle-${n}.example.org/mod/lti/certs.php`,
});

describeEachDatabase('Settings > Learning platforms (LTI)', (provider) => {
  let app: TestApp;
  const log = memoryLog();
  beforeAll(async () => {
    app = await startTestApp({ provider, logger: createLogger('trace', log.stream) });
  });
  afterAll(() => app.close());

  async function loggedIn(): Promise<{ agent: Agent; id: string }> {
    const user = await createTestUser(app, 'lti-page');
    const agent = newAgent(app);
    expect((await logIn(agent, user.email, user.password)).status).toBe(303);
    return { agent, id: user.id };
  }

  async function post(agent: Agent, action: string, fields: Record<string, string> = {}) {
    const token = csrfFrom((await agent.get(PATH)).text);
    return agent
      .post(action)
      .type('form')
      .send({ _csrf: token, ...fields });
  }

  test('needs a login; lists nothing at first, with the tool’s URLs to copy', async () => {
    expect((await newAgent(app).get(PATH)).status).toBe(303);
    const { agent } = await loggedIn();
    const page = squash((await agent.get(PATH)).text);
    expect(page).toContain('<h1>Learning platforms (LTI)</h1>');
    expect(page).toContain('You have no learning platforms registered.');
    expect(page).toContain('aria-current="page">LTI</a>');
    for (const path of ['/lti/login', '/lti/launch', '/lti/jwks'])
      expect(page).toContain(`${app.baseUrl}${path}</code>`);
  });

  test('registering by hand lists the platform; refused fields come back as typed, each beside its field, nothing stored', async () => {
    const { agent, id } = await loggedIn();
    const bad = await post(agent, `${PATH}/platforms`, {
      ...moodle('bad'),
      name: '',
      issuer: 'http://moodle.example.org',
      deployment_ids: ' \n ',
    });
    expect(bad.status).toBe(422);
    const summary = errorSummaryText(bad.text);
    expect(summary).toMatch(/Name is missing/);
    expect(summary).toMatch(/Issuer \(platform ID\) must be an https:\/\/ address/);
    expect(summary).toMatch(/Deployment IDs: at least one/);
    const page = squash(bad.text);
    expect(page).toContain('<a href="#issuer">');
    expect(page).toMatch(/<p class="field-error" id="issuer-error">.*must be an https:\/\/ address/);
    expect(page).toMatch(
      /id="issuer" name="issuer" type="text" value="http:\/\/moodle.example.org"[^>]*aria-invalid="true"/,
    );
    expect(page).toContain('value="client-bad"');
    expect(page).not.toMatch(/id="client_id"[^>]*aria-invalid/);
    expect(await app.database.prisma.ltiPlatform.count({ where: { ownerId: id } })).toBe(0);

    const good = await post(agent, `${PATH}/platforms`, moodle('good'));
    expect(good.status).toBe(303);
    const listed = squash((await agent.get(PATH)).text);
    expect(listed).toContain('The platform “Moodle good” is registered.');
    expect(listed).toContain('https://moodle-good.example.org</code>');
    expect(listed).toContain('<code>1</code>, <code>2</code>');
    expect(listed).toMatch(/By hand, /);
    // Forged (no form token): refused, nothing stored.
    const forged = await agent.post(`${PATH}/platforms`).type('form').send(moodle('forged'));
    expect(forged.status).toBe(403);
    expect(await app.database.prisma.ltiPlatform.count({ where: { ownerId: id } })).toBe(1);
  });

  test('an issuer and client id registered already, by anyone, is refused with its message beside Client ID', async () => {
    const other = await createTestUser(app, 'lti-other');
    await registerPlatform(app.deps, other.id, { ...moodle('taken'), deployment_ids: ['1'] });
    const { agent, id } = await loggedIn();
    const taken = await post(agent, `${PATH}/platforms`, { ...moodle('taken'), name: 'Mine too' });
    expect(taken.status).toBe(422);
    expect(errorSummaryText(taken.text)).toMatch(/This issuer and client id are registered already/);
    expect(squash(taken.text)).toMatch(/<p class="field-error" id="client_id-error">.*registered already/);
    expect(taken.text).toContain('value="Mine too"');
    expect(await app.database.prisma.ltiPlatform.count({ where: { ownerId: id } })).toBe(0);
  });

  test('remove asks first, then removes the own platform; another owner’s is refused and stays', async () => {
    const other = await createTestUser(app, 'lti-other');
    const theirs = await registerPlatform(app.deps, other.id, { ...moodle('theirs'), deployment_ids: ['1'] });
    const { agent, id } = await loggedIn();
    await post(agent, `${PATH}/platforms`, moodle('mine'));
    const mine = (await app.database.prisma.ltiPlatform.findFirst({ where: { ownerId: id } }))!;

    const asked = await post(agent, `${PATH}/${mine.id}/remove`);
    expect(asked.status).toBe(200);
    expect(squash(asked.text)).toContain('<h1 class="long-text">Remove “Moodle mine”?</h1>');
    expect(asked.text).toContain('name="confirm" value="yes"');
    expect(await app.database.prisma.ltiPlatform.count({ where: { id: mine.id } })).toBe(1);
    const removed = await post(agent, `${PATH}/${mine.id}/remove`, { confirm: 'yes' });
    expect(removed.status).toBe(303);
    const after = squash((await agent.get(PATH)).text);
    expect(after).toContain('The platform “Moodle mine” is removed');
    expect(after).toContain('You have no learning platforms registered.');
    expect(await app.database.prisma.ltiPlatform.count({ where: { id: mine.id } })).toBe(0);

    const refused = await post(agent, `${PATH}/${theirs.platform_id}/remove`, { confirm: 'yes' });
    expect(refused.status).toBe(303);
    expect(squash((await agent.get(PATH)).text)).toContain('That platform is not in your account');
    expect(await app.database.prisma.ltiPlatform.count({ where: { id: theirs.platform_id } })).toBe(1);
  });

  test('a registration URL is shown once with its expiry and the steps; its token is kept only hashed and never logged', async () => {
    const { agent, id } = await loggedIn();
    const made = await post(agent, `${PATH}/registration-url`);
    expect(made.status).toBe(303);
    expect(made.headers.location).toBe(PATH);
    expect(made.text).not.toMatch(REGISTRATION_URL);
    const shown = await agent.get(PATH);
    const match = REGISTRATION_URL.exec(shown.text);
    expect(match?.[0].startsWith(`${app.baseUrl}/lti/register/`)).toBe(true);
    const token = match![1]!;
    const page = squash(shown.text);
    expect(page).toContain('It works once, until');
    expect(page).toContain('<strong>Tool URL</strong>');
    expect(page).toContain('<strong>Add LTI Advantage</strong>');
    expect(page).toContain('Not tried here yet');
    expect(shown.headers['cache-control']).toBe('no-store');
    // A reload shows it no more.
    expect((await agent.get(PATH)).text).not.toMatch(REGISTRATION_URL);

    const rows = await app.database.prisma.ltiRegistrationLink.findMany({ where: { ownerId: id } });
    expect(rows.map((row) => row.tokenHash)).toEqual([registrationTokenHash(token)]);
    expect(JSON.stringify(rows)).not.toContain(token);
    const sessions = await app.database.prisma.session.findMany();
    expect(JSON.stringify(sessions)).not.toContain(token);
    expect(log.lines().length).toBeGreaterThan(3);
    expect(JSON.stringify(log.lines())).not.toContain(token);
    // Forged: no address made.
    expect((await agent.post(`${PATH}/registration-url`).type('form').send({})).status).toBe(403);
    expect(await app.database.prisma.ltiRegistrationLink.count({ where: { ownerId: id } })).toBe(1);
  });
});
