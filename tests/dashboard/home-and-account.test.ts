import request from 'supertest';
// The people-facing pages around the dashboard: the home page with "Connect your assistant",
// the owners' navigation, returnTo kept by every link of a consent's log-in, the overview,
// and the Account page (password change, account deletion).
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, connectClient, payload } from '../helpers/mcp-clients';
import {
  csrfFrom,
  errorSummaryText,
  logIn,
  newAgent,
  PASSWORD,
  signUp,
  squash,
  uniqueEmail,
} from './dashboard-helpers';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => {
  await app?.close();
});

/** The text of every `<code id="snippet-...">`, unescaped, by client id. */
function snippets(page: string): Record<string, string> {
  const found: Record<string, string> = {};
  for (const match of page.matchAll(/<code id="snippet-([a-z-]+)">([\s\S]*?)<\/code>/g)) {
    found[match[1]!] = match[2]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&amp;/g, '&');
  }
  return found;
}

describe('the home page', () => {
  test('signed out: what the service is, sign up and log in, and every client with this instance’s MCP URL', async () => {
    const res = await newAgent(app).get('/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const page = squash(res.text);
    expect(page).toContain('<h1>Quizzes made by your AI assistant</h1>');
    expect(page).toMatch(/<a class="button" href="\/signup">Sign up<\/a>/);
    expect(page).toMatch(/href="\/login">Log in<\/a>/);
    expect(page).toContain('Connect your assistant');

    const mcpUrl = `${app.baseUrl}/api/mcp`;
    const code = snippets(res.text);
    expect(Object.keys(code)).toEqual([
      'claude',
      'chatgpt',
      'claude-code',
      'vscode',
      'cursor',
      'mcp-remote',
      'curl',
    ]);
    expect(code.claude).toBe(mcpUrl);
    expect(code.chatgpt).toBe(mcpUrl);
    expect(code['claude-code']).toBe(`claude mcp add --transport http quiz ${mcpUrl}`);
    expect(JSON.parse(code.vscode!)).toEqual({ servers: { quiz: { type: 'http', url: mcpUrl } } });
    expect(JSON.parse(code.cursor!)).toEqual({ mcpServers: { quiz: { url: mcpUrl } } });
    expect(JSON.parse(code['mcp-remote']!)).toEqual({
      mcpServers: { quiz: { command: 'npx', args: ['-y', 'mcp-remote', mcpUrl] } },
    });
    expect(code.curl).toContain(`curl -sS ${mcpUrl} \\`);
    // Each snippet has its copy button (shown by the script; the page's CSP allows only files).
    expect(res.text.match(/data-copy-target="snippet-/g)).toHaveLength(7);
    expect(page).toContain('<script src="/assets/copy-button.js" defer>');
  });

  test('on a loopback or plain-HTTP address, Claude and ChatGPT say they need a public HTTPS URL; the local clients do not', async () => {
    const page = squash((await newAgent(app).get('/')).text);
    const section = (id: string) =>
      page.slice(
        page.indexOf(`id="connect-${id}"`),
        page.indexOf('</section>', page.indexOf(`id="connect-${id}"`)),
      );
    for (const id of ['claude', 'chatgpt']) {
      expect(section(id)).toContain('cannot reach');
      expect(section(id)).toContain('tunnel');
    }
    for (const id of ['claude-code', 'vscode', 'cursor', 'mcp-remote', 'curl']) {
      expect(section(id)).not.toContain('cannot reach');
    }
  });

  test('signed in: the way on is the dashboard, and the navigation has every owner page', async () => {
    const agent = newAgent(app);
    await signUp(agent);
    const page = squash((await agent.get('/')).text);
    expect(page).toContain('Go to your dashboard');
    expect(page).not.toMatch(/<a class="button" href="\/signup">/);
    const nav = page.slice(page.indexOf('<nav aria-label="Main">'), page.indexOf('</nav>'));
    const links = [...nav.matchAll(/<a (?:class="brand" )?href="([^"]+)"[^>]*>([^<]+)<\/a>/g)].map((m) => [
      m[1],
      m[2],
    ]);
    expect(links).toEqual([
      ['/', 'Quiz service'],
      ['/', 'Home'],
      ['/dashboard', 'Dashboard'],
      ['/dashboard/quizzes', 'Quizzes'],
      ['/settings/security/api-keys', 'API keys'],
      ['/settings/connected-apps', 'Connected apps'],
      ['/settings/webhooks', 'Webhooks'],
      ['/settings/lti', 'LTI'],
      ['/en/docs/api-reference', 'API docs'],
      ['/account', 'Account'],
    ]);
    expect(nav).toContain('Log out');
    // Every owner page carries the same navigation, and marks where you are.
    for (const [path, label] of [
      ['/dashboard', 'Dashboard'],
      ['/dashboard/quizzes', 'Quizzes'],
      ['/settings/security/api-keys', 'API keys'],
      ['/settings/connected-apps', 'Connected apps'],
      ['/settings/webhooks', 'Webhooks'],
      ['/settings/lti', 'LTI'],
      ['/account', 'Account'],
    ] as const) {
      const owner = squash((await agent.get(path)).text);
      expect(owner).toContain(`<a href="${path}" aria-current="page">${label}</a>`);
      expect(owner).toContain('<a href="/account"');
    }
  });

  test('respondent pages keep a minimal header, without the owners’ navigation', async () => {
    const owner = await createTestUser(app, 'respondent-view');
    const client = await connectClient(app, owner.apiKey);
    try {
      const quiz = payload<{ quiz_id: string; slug: string }>(
        await callTool(client, 'create_quiz', {
          title: 'Header check',
          questions: [{ type: 'yes_no', text: 'Ready?', points: 1 }],
        }),
      );
      await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id });
      const page = (await newAgent(app).get(`/q/${quiz.slug}`)).text;
      expect(page).toContain('Header check');
      expect(page).not.toContain('aria-label="Main"');
      expect(page).not.toContain('href="/dashboard"');
    } finally {
      await client.close();
    }
  });
});

describe('returnTo through a consent’s log-in', () => {
  const consent =
    '/oauth/authorize?response_type=code&client_id=abc&redirect_uri=https%3A%2F%2Fclient.example%2Fcb&state=s1';

  test('the log-in page’s header, its sign-up link and the sign-up page all keep it', async () => {
    const agent = newAgent(app);
    const expected = `returnTo=${encodeURIComponent(consent)}`;
    const login = (await agent.get(`/login?${expected}`)).text;
    expect(login).toContain(`href="/signup?${expected.replace(/&/g, '&amp;')}"`);
    const headerSignup = squash(login).match(/<span class="nav-account">(.*?)<\/span>/)![1]!;
    expect(headerSignup).toContain(`/signup?${expected.replace(/&/g, '&amp;')}`);
    const signup = (await agent.get(`/signup?${expected}`)).text;
    expect(signup).toContain(`value="${consent.replace(/&/g, '&amp;')}"`);
    expect(signup).toContain('continue connecting your AI assistant');
    expect(squash(signup)).toContain(`/login?${expected.replace(/&/g, '&amp;')}`);
  });

  test('a failed log-in keeps it, and a sign-up made in the middle of a consent returns there', async () => {
    const agent = newAgent(app);
    const email = uniqueEmail('mid-consent');
    const failed = await logIn(agent, email, 'not the password', { returnTo: consent });
    expect(failed.status).toBe(422);
    expect(failed.text).toContain(`name="returnTo" value="${consent.replace(/&/g, '&amp;')}"`);

    const signupPage = await agent.get(`/signup?returnTo=${encodeURIComponent(consent)}`);
    const res = await agent
      .post('/signup')
      .type('form')
      .send({ _csrf: csrfFrom(signupPage.text), email, password: PASSWORD, returnTo: consent });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(consent);
  });
});

describe('the dashboard overview', () => {
  test('counts quizzes and responses, shows the newest quizzes and links to all of them', async () => {
    const agent = newAgent(app);
    const { email } = await signUp(agent);
    const empty = squash((await agent.get('/dashboard')).text);
    expect(empty).toContain('<dt>Quizzes</dt><dd>0</dd>');
    expect(empty).toContain('You have no quizzes yet.');
    expect(empty).toContain('href="/#connect"');

    const user = await app.database.prisma.user.findUniqueOrThrow({ where: { email } });
    for (const title of ['One', 'Two']) {
      await app.database.prisma.quiz.create({
        data: {
          ownerId: user.id,
          title,
          titleKey: title.toLowerCase(),
          slug: `${title.toLowerCase()}-${user.id}`,
        },
      });
    }
    const page = squash((await agent.get('/dashboard')).text);
    expect(page).toContain('<dt>Quizzes</dt><dd>2</dd>');
    expect(page).toContain('<dt>Published</dt><dd>0</dd>');
    expect(page).toContain('<dt>Responses</dt><dd>0</dd>');
    expect(page).toContain('All your quizzes →');
    // Links to older pages made before the list moved still lead to it.
    const old = await agent.get('/dashboard?after=abc');
    expect(old.status).toBe(301);
    expect(old.headers.location).toBe('/dashboard/quizzes?after=abc');
  });
});

describe('the dashboard overview as a class answers', () => {
  test("quizzes open now and the latest responses, the owner's only, newest first", async () => {
    const owner = await createTestUser(app, 'overview');
    const other = await createTestUser(app, 'overview-other');
    const client = await connectClient(app, owner.apiKey);
    const otherClient = await connectClient(app, other.apiKey);
    const publish = async (who: typeof client, title: string) => {
      const quiz = payload(
        await callTool(who, 'create_quiz', {
          title,
          questions: [{ type: 'yes_no', text: 'Ready?', points: 1 }],
          settings: { collect_name: true },
        }),
      );
      await callTool(who, 'publish_quiz', { quiz_id: quiz.quiz_id });
      return quiz;
    };
    const open = await publish(client, 'Open right now');
    const closed = await publish(client, 'Closed already');
    await callTool(client, 'update_quiz', {
      quiz_id: closed.quiz_id,
      confirm_edit_published: true,
      settings: { accepting_responses: false },
    });
    const foreign = await publish(otherClient, 'Someone else’s quiz');
    const answer = (quiz: Record<string, any>, name: string) =>
      request(app.app)
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({
          respondent: { name },
          answers: [{ question_id: quiz.questions[0].question_id, answer: 'yes' }],
        });
    await answer(open, 'Ada <b>');
    await answer(open, 'Grace');
    await answer(foreign, 'Not yours');

    const agent = newAgent(app);
    expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
    const page = squash((await agent.get('/dashboard')).text);
    const openSection = page.slice(
      page.indexOf('<h2>Open now</h2>'),
      page.indexOf('<h2>Latest responses</h2>'),
    );
    expect(openSection).toContain('Open right now');
    expect(openSection).not.toContain('Closed already');
    const recent = page.slice(
      page.indexOf('<h2>Latest responses</h2>'),
      page.indexOf('<h2>Newest quizzes</h2>'),
    );
    expect(recent.indexOf('Grace')).toBeLessThan(recent.indexOf('Ada &lt;b&gt;'));
    expect(recent).toContain('scored 1 of 1');
    expect(page).not.toContain('Not yours');
    expect(page).not.toContain('Someone else’s quiz');
    await client.close();
    await otherClient.close();
  });
});

describe('the Account page', () => {
  test('a password change asks for the current one, signs out every other session, and keeps this one', async () => {
    const here = newAgent(app);
    const elsewhere = newAgent(app);
    const { email } = await signUp(here);
    expect((await logIn(elsewhere, email, PASSWORD)).status).toBe(303);
    expect((await elsewhere.get('/dashboard')).status).toBe(200);

    const page = await here.get('/account');
    expect(page.status).toBe(200);
    const wrong = await here
      .post('/account/password')
      .type('form')
      .send({
        _csrf: csrfFrom(page.text),
        current_password: 'not it at all',
        new_password: 'a whole new password',
      });
    expect(wrong.status).toBe(422);
    expect(errorSummaryText(wrong.text)).toContain('is not your current password');
    const short = await here
      .post('/account/password')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), current_password: PASSWORD, new_password: 'short' });
    expect(short.status).toBe(422);
    expect(errorSummaryText(short.text)).toContain('Use a password of 10 to 200 characters');
    expect((await elsewhere.get('/dashboard')).status).toBe(200); // nothing changed yet

    const changed = await here
      .post('/account/password')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), current_password: PASSWORD, new_password: 'a whole new password' });
    expect(changed.status).toBe(303);
    expect((await here.get('/account')).text).toContain('1 other browser was logged out');
    expect((await here.get('/dashboard')).status).toBe(200);
    const away = await elsewhere.get('/dashboard');
    expect(away.status).toBe(303);
    expect(away.headers.location).toMatch(/^\/login/);
    expect((await logIn(newAgent(app), email, PASSWORD)).status).toBe(422);
    expect((await logIn(newAgent(app), email, 'a whole new password')).status).toBe(303);
  });

  test('deleting the account says what goes, asks for the password, then removes everything', async () => {
    const agent = newAgent(app);
    const { email } = await signUp(agent);
    const user = await app.database.prisma.user.findUniqueOrThrow({ where: { email } });
    await app.database.prisma.quiz.create({
      data: { ownerId: user.id, title: 'Doomed', titleKey: 'doomed', slug: `doomed-${user.id}` },
    });
    const page = await agent.get('/account');
    expect(squash(page.text)).toMatch(/1 quiz, with their public pages and 0 responses/);
    const refused = await agent
      .post('/account/delete')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), password: 'wrong password here' });
    expect(refused.status).toBe(422);
    expect(await app.database.prisma.user.count({ where: { id: user.id } })).toBe(1);

    const done = await agent
      .post('/account/delete')
      .type('form')
      .send({ _csrf: csrfFrom(page.text), password: PASSWORD });
    expect(done.status).toBe(303);
    expect(done.headers.location).toBe('/');
    expect((await agent.get('/')).text).toContain('Your account and everything in it are deleted.');
    expect(await app.database.prisma.user.count({ where: { id: user.id } })).toBe(0);
    expect(await app.database.prisma.quiz.count({ where: { ownerId: user.id } })).toBe(0);
    expect((await agent.get('/dashboard')).status).toBe(303);
  });

  test('the log-in page says whom to ask about a forgotten password', async () => {
    expect(squash((await newAgent(app).get('/login')).text)).toContain('users set-password');
  });
});
