// The operator CLI as a newcomer runs it: build, then the real command in a
// child process with only DATABASE_URL set; exit codes, stdout and stderr exactly as scripts use them.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/database';
import { onlyMessage, postMcp } from '../helpers/http';
import { DEFAULT_TOOLS, startTestApp } from '../helpers/test-app';
import { logIn, newAgent } from '../dashboard/dashboard-helpers';

const ROOT = path.resolve(__dirname, '../..');
const CLI = path.join(ROOT, 'dist/src/cli/main.js');

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

describe('the built CLI in a child process', () => {
  let dir: string;
  let databaseUrl: string;

  // dist/ is built by Jest's globalSetup (tests/setup/build-once.ts).
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-cli-'));
    databaseUrl = `file:${path.join(dir, 'cli.db')}`;
  });
  afterAll(async () => {
    if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
  });

  /** Runs the CLI with the environment a newcomer has: PATH, HOME and DATABASE_URL. */
  function cli(...args: string[]): Promise<Outcome> {
    return cliWithInput(undefined, ...args);
  }

  /** The same, with `input` piped on standard input (as `printf %s "$PW" | npm run cli ...`). */
  function cliWithInput(input: string | undefined, ...args: string[]): Promise<Outcome> {
    return new Promise((resolve) => {
      const env = { PATH: process.env.PATH ?? '', HOME: dir, DATABASE_URL: databaseUrl };
      const child = execFile(
        process.execPath,
        [CLI, ...args],
        { cwd: dir, env, timeout: 30_000 },
        (error, stdout, stderr) => {
          resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
        },
      );
      child.stdin!.end(input ?? '');
    });
  }

  test('users create, then keys create prints exactly the key and a newline; the key works on /api/mcp', async () => {
    const created = await cli(
      'users',
      'create',
      '--email',
      'newcomer@example.com',
      '--password',
      'a long enough password',
    );
    expect(created).toEqual({
      code: 0,
      stdout: expect.stringMatching(/^\S+ newcomer@example\.com\n$/),
      stderr: '',
    });

    const key = await cli('keys', 'create', '--email', 'newcomer@example.com', '--name', 'laptop');
    expect(key).toEqual({ code: 0, stdout: expect.stringMatching(/^svc_[0-9A-Za-z]{43}\n$/), stderr: '' });

    const listed = await cli('keys', 'list', '--email', 'newcomer@example.com');
    expect(listed.code).toBe(0);
    expect(listed.stderr).toBe('');
    expect(listed.stdout).toContain(`${key.stdout.slice(0, 8)}...${key.stdout.trim().slice(-4)}`);
    expect(listed.stdout).not.toContain(key.stdout.trim());

    // The service started on the same database file accepts the key.
    const database = await openDatabase(databaseUrl);
    const app = await startTestApp({ database: { ...database, drop: () => database.close() } });
    try {
      const res = await postMcp(app, {
        credential: key.stdout.trim(),
        body: { jsonrpc: '2.0', id: 1, method: 'tools/list' },
      });
      expect(res.status).toBe(200);
      expect(onlyMessage(res.text).result.tools).toHaveLength(DEFAULT_TOOLS.length);

      // Revoked by another process while the service has just used the key: the service's next
      // request is refused (what it remembers of the key goes once any connection writes).
      const again = () =>
        postMcp(app, {
          credential: key.stdout.trim(),
          body: { jsonrpc: '2.0', id: 2, method: 'tools/list' },
        });
      expect((await again()).status).toBe(200);
      const keyId = listed.stdout.split('\t')[0]!;
      expect(await cli('keys', 'revoke', '--email', 'newcomer@example.com', '--id', keyId)).toEqual({
        code: 0,
        stdout: `revoked ${keyId}\n`,
        stderr: '',
      });
      expect((await again()).status).toBe(401);
    } finally {
      await app.close();
      await database.close();
    }
  });

  test('invalid input reads as the CLI speaks: each field and what to fix, on one line', async () => {
    const outcome = await cli('users', 'create', '--email', 'not-an-email', '--password', 'short');
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toBe(
      'error: cannot create the user: email: Enter an email address such as name@example.com; ' +
        'password: Use a password of 10 to 200 characters (any characters, spaces too; a few unrelated words make a strong one)\n',
    );
  });

  test('a failure exits 1 with one line on stderr saying why, and nothing on stdout', async () => {
    const outcome = await cli('keys', 'create', '--email', 'nobody@example.com', '--name', 'x');
    expect(outcome).toEqual({
      code: 1,
      stdout: '',
      stderr: 'error: No user with the email nobody@example.com.\n',
    });
  });

  test('a bad invocation exits non-zero and the first line on stderr says what is wrong', async () => {
    for (const [args, reason] of [
      [['keys', 'frobnicate'], 'error: unknown command "keys frobnicate"'],
      [['keys', 'create', '--email', 'newcomer@example.com'], 'error: missing --name'],
      [
        ['keys', 'list', '--email', 'newcomer@example.com', '--verbose'],
        'error: unknown option --verbose (add',
      ],
      [['keys', 'list', '--email'], 'error: --email needs a value (add'],
    ] as const) {
      const outcome = await cli(...args);
      expect(outcome.code).not.toBe(0);
      expect(outcome.stdout).toBe('');
      expect(outcome.stderr.split('\n')[0]).toMatch(
        new RegExp(`^${reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
    }
  });

  test('--help works on every command, prints to stdout and needs no database', async () => {
    const general = await cli('--help');
    expect(general.code).toBe(0);
    expect(general.stderr).toBe('');
    for (const command of ['users create', 'users set-password', 'keys create', 'keys list', 'keys revoke']) {
      expect(general.stdout).toContain(command);
      const one = await cli(...command.split(' '), '--help');
      expect(one).toMatchObject({ code: 0, stderr: '' });
      expect(one.stdout).toMatch(new RegExp(`^Usage: npm run --silent cli -- ${command} `));
    }
    expect((await cli('users', 'set-password', '--help')).stdout).toContain('10 to 200 characters');
    expect((await cli()).stdout).toContain('Usage:');
    // With a database that cannot be reached, help still answers at once: it opens nothing.
    const unreachable = await new Promise<Outcome>((resolve) => {
      const env = {
        PATH: process.env.PATH ?? '',
        HOME: dir,
        DATABASE_URL: 'postgresql://nobody@127.0.0.1:1/none',
      };
      execFile(
        process.execPath,
        [CLI, 'keys', 'list', '--help'],
        { cwd: dir, env, timeout: 30_000 },
        (error, stdout, stderr) =>
          resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr }),
      );
    });
    expect(unreachable).toMatchObject({ code: 0, stderr: '' });
  });

  test('users set-password reads the password from standard input, never the command line; the owner logs in with it', async () => {
    const email = 'forgetful@example.com';
    expect((await cli('users', 'create', '--email', email, '--password', 'the first password')).code).toBe(0);

    const refused = await cli('users', 'set-password', '--email', email, '--password', 'on the command line');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^error: set-password takes no --password/);

    const short = await cliWithInput('short\n', 'users', 'set-password', '--email', email);
    expect(short.code).toBe(1);
    expect(short.stderr).toContain('Use a password of 10 to 200 characters');

    const set = await cliWithInput('a brand new password\n', 'users', 'set-password', '--email', email);
    expect(set).toEqual({
      code: 0,
      stdout: `password set for ${email}; 0 session(s) logged out\n`,
      stderr: '',
    });

    // users create takes its password the same way when --password is left out.
    const piped = await cliWithInput(
      'piped in password\n',
      'users',
      'create',
      '--email',
      'piped@example.com',
    );
    expect(piped.code).toBe(0);

    const database = await openDatabase(databaseUrl, { migrate: false });
    const app = await startTestApp({ database: { ...database, drop: async () => undefined } });
    try {
      const agent = newAgent(app);
      expect((await logIn(agent, email, 'the first password')).status).toBe(422);
      const res = await logIn(agent, email, 'a brand new password');
      expect(res.status).toBe(303);
      expect((await agent.get('/account')).text).toContain(email);
      expect((await logIn(newAgent(app), 'piped@example.com', 'piped in password')).status).toBe(303);
    } finally {
      await app.close();
      await database.close();
    }
  });
});
