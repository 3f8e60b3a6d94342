/**
 * `npm run screenshots`: the README's pictures of the dashboard, taken from the current pages.
 * Starts the built service on a scratch SQLite database (node dist/src/main.js), makes an
 * account and a key with the operator CLI, a quiz and a few responses through the API, then
 * photographs the pages in Chromium (playwright-core, CHROMIUM_PATH or /usr/bin/chromium) into
 * docs/images/. Then the in-chat view (mcp-app-*.png): the MCP Apps host of the browser tests
 * (tests/apps/host-page.ts, the extension's own AppBridge) renders the view in a sandboxed frame
 * with real tool results, as an assistant's host does.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { chromium, type Browser, type Page } from 'playwright-core';

const ROOT = path.resolve(__dirname, '..', '..');
const MAIN = path.join(ROOT, 'dist', 'src', 'main.js');
const CLI = path.join(ROOT, 'dist', 'src', 'cli', 'main.js');
const IMAGES = path.join(ROOT, 'docs', 'images');
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const EMAIL = 'teacher@example.com';
const PASSWORD = 'a long password for pictures';
/** The links in the pictures name a classroom address, as the README's "Let your class in" has it. */
const LAN = '192.168.1.20';

/** The browser tests' MCP Apps host page, bundled for the browser. */
function hostScript(): string {
  const built = esbuild.buildSync({
    entryPoints: [path.join(ROOT, 'tests', 'apps', 'host-page.ts')],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    write: false,
  });
  return built.outputFiles[0]!.text.replace(/<\/script/gi, '<\\/script');
}

type Mcp = (method: string, params: unknown) => Promise<unknown>;

/**
 * The in-chat view as a host shows it beside a tool's answer: the view's resource read over MCP,
 * drawn in the host page's sandboxed frame and handed the tool's real result.
 */
async function photographView(
  browser: Browser,
  mcp: Mcp,
  shot: { name: string; tool: string; args: Record<string, unknown>; heading: string },
  width: number,
  theme: 'light' | 'dark',
  script: string,
): Promise<void> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, colorScheme: theme });
  try {
    const page = await context.newPage();
    // The host page relays the view's requests: the service rightly refuses a foreign Origin.
    await page.exposeFunction('relayMcp', mcp);
    await page.setContent(
      `<!doctype html><html><body style="margin:0"><div id="host"></div><script>${script}</script></body></html>`,
    );
    await page.evaluate(
      ([name, input, mode]) =>
        (globalThis as unknown as { showTool: (...a: unknown[]) => Promise<void> }).showTool(
          name,
          input,
          mode,
        ),
      [shot.tool, shot.args, theme] as const,
    );
    const frame = page.frameLocator('iframe[title="Quiz service view"]');
    await frame.getByRole('heading', { name: shot.heading }).waitFor();
    const file = path.join(IMAGES, `${shot.name}.png`);
    // The frame alone, as it sits in the conversation, without the host page's margin.
    await page.locator('iframe[title="Quiz service view"]').screenshot({ path: file });
    console.log(`wrote ${path.relative(ROOT, file)}`);
  } finally {
    await context.close();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

async function waitUntilUp(base: string): Promise<void> {
  for (let i = 0; i < 300; i += 1) {
    try {
      if ((await fetch(`${base}/healthz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`the service did not answer at ${base}/healthz`);
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-screenshots-'));
  const port = await freePort();
  const local = `http://127.0.0.1:${port}`;
  const env = {
    PATH: process.env.PATH ?? '',
    PORT: String(port),
    BASE_URL: `http://${LAN}:${port}`,
    DATABASE_URL: `file:${dir}/quiz.db`,
    LOG_LEVEL: 'warn',
    NO_COLOR: '1',
  };
  const service = spawn(process.execPath, [MAIN], { cwd: dir, env, stdio: ['ignore', 'ignore', 'inherit'] });
  try {
    await waitUntilUp(local);
    execFileSync(process.execPath, [CLI, 'users', 'create', '--email', EMAIL, '--if-missing'], {
      env,
      input: `${PASSWORD}\n`,
      stdio: ['pipe', 'ignore', 'inherit'],
    });
    const key = execFileSync(
      process.execPath,
      [CLI, 'keys', 'create', '--email', EMAIL, '--name', 'pictures'],
      {
        env,
        encoding: 'utf8',
      },
    ).trim();
    /** One MCP request, as a stateless client sends it; its result, or a thrown error. */
    const mcp: Mcp = async (method, params) => {
      const res = await fetch(`${local}/api/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${key}`,
          'Content-Type': 'application/json',
          Accept: 'application/json',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      const body = (await res.json()) as { result?: unknown; error?: unknown };
      if (body.result === undefined) throw new Error(`${method} failed: ${JSON.stringify(body)}`);
      return body.result;
    };
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = (await mcp('tools/call', { name, arguments: args })) as {
        structuredContent?: Record<string, any>;
        isError?: boolean;
      };
      if (result.isError) throw new Error(`${name} failed: ${JSON.stringify(result)}`);
      return result.structuredContent!;
    };
    const questions = [
      {
        type: 'yes_no',
        text: 'Is the Sun a star?',
        correct_answer: 'yes',
        explanation: 'A G-type main-sequence star.',
      },
      {
        type: 'multiple_choice',
        text: 'Which planet is closest to the Sun?',
        options: [
          { label: 'Mercury', score: 1 },
          { label: 'Venus', score: 0 },
          { label: 'Mars', score: 0 },
        ],
      },
      { type: 'short_text', text: 'Name the red planet.', accepted_answers: ['Mars'], points: 2 },
      { type: 'number', text: 'How many planets orbit the Sun?', correct_number: 8 },
    ];
    const draft = await call('create_quiz', { title: 'The Solar System (draft)', questions });
    const quiz = await call('create_quiz', {
      title: 'The Solar System',
      description: 'Ten minutes, before Friday’s lesson.',
      questions,
      settings: { pass_mark_percent: 60, show_correct_answers: 'after_submit' },
    });
    const published = await call('publish_quiz', { quiz_id: quiz.quiz_id });
    const ids = (published.questions ?? quiz.questions).map((q: { question_id: string }) => q.question_id);
    const answers = [
      ['yes', 0, 'Mars', 8],
      ['yes', 1, 'mars', 8],
      ['no', 0, 'Jupiter', 9],
      ['yes', 0, 'Mars', 7],
      ['yes', 2, 'Mars', 8],
    ];
    for (const [i, [yes, option, text, number]] of answers.entries()) {
      const res = await fetch(`${local}/api/quizzes/${quiz.slug as string}/responses`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({
          respondent: { name: `Student ${i + 1}` },
          answers: [
            { question_id: ids[0], answer: yes },
            { question_id: ids[1], option_index: option },
            { question_id: ids[2], text },
            { question_id: ids[3], number },
          ],
        }),
      });
      if (!res.ok) throw new Error(`submission ${i + 1}: ${res.status} ${await res.text()}`);
    }

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    try {
      const context = await browser.newContext({
        viewport: { width: 1280, height: 900 },
        colorScheme: 'light',
      });
      const page = await context.newPage();
      await page.goto(`${local}/login`);
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.waitForURL(/\/dashboard/);
      const shot = async (target: Page, name: string, clip?: { height: number }) => {
        const file = path.join(IMAGES, `${name}.png`);
        await target.screenshot(
          clip
            ? { path: file, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: clip.height } }
            : { path: file },
        );
        console.log(`wrote ${path.relative(ROOT, file)}`);
      };
      await page.goto(`${local}/dashboard/quizzes/${draft.quiz_id as string}/edit`);
      await shot(page, 'dashboard-quiz-editor', { height: 1800 });
      await page.goto(`${local}/dashboard/quizzes/${quiz.quiz_id as string}`);
      await shot(page, 'dashboard-share-panel', { height: 1100 });

      const script = hostScript();
      const views = [
        {
          name: 'mcp-app-preview',
          tool: 'get_quiz_questions',
          args: { quiz_id: draft.quiz_id },
          heading: 'The Solar System (draft)',
        },
        {
          name: 'mcp-app-results',
          tool: 'get_results',
          args: { quiz_id: quiz.quiz_id, limit: 5 },
          heading: 'The Solar System',
        },
      ];
      for (const view of views) await photographView(browser, mcp, view, 1024, 'light', script);
      const list = { name: 'mcp-app-list-dark', tool: 'list_quizzes', args: {}, heading: 'Your quizzes' };
      await photographView(browser, mcp, list, 360, 'dark', script);
    } finally {
      await browser.close();
    }
  } finally {
    service.kill('SIGTERM');
    await new Promise((resolve) => service.once('exit', resolve));
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
