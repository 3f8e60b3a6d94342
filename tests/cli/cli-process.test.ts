// The operator CLI as a newcomer runs it: build, then the real command in a
// child process with only DATABASE_URL set; exit codes, stdout and stderr exactly as scripts use them.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openDatabase } from '../../src/db/database';
import { onlyMessage, postMcp } from '../helpers/http';
import { startTestApp } from '../helpers/test-app';

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
    return new Promise((resolve) => {
      const env = { PATH: process.env.PATH ?? '', HOME: dir, DATABASE_URL: databaseUrl };
      execFile(
        process.execPath,
        [CLI, ...args],
        { cwd: dir, env, timeout: 30_000 },
        (error, stdout, stderr) => {
          resolve({ code: error ? ((error as { code?: number }).code ?? null) : 0, stdout, stderr });
        },
      );
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
      expect(onlyMessage(res.text).result.tools).toHaveLength(8);

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
      [['keys', 'list', '--email', 'newcomer@example.com', '--verbose'], "error: Unknown option '--verbose'"],
    ] as const) {
      const outcome = await cli(...args);
      expect(outcome.code).not.toBe(0);
      expect(outcome.stdout).toBe('');
      expect(outcome.stderr.split('\n')[0]).toMatch(
        new RegExp(`^${reason.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
    }
  });
});
