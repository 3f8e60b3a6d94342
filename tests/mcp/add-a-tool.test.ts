// Adding a tool is one file and one line in the list (docs/architecture.md, "How to add a
// tool"): a throwaway tool, served by this test alone, appears everywhere the tools are
// described, in both protocol eras. And a production build serves exactly the spec's eight.
import { execFileSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import request from 'supertest';
import { TOOLS } from '../../src/mcp/tools';
import { freePort, MAIN, spawnService, stopService, waitForLine } from '../helpers/service-process';
import { createTestUser, DEFAULT_TOOLS, SPEC_TOOLS, startTestApp, type TestApp } from '../helpers/test-app';
import { errorText, forEachEra, payload } from '../helpers/mcp-clients';
import { throwawayTool } from './fixtures/throwaway-tool';

/** The tool names each surface that describes the tools shows. */
async function describedTools(target: TestApp['app'] | string) {
  const reference = await request(target).get('/en/docs/api-reference').expect(200);
  const openapi = await request(target).get('/openapi.json').expect(200);
  return {
    reference: [...reference.text.matchAll(/<section id="tool-([a-z_]+)">/g)].map((match) => match[1]),
    openapi: (openapi.body['x-mcp-tools'] as Array<{ name: string }>).map((tool) => tool.name),
  };
}

describe('a tool defined in one file', () => {
  let app: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    app = await startTestApp({ tools: [...TOOLS, throwawayTool] });
    apiKey = (await createTestUser(app, 'throwaway')).apiKey;
  });
  afterAll(async () => {
    await app.close();
  });

  forEachEra((era) => {
    test('is listed with its contract and view link, and called with checked arguments', async () => {
      const client = await era.connect(app, apiKey);
      try {
        const { tools } = await client.listTools();
        expect(tools.map((tool) => tool.name)).toEqual([...DEFAULT_TOOLS, 'count_letters']);
        expect(tools.find((tool) => tool.name === 'count_letters')).toMatchObject({
          title: 'Count letters',
          description: 'Test-only: counts the letters of a word.',
          annotations: { title: 'Count letters', readOnlyHint: true },
          inputSchema: { type: 'object', required: ['word'], additionalProperties: false },
          outputSchema: { type: 'object', properties: { word: {}, letters: {} } },
          _meta: { ui: { resourceUri: expect.stringMatching(/^ui:\/\//) } },
        });
        expect(payload(await client.callTool('count_letters', { word: 'quiz' }))).toEqual({
          word: 'quiz',
          letters: 4,
        });
        expect(errorText(await client.callTool('count_letters', { word: '' }))).toContain(
          'word must not be empty',
        );
      } finally {
        await client.close();
      }
    });
  });

  test('the API reference and /openapi.json describe it after the spec tools', async () => {
    const described = await describedTools(app.app);
    expect(described).toEqual({
      reference: [...SPEC_TOOLS, 'count_letters'],
      openapi: [...SPEC_TOOLS, 'count_letters'],
    });
    const reference = await request(app.app).get('/en/docs/api-reference');
    const section = /<section id="tool-count_letters">[\s\S]*?<\/section>/.exec(reference.text)?.[0];
    expect(section).toContain('Test-only: counts the letters of a word.');
    expect(section).toContain('Read-only (scope quizzes:read).');
    expect(section).toContain('The word whose letters to count.');
  });
});

describe('a production build', () => {
  test('createApp without tools given serves exactly the eight spec tools', async () => {
    const app = await startTestApp();
    try {
      expect(await describedTools(app.app)).toEqual({ reference: SPEC_TOOLS, openapi: SPEC_TOOLS });
    } finally {
      await app.close();
    }
  });

  describe('the built service (dist/, as `npm start` runs it)', () => {
    let dir: string;
    let child: ChildProcess;
    let baseUrl: string;
    let apiKey: string;

    // dist/ is built by Jest's globalSetup (tests/setup/build-once.ts).
    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quiz-eight-tools-'));
      const env = { DATABASE_URL: `file:${path.join(dir, 'quiz.db')}` };
      const cli = (...args: string[]) =>
        execFileSync(process.execPath, [path.join(path.dirname(MAIN), 'cli', 'main.js'), ...args], {
          cwd: dir,
          env: { PATH: process.env.PATH ?? '', HOME: dir, ...env },
        })
          .toString()
          .trim();
      cli('users', 'create', '--email', 'eight@example.com', '--password', 'eight-tools-password');
      apiKey = cli('keys', 'create', '--email', 'eight@example.com', '--name', 'eight');
      const port = await freePort();
      baseUrl = `http://127.0.0.1:${port}`;
      child = spawnService({ ...env, PORT: String(port), BASE_URL: baseUrl, LOG_LEVEL: 'info' }, dir);
      await waitForLine(child, /quiz service listening/);
    });
    afterAll(async () => {
      if (child) await stopService(child);
      if (dir) await fs.promises.rm(dir, { recursive: true, force: true });
    });

    forEachEra((era) => {
      test('tools/list shows exactly the eight', async () => {
        const client = await era.connect({ baseUrl }, apiKey);
        try {
          expect((await client.listTools()).tools.map((tool) => tool.name)).toEqual(DEFAULT_TOOLS);
        } finally {
          await client.close();
        }
      });
    });

    test('the API reference and /openapi.json describe exactly the eight', async () => {
      expect(await describedTools(baseUrl)).toEqual({ reference: SPEC_TOOLS, openapi: SPEC_TOOLS });
    });
  });
});
