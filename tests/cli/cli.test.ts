// The operator CLI, in process through run(): what each command prints,
// the errors it gives, and that the keys it makes and revokes hold on /api/mcp.
import { randomBytes } from 'node:crypto';
import request from 'supertest';
import { run } from '../../src/cli/main';
import { DomainError } from '../../src/domain/errors';
import { onlyMessage, postMcp } from '../helpers/http';
import { DEFAULT_TOOLS, startTestApp, type TestApp } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { eventually } from '../helpers/eventually';
import { callTool, connectClient, payload } from '../helpers/mcp-clients';

const KEY_SHAPE = /^svc_[0-9A-Za-z]{43}$/;
const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

describe('quiz CLI commands', () => {
  let database: TestDatabase;
  let app: TestApp;

  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    // The app serves the same database the CLI writes to, as in production.
    app = await startTestApp({ database });
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  /** Runs one command; resolves to the lines it printed on stdout (piped, unless `toTerminal`). */
  async function cli(...argv: string[]): Promise<string[]> {
    return cliOn({ toTerminal: false }, ...argv);
  }
  async function cliOn({ toTerminal }: { toTerminal: boolean }, ...argv: string[]): Promise<string[]> {
    const lines: string[] = [];
    await run(argv, database, {
      out: (line) => lines.push(line),
      readPassword: () => Promise.reject(new Error('no password prompt expected here')),
      toTerminal,
    });
    return lines;
  }

  const newEmail = (label: string) => `${label}-${randomBytes(5).toString('hex')}@example.com`;

  /** Creates a user with the CLI (split positionals, as a shell passes them). */
  async function createUser(label: string): Promise<string> {
    const email = newEmail(label);
    await cli('users', 'create', '--email', email, '--password', 'correct horse battery');
    return email;
  }

  const listTools = (credential: string) => postMcp(app, { credential, body: TOOLS_LIST });

  test('users create prints the new user; the same email again (any case) fails with a clear DomainError', async () => {
    const email = newEmail('create');
    const printed = await cli('users', 'create', '--email', email, '--password', 'correct horse battery');
    expect(printed).toHaveLength(1);
    expect(printed[0]!.split(' ')).toEqual([expect.stringMatching(/^\S+$/), email]);

    const again = cli(
      'users',
      'create',
      '--email',
      email.toUpperCase(),
      '--password',
      'another long password',
    );
    await expect(again).rejects.toBeInstanceOf(DomainError);
    await expect(again).rejects.toMatchObject({
      code: 'user_exists',
      message: `A user with the email ${email} already exists.`,
    });
  });

  test('users create --if-missing runs twice: the account is made once and its password kept', async () => {
    const email = newEmail('twice');
    const first = await cli(
      'users',
      'create',
      '--email',
      email,
      '--if-missing',
      '--password',
      'correct horse battery',
    );
    const second = await cli(
      'users',
      'create',
      '--email',
      email,
      '--if-missing',
      '--password',
      'another long password',
    );
    expect(second).toEqual(first);
    // The first password still logs in; the second was not set.
    const login = async (password: string) => {
      const agent = request.agent(app.app);
      const page = await agent.get('/login');
      const csrf = /name="_csrf" value="([^"]+)"/.exec(page.text)![1];
      return (await agent.post('/login').type('form').send({ _csrf: csrf, email, password })).status;
    };
    expect(await login('correct horse battery')).toBe(303);
    expect(await login('another long password')).toBe(422);
    // Other refusals are still refusals.
    await expect(
      cli('users', 'create', '--email', newEmail('short'), '--if-missing', '--password', 'short'),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });

  test('users create with a short password says what the password needs', async () => {
    await expect(
      cli('users', 'create', '--email', newEmail('short'), '--password', 'short'),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/password: Use a password of 10 to 200 characters/),
    });
  });

  test('keys create prints the key alone, and that key works on /api/mcp', async () => {
    const email = await createUser('keys');
    const printed = await cli('keys', 'create', '--email', email, '--name', 'laptop');
    expect(printed).toHaveLength(1);
    expect(printed[0]).toMatch(KEY_SHAPE);

    const res = await listTools(printed[0]!);
    expect(res.status).toBe(200);
    expect(onlyMessage(res.text).result.tools).toHaveLength(DEFAULT_TOOLS.length);
  });

  test('keys list on a terminal starts with a header row; piped, it prints the keys alone', async () => {
    const email = await createUser('header');
    expect(await cliOn({ toTerminal: true }, 'keys', 'list', '--email', email)).toEqual([
      `no active keys for ${email}`,
    ]);
    expect(await cli('keys', 'list', '--email', email)).toEqual([]);
    await cli('keys', 'create', '--email', email, '--name', 'Laptop');
    const shown = await cliOn({ toTerminal: true }, 'keys', 'list', '--email', email);
    expect(shown[0]).toBe('ID\tKEY\tNAME\tCREATED\tLAST USED');
    expect(shown).toHaveLength(2);
    expect(shown[1]!.split('\t')).toHaveLength(5);
    expect(await cli('keys', 'list', '--email', email)).toEqual([shown[1]]);
  });

  test('keys list shows each key by id, prefix...last4 and name, never the full key', async () => {
    const email = await createUser('list');
    const [key] = await cli('keys', 'create', '--email', email, '--name', 'CI runner');
    const listed = await cli('keys', 'list', '--email', email);
    expect(listed).toHaveLength(1);
    const [id, shown, name, created, lastUsed] = listed[0]!.split('\t');
    expect(id).toMatch(/^\S+$/);
    expect(shown).toBe(`${key!.slice(0, 8)}...${key!.slice(-4)}`);
    expect(name).toBe('"CI runner"');
    expect(Date.parse(created!)).not.toBeNaN();
    expect(lastUsed).toBe('never');
    expect(listed.join('\n')).not.toContain(key!.slice(8, -4));
  });

  test('keys list shows when a key was last used', async () => {
    const email = await createUser('used');
    const [key] = await cli('keys', 'create', '--email', email, '--name', 'script');
    expect((await listTools(key!)).status).toBe(200);
    const lastUsed = await eventually(
      async () => (await cli('keys', 'list', '--email', email))[0]!.split('\t')[4]!,
      { until: (value) => value !== 'never', timeoutMs: 3_000 },
    );
    expect(Date.parse(lastUsed)).not.toBeNaN();
  });

  test('keys revoke makes the very next request with that key 401; revoking it again says it is not active', async () => {
    const email = await createUser('revoke');
    const [key] = await cli('keys', 'create', '--email', email, '--name', 'old laptop');
    expect((await listTools(key!)).status).toBe(200);
    const [id] = (await cli('keys', 'list', '--email', email))[0]!.split('\t');

    expect(await cli('keys', 'revoke', '--email', email, '--id', id!)).toEqual([`revoked ${id}`]);
    const refused = await listTools(key!);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe('invalid_token');
    expect(await cli('keys', 'list', '--email', email)).toEqual([]);
    await expect(cli('keys', 'revoke', '--email', email, '--id', id!)).rejects.toMatchObject({
      code: 'key_not_found',
    });
  });

  test('keys revoke cannot touch another user’s key', async () => {
    const owner = await createUser('owner');
    const other = await createUser('other');
    const [key] = await cli('keys', 'create', '--email', owner, '--name', 'mine');
    const [id] = (await cli('keys', 'list', '--email', owner))[0]!.split('\t');
    await expect(cli('keys', 'revoke', '--email', other, '--id', id!)).rejects.toMatchObject({
      code: 'key_not_found',
      message: `No active API key with the id ${id} belongs to this user.`,
    });
    expect((await listTools(key!)).status).toBe(200);
  });

  test('the 11th active key is refused with a message saying to revoke one; after a revocation it works', async () => {
    const email = await createUser('limit');
    for (let i = 1; i <= 10; i += 1) await cli('keys', 'create', '--email', email, '--name', `key ${i}`);
    const eleventh = cli('keys', 'create', '--email', email, '--name', 'key 11');
    await expect(eleventh).rejects.toBeInstanceOf(DomainError);
    await expect(eleventh).rejects.toMatchObject({
      code: 'key_limit_reached',
      message: expect.stringMatching(/already have 10 API keys.*Revoke one/),
    });
    const listed = await cli('keys', 'list', '--email', email);
    expect(listed).toHaveLength(10);

    await cli('keys', 'revoke', '--email', email, '--id', listed[0]!.split('\t')[0]!);
    expect(await cli('keys', 'create', '--email', email, '--name', 'key 11')).toEqual([
      expect.stringMatching(KEY_SHAPE),
    ]);
  });

  test('an unknown user gives a clear error naming the email, for every keys command', async () => {
    const email = newEmail('nobody');
    for (const argv of [
      ['keys', 'create', '--email', email, '--name', 'x'],
      ['keys', 'list', '--email', email],
      ['keys', 'revoke', '--email', email, '--id', 'whatever'],
    ]) {
      await expect(cli(...argv)).rejects.toMatchObject({
        code: 'user_not_found',
        message: `No user with the email ${email}.`,
      });
    }
  });

  test('an unknown or missing command says so', async () => {
    await expect(cli('keys', 'frobnicate')).rejects.toThrow('unknown command "keys frobnicate"');
    await expect(cli()).rejects.toThrow('no command given');
  });

  test('a missing option names the option; an unknown option is refused', async () => {
    const email = await createUser('options');
    await expect(cli('keys', 'create', '--email', email)).rejects.toThrow('missing --name');
    await expect(cli('keys', 'create', '--name', 'laptop')).rejects.toThrow('missing --email');
    await expect(cli('keys', 'create', '--email', email, '--name', '')).rejects.toThrow('missing --name');
    // Without --password, users create asks for it (here: the prompt the test refuses).
    await expect(cli('users', 'create', '--email', newEmail('nopw'))).rejects.toThrow(
      'no password prompt expected',
    );
    await expect(cli('keys', 'list', '--email', email, '--verbose')).rejects.toMatchObject({
      code: 'ERR_PARSE_ARGS_UNKNOWN_OPTION',
      message: expect.stringContaining('--verbose'),
    });
    expect(await cli('keys', 'list', '--email', email)).toEqual([]);
  });

  test('results recompute rebuilds lost running figures from the responses; an unknown quiz is named', async () => {
    const email = await createUser('figures');
    const key = (await cli('keys', 'create', '--email', email, '--name', 'figures'))[0]!;
    const client = await connectClient(app, key);
    const call = async (name: string, args: Record<string, unknown>) =>
      payload(await callTool(client, name, args));
    const created = await call('create_quiz', {
      title: 'Figures',
      questions: [{ type: 'yes_no', text: 'Yes?', points: 1 }],
    });
    await call('publish_quiz', { quiz_id: created.quiz_id });
    for (const answer of ['yes', 'no', 'yes']) {
      await request(app.app)
        .post(`/api/quizzes/${created.slug}/responses`)
        .send({
          respondent: { name: 'R' },
          answers: [{ question_id: created.questions[0].question_id, answer }],
        })
        .expect(201);
    }
    const { responses } = database.repos;
    const kept = await responses.figures(created.quiz_id);
    expect(kept.scores.reduce((sum, row) => sum + row.count, 0)).toBe(3);
    // Lost, as after a restore of the responses alone.
    await database.prisma.resultScore.deleteMany({ where: { quizId: created.quiz_id } });
    await database.prisma.resultItem.deleteMany({ where: { quizId: created.quiz_id } });
    expect((await responses.figures(created.quiz_id)).scores).toEqual([]);

    expect(await cli('results', 'recompute', '--quiz', created.quiz_id)).toEqual([
      'recomputed the results of 1 quiz(zes)',
    ]);
    const order = (rows: object[]) => rows.map((row) => JSON.stringify(row)).sort();
    const rebuilt = await responses.figures(created.quiz_id);
    expect(order(rebuilt.scores)).toEqual(order(kept.scores));
    expect(order(rebuilt.items)).toEqual(order(kept.items));
    expect((await cli('results', 'recompute'))[0]).toMatch(/^recomputed the results of \d+ quiz\(zes\)$/);
    await expect(cli('results', 'recompute', '--quiz', 'no-such-quiz')).rejects.toThrow(
      'There is no quiz with id "no-such-quiz".',
    );
    await client.close();
  });
});
