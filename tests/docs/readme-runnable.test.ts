// The README's runnable blocks (```sh runnable), run in order in one shell as a newcomer would
// paste them, against a started service and its database: only the base URL is this test's.
// Each block must succeed; each curl call must get a successful tool answer; both protocol
// eras must be among them. The whole walkthrough runs twice, as a person who comes back to it
// would: nothing in it may depend on a first run.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sseMessages, startTestApp, type TestApp } from '../helpers/test-app';

const ROOT = path.resolve(__dirname, '..', '..');
const README = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const README_BASE = 'http://localhost:3000';
const END = '@@@ end of README block @@@';

const blocks = [...README.matchAll(/```sh runnable\n([\s\S]*?)```/g)].map((match) => match[1]!);

/** The JSON-RPC answer in an SSE body or a JSON body; or the tool payload a pipeline printed. */
function answerOf(output: string): any {
  if (/^event: message$/m.test(output)) return sseMessages(output)[0];
  return JSON.parse(output);
}

describe('README runnable blocks', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  test('the README marks its first steps runnable: the address once, the CLI, publishing, a curl call of each era', () => {
    expect(blocks[0]).toMatch(new RegExp(`^BASE=${README_BASE}\n`));
    expect(blocks[0]).toContain('npm run --silent cli -- users create');
    // The password comes on standard input, never as an argument (it would show in `ps`).
    expect(blocks[0]).not.toContain('--password');
    const curls = blocks.filter((block) => block.startsWith('curl -s "$BASE/api/mcp"'));
    expect(curls.length).toBeGreaterThanOrEqual(4);
    // Every address comes from BASE, so one line changes them all.
    expect(blocks.slice(1).join('\n')).not.toContain(README_BASE);
    expect(curls.filter((block) => block.includes('MCP-Protocol-Version: 2026-07-28'))).toHaveLength(1);
    expect(curls.filter((block) => block.includes('"name":"publish_quiz"'))).toHaveLength(1);
  });

  test('every runnable block, in order in one shell, succeeds as the README says, twice', async () => {
    const once = blocks
      .map((block) => `${block.replaceAll(README_BASE, app.baseUrl)}\necho; echo '${END}'`)
      .join('\n');
    const script = `${once}\n${once}`;
    const output = await new Promise<string>((resolve, reject) => {
      execFile(
        'bash',
        ['-e', '-o', 'pipefail', '-c', script],
        {
          cwd: ROOT,
          // The newcomer's shell: the CLI reaches the service's database through DATABASE_URL.
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: app.database.url },
          timeout: 150_000,
        },
        (error, stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stdout}\n${stderr}`)) : resolve(stdout),
      );
    });
    const outputs = output.split(`${END}\n`).slice(0, 2 * blocks.length);
    expect(outputs).toHaveLength(2 * blocks.length);
    for (const [index, block] of [...blocks, ...blocks].entries()) {
      if (!block.startsWith('curl')) continue;
      const answer = answerOf(outputs[index]!.trim());
      if ('jsonrpc' in answer) {
        expect([index, answer.error]).toEqual([index, undefined]);
        expect(answer.result.isError).toBeUndefined();
        expect(JSON.parse(answer.result.content[0].text)).toEqual(answer.result.structuredContent);
      } else {
        expect(answer).toHaveProperty('quizzes'); // a pipeline that prints the tool's payload itself
      }
    }
  }, 180_000);
});
