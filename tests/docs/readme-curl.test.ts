// The README's curl examples, run as written (only the base URL is this test's service):
// each one must get a successful answer, and both protocol eras must be among them.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createTestUser, sseMessages, startTestApp, type TestApp } from '../helpers/test-app';

const README = fs.readFileSync(path.resolve(__dirname, '..', '..', 'README.md'), 'utf8');
const README_BASE = 'http://localhost:3000';

/** The ```sh blocks of the README that call the MCP endpoint with curl. */
function curlBlocks(): string[] {
  return [...README.matchAll(/```sh\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .filter((block) => block.startsWith(`curl -s ${README_BASE}/api/mcp`));
}

function runBash(script: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'bash',
      ['-e', '-o', 'pipefail', '-c', script],
      { env: { ...process.env, ...env }, timeout: 20_000 },
      (error, stdout, stderr) => (error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout)),
    );
  });
}

/** The JSON-RPC answer in an SSE body or a JSON body; or the tool payload a pipeline printed. */
function answerOf(output: string): any {
  if (/^event: message$/m.test(output)) return sseMessages(output)[0];
  return JSON.parse(output);
}

describe('README curl examples', () => {
  let app: TestApp;
  let key: string;
  const blocks = curlBlocks();

  beforeAll(async () => {
    app = await startTestApp();
    key = (await createTestUser(app, 'readme')).apiKey;
  });
  afterAll(async () => {
    await app.close();
  });

  test('the README shows a curl call of each protocol era', () => {
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    expect(blocks.filter((block) => block.includes('MCP-Protocol-Version: 2026-07-28'))).toHaveLength(1);
    expect(blocks.filter((block) => !block.includes('MCP-Protocol-Version')).length).toBeGreaterThanOrEqual(
      2,
    );
  });

  test.each(curlBlocks().map((block, i) => [i + 1, block.split('\n')[0]!, block] as const))(
    'block %i (%s ...) answers as the README says',
    async (_n, _first, block) => {
      const output = await runBash(block.replaceAll(README_BASE, app.baseUrl), { KEY: key });
      const answer = answerOf(output);
      if ('jsonrpc' in answer) {
        expect(answer.error).toBeUndefined();
        expect(answer.result.isError).toBeUndefined();
        expect(JSON.parse(answer.result.content[0].text)).toEqual(answer.result.structuredContent);
      } else {
        // A pipeline that prints the tool's payload itself.
        expect(answer).toHaveProperty('quizzes');
      }
    },
  );
});
