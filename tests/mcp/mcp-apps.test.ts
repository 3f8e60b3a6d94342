// The MCP Apps view on the wire: the five tools that have a view link to it (both metadata
// keys), the resource is listed and read with the extension's MIME type and a CSP that allows
// no network, and nothing a client without the extension sees changes: the same tool names,
// schemas and results whether or not a client announces the extension, in both eras.
import { QUIZ_APP_URI } from '../../src/mcp/apps/quiz-app-resource';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { CLIENT_KINDS, connectAnyClient, type AnyClient } from '../helpers/mcp-clients';

const WITH_VIEW = ['create_quiz', 'get_quiz_questions', 'update_quiz', 'get_results', 'list_quizzes'];

let app: TestApp;
let credential: string;
beforeAll(async () => {
  app = await startTestApp();
  credential = (await createTestUser(app, 'apps')).apiKey;
});
afterAll(async () => {
  await app?.close();
});

describe.each(CLIENT_KINDS)('%s', (kind) => {
  let client: AnyClient;
  beforeAll(async () => {
    client = await connectAnyClient(kind, app.baseUrl, credential);
  });
  afterAll(async () => {
    await client?.close();
  });

  test('the tools with a view link to it, under both keys; the others carry no link', async () => {
    const { tools } = await client.listTools();
    for (const tool of tools) {
      if (WITH_VIEW.includes(tool.name)) {
        expect([tool.name, tool._meta]).toEqual([
          tool.name,
          expect.objectContaining({ ui: { resourceUri: QUIZ_APP_URI }, 'ui/resourceUri': QUIZ_APP_URI }),
        ]);
      } else {
        expect([tool.name, tool._meta?.ui]).toEqual([tool.name, undefined]);
      }
    }
    expect(
      tools
        .filter((tool) => tool._meta?.ui)
        .map((tool) => tool.name)
        .sort(),
    ).toEqual([...WITH_VIEW].sort());
  });

  test('the view is listed and read as a self-contained MCP App page that fetches nothing', async () => {
    const { resources } = await client.listResources();
    // Beside the skill's SKILL.md (tests/mcp/skills.test.ts).
    expect(resources).toEqual([
      expect.objectContaining({ uri: QUIZ_APP_URI, mimeType: 'text/html;profile=mcp-app' }),
      expect.objectContaining({ uri: 'skill://writing-good-quizzes/SKILL.md', mimeType: 'text/markdown' }),
    ]);
    const { contents } = await client.readResource(QUIZ_APP_URI);
    expect(contents).toHaveLength(1);
    const [page] = contents;
    expect(page).toMatchObject({ uri: QUIZ_APP_URI, mimeType: 'text/html;profile=mcp-app' });
    // Pictures of questions come from our origin, and nothing else is reached.
    expect(page!._meta).toMatchObject({
      ui: { csp: { connectDomains: [], resourceDomains: [new URL(app.baseUrl).origin] } },
    });
    expect(page!.text).toMatch(/^<!doctype html>/);
    // Self-contained: no script, style or image from anywhere else.
    expect(page!.text).not.toMatch(/<script[^>]+src=|<link[^>]+href=|<img[^>]+src="http/);
  });
});

describe('a client that announces the extension sees exactly what one without it sees', () => {
  test.each(CLIENT_KINDS)('%s: tool names, schemas and results', async (kind) => {
    const plain = await connectAnyClient(kind, app.baseUrl, credential);
    const apps = await connectAnyClient(kind, app.baseUrl, credential, { announceApps: true });
    try {
      expect(await apps.listTools()).toEqual(await plain.listTools());
      const created = await plain.callTool('create_quiz', {
        title: `Same for all ${kind}`,
        questions: [{ type: 'yes_no', text: 'Same?', points: 1 }],
      });
      const quizId = created.structuredContent!.quiz_id as string;
      for (const [name, args] of [
        ['get_quiz_questions', { quiz_id: quizId }],
        ['get_results', { quiz_id: quizId }],
      ] as const) {
        expect(await apps.callTool(name, args)).toEqual(await plain.callTool(name, args));
      }
    } finally {
      await plain.close();
      await apps.close();
    }
  });
});
