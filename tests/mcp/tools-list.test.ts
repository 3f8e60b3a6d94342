// The public contract as clients see it. A change to any tool's name, title, description,
// schema or annotations changes this snapshot: update it deliberately (`npx jest -u`),
// bump TOOLSET_VERSION and note it in CHANGELOG.md.
import { createTestUser, SPEC_TOOLS, startTestApp, type TestApp } from '../helpers/test-app';
import { connectClient, ERAS, forEachEra, type AnyClient } from '../helpers/mcp-clients';

describe('tools/list', () => {
  let app: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    app = await startTestApp();
    apiKey = (await createTestUser(app)).apiKey;
  });
  afterAll(async () => {
    await app.close();
  });

  forEachEra((era) => {
    let client: AnyClient;
    beforeAll(async () => {
      client = await era.connect(app, apiKey);
    });
    afterAll(async () => {
      await client.close();
    });

    test('lists the eight tools of the spec, in order', async () => {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(SPEC_TOOLS);
    });

    test('every tool has a title, annotations, an input schema that refuses unknown fields, and an output schema', async () => {
      const { tools } = await client.listTools();
      for (const tool of tools) {
        expect(tool.title).toEqual(expect.any(String));
        expect(tool.annotations).toEqual({
          title: tool.title,
          readOnlyHint: expect.any(Boolean),
          destructiveHint: expect.any(Boolean),
          idempotentHint: expect.any(Boolean),
          openWorldHint: false,
        });
        expect(tool.inputSchema).toMatchObject({ type: 'object', additionalProperties: false });
        expect(tool.outputSchema).toMatchObject({ type: 'object' });
      }
      const destructive = tools.filter((tool) => tool.annotations?.destructiveHint).map((tool) => tool.name);
      expect(destructive.sort()).toEqual(['delete_quiz', 'update_quiz']);
    });

    test('spec arguments are named exactly as in the spec', async () => {
      const { tools } = await client.listTools();
      const props = Object.fromEntries(
        tools.map((tool) => [tool.name, Object.keys(tool.inputSchema.properties ?? {})]),
      );
      expect(props.create_quiz).toEqual(expect.arrayContaining(['title', 'questions']));
      expect(props.update_quiz).toEqual(
        expect.arrayContaining(['quiz_id', 'questions', 'confirm_edit_published']),
      );
      expect(props.delete_quiz).toEqual(expect.arrayContaining(['quiz_id', 'confirm']));
      for (const name of ['get_quiz_questions', 'get_quiz_settings', 'publish_quiz', 'get_results']) {
        expect(props[name]).toContain('quiz_id');
      }
      expect(tools.find((tool) => tool.name === 'create_quiz')?.inputSchema.required).toEqual(['title']);
    });
  });

  // The snapshot is the 2025 wire (v1's Client, as most deployed assistants read it); the
  // 2026-07-28 era must list exactly the same.
  test('matches the committed snapshot', async () => {
    const client = await connectClient(app, apiKey);
    try {
      expect(await client.listTools()).toMatchSnapshot();
    } finally {
      await client.close();
    }
  });

  test('both eras list the same tools', async () => {
    const [modern, legacy] = await Promise.all(ERAS.map((era) => era.connect(app, apiKey)));
    try {
      expect((await modern!.listTools()).tools).toEqual((await legacy!.listTools()).tools);
    } finally {
      await Promise.all([modern!.close(), legacy!.close()]);
    }
  });
});
