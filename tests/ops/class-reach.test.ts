// A class reaches the quiz: the service started as the README's "Let your class in" says
// listens beyond loopback, answers at the address it names, and its QR code decodes to that
// address; on a loopback base URL the start-up banner and the share panel say what to set.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import request from 'supertest';
import { loadConfig, testConfig } from '../../src/config';
import { classReachHint, isLoopbackUrl, lanAddress } from '../../src/http/class-reach';
import { startupBanner } from '../../src/startup-banner';
import { csrfFrom, squash } from '../dashboard/dashboard-helpers';
import { eventually } from '../helpers/eventually';
import { freePort, spawnService, stopService, waitForLine } from '../helpers/service-process';
import { createTestUser, startTestApp, toolCall } from '../helpers/test-app';

const ROOT = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const CLI = path.join(ROOT, 'dist/src/cli/main.js');
/** The LAN address the README's example uses; the test puts this machine's own in its place. */
const README_LAN = '192.168.1.20';

/** The `NAME=value` settings before `npm start` in the README's block marked `sh class-lan`. */
function readmeLanSettings(): Record<string, string> {
  const block = /```sh class-lan\n([\s\S]*?)```/.exec(README)?.[1];
  if (!block) throw new Error('the README has no ```sh class-lan block');
  const line = block.split('\n').find((l) => l.trim().endsWith('npm start'))!;
  return Object.fromEntries(
    line
      .replace(/\s*npm start$/, '')
      .trim()
      .split(/\s+/)
      .map((pair) => pair.split('=', 2) as [string, string]),
  );
}

function runCli(args: string[], databaseUrl: string, input?: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { cwd: ROOT, env: { PATH: process.env.PATH ?? '', DATABASE_URL: databaseUrl } },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
    child.stdin!.end(input ?? '');
  });
}

describe('HOST', () => {
  test('stays on loopback in development and listens on every interface in production', () => {
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'test' }).host).toBe('127.0.0.1');
    expect(loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32) }).host).toBe('0.0.0.0');
    expect(
      loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 'x'.repeat(32), HOST: '10.0.0.5' }).host,
    ).toBe('10.0.0.5');
  });

  test('the README production example listens beyond loopback and checks its own host', () => {
    const block = /## Run in production[\s\S]*?```sh\n([\s\S]*?)```/.exec(README)?.[1];
    expect(block).toBeDefined();
    const env = Object.fromEntries(
      [...block!.matchAll(/^([A-Z_]+)=(.*?)\s*\\?$/gm)].map((m) => [
        m[1],
        // A command or a variable of the shell ("$QUIZ_SESSION_SECRET") stands for a secret.
        m[2]!.replace(/^"?\$.*$/, 'x'.repeat(48)),
      ]),
    );
    const config = loadConfig(env);
    expect(config.host).toBe('0.0.0.0');
    expect(config.enforceHost).toBe(true);
    expect(config.allowedHosts).toContain(new URL(config.baseUrl).host);
    expect(config.trustProxy).not.toBe(false); // the proxy's addresses, so limits count students
  });
});

describe('a loopback base URL says what to set', () => {
  test('the rule: loopback names are loopback, a LAN address or a public host is not', () => {
    for (const url of [
      'http://localhost:3000',
      'http://127.0.0.1:4000',
      'http://[::1]:3000',
      'http://app.localhost',
    ]) {
      expect([url, isLoopbackUrl(url)]).toEqual([url, true]);
    }
    for (const url of ['http://192.168.1.20:3000', 'https://quiz.example.com', 'http://[fd00::2]:3000']) {
      expect([url, isLoopbackUrl(url)]).toEqual([url, false]);
    }
    expect(lanAddress({ lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true } as never] })).toBe(
      undefined,
    );
    expect(
      lanAddress({
        lo: [{ address: '127.0.0.1', family: 'IPv4', internal: true } as never],
        wlan0: [
          { address: '169.254.3.4', family: 'IPv4', internal: false } as never,
          { address: '192.168.1.20', family: 'IPv4', internal: false } as never,
        ],
      }),
    ).toBe('192.168.1.20');
  });

  test('the start-up banner names the settings, with this machine’s address, and nothing on a LAN address', () => {
    const local = testConfig({ baseUrl: 'http://localhost:3000', port: 3000 });
    const banner = startupBanner(local, {
      colour: false,
      reach: classReachHint(local, { address: '192.168.1.20' }),
    });
    expect(banner).toContain('Only this computer can open these links: they name http://localhost:3000.');
    expect(banner).toContain('start with: HOST=0.0.0.0 BASE_URL=http://192.168.1.20:3000 npm start');
    const other = testConfig({ baseUrl: 'http://localhost:4000', port: 4000 });
    expect(
      startupBanner(other, { colour: false, reach: classReachHint(other, { address: undefined }) }),
    ).toContain('start with: PORT=4000 HOST=0.0.0.0 BASE_URL=http://<this machine’s address>:4000 npm start');
    const lan = testConfig({ baseUrl: 'http://192.168.1.20:3000', port: 3000 });
    expect(startupBanner(lan, { colour: false })).not.toContain('Only this computer');
  });

  test('the share panel warns on a loopback link and not on a reachable one', async () => {
    for (const [baseUrl, warned] of [
      ['http://localhost:3000', true],
      ['http://192.168.1.20:3000', false],
    ] as const) {
      const app = await startTestApp({ config: { baseUrl } });
      try {
        const user = await createTestUser(app);
        const created = await request(app.app)
          .post('/api/mcp')
          .set('Authorization', `Bearer ${user.apiKey}`)
          .set('Accept', 'application/json')
          .send(toolCall('create_quiz', { title: 'Reach', questions: [{ type: 'yes_no', text: 'Here?' }] }));
        const quizId = created.body.result.structuredContent.quiz_id as string;
        await request(app.app)
          .post('/api/mcp')
          .set('Authorization', `Bearer ${user.apiKey}`)
          .set('Accept', 'application/json')
          .send(toolCall('publish_quiz', { quiz_id: quizId }))
          .expect(200);
        const agent = request.agent(app.app);
        const login = await agent.get('/login');
        await agent
          .post('/login')
          .type('form')
          .send({ _csrf: csrfFrom(login.text), email: user.email, password: user.password })
          .expect(303);
        const page = squash((await agent.get(`/dashboard/quizzes/${quizId}`).expect(200)).text);
        if (warned) {
          expect(page).toContain(
            '<strong>Only this computer can open this link and its QR code:</strong> they name <code>http://localhost:3000</code>.',
          );
          expect(page).toMatch(
            /restart the service with <code>HOST=0\.0\.0\.0 BASE_URL=http:\/\/[^<]+:3000<\/code>/,
          );
        } else {
          expect(page).not.toContain('Only this computer');
        }
      } finally {
        await app.close();
      }
    }
  });
});

describe('the service started as "Let your class in" says', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-class-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  test('listens beyond loopback, answers at the address it names, and its QR code decodes to it', async () => {
    const settings = readmeLanSettings();
    expect(settings.HOST).toBe('0.0.0.0');
    expect(settings.BASE_URL).toBe(`http://${README_LAN}:3000`);
    const port = await freePort();
    // This machine's own LAN address; on a machine with loopback alone, the bound address is checked.
    const address = lanAddress();
    const reachable = address ?? '127.0.0.1';
    const base = `http://${reachable}:${port}`;
    const databaseUrl = `file:${dir}/quiz.db`;
    const child = spawnService(
      {
        ...settings,
        BASE_URL: settings.BASE_URL!.replace(README_LAN, reachable).replace(':3000', `:${port}`),
        PORT: String(port),
        DATABASE_URL: databaseUrl,
        LOG_LEVEL: 'info',
      },
      dir,
    );
    let stderr = '';
    child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      const line = JSON.parse(await waitForLine(child, /quiz service listening/));
      expect(line.listen).toBe(`0.0.0.0:${port}`);
      expect(line.url).toBe(base);
      await eventually(() => stderr.includes('Ctrl+C'), { timeoutMs: 2_000 });
      expect(stderr).toContain(`Home          ${base}/`);
      expect(stderr).not.toContain('Only this computer');

      const email = 'teacher@example.com';
      await runCli(['users', 'create', '--email', email], databaseUrl, 'a long password\n');
      const key = (await runCli(['keys', 'create', '--email', email, '--name', 'lan'], databaseUrl)).trim();
      const mcp = async (name: string, args: Record<string, unknown>) => {
        const res = await fetch(`${base}/api/mcp`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${key}`,
            'Content-Type': 'application/json',
            Accept: 'application/json',
          },
          body: JSON.stringify(toolCall(name, args)),
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { result: { structuredContent: Record<string, unknown> } }).result
          .structuredContent;
      };
      const created = await mcp('create_quiz', {
        title: 'Class check',
        questions: [{ type: 'yes_no', text: 'Can you read this?' }],
      });
      const published = await mcp('publish_quiz', { quiz_id: created.quiz_id });
      const publicUrl = published.public_url as string;
      expect(publicUrl).toBe(`${base}/q/${created.slug as string}`);

      // What a student's phone opens: the public page at that address.
      const page = await fetch(publicUrl);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Can you read this?');

      const agent = request.agent(base);
      const login = await agent.get('/login').expect(200);
      await agent
        .post('/login')
        .type('form')
        .send({ _csrf: csrfFrom(login.text), email, password: 'a long password' })
        .expect(303);
      const png = await agent.get(`/dashboard/quizzes/${created.quiz_id as string}/qr.png`).buffer(true);
      expect(png.status).toBe(200);
      const image = PNG.sync.read(png.body as Buffer);
      expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(publicUrl);
    } finally {
      await stopService(child);
    }
  }, 120_000);
});
