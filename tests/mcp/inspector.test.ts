// The MCP Inspector 2.x CLI against the running service, in both protocol eras: tools/list with
// its --strict schema-portability check (no finding on any schema), a tools/call,
// a prompt and a quiz read as a resource: the README's Inspector commands.
import { inspectorNodeVersion, runInspector } from '../helpers/inspector';
import { describeWithTool } from '../helpers/tool-folders';
import { createTestUser, DEFAULT_TOOLS, SPEC_TOOLS, startTestApp, type TestApp } from '../helpers/test-app';
import { skillFiles } from '../../src/mcp/skills/writing-good-quizzes';

describeWithTool('inspector', 'MCP Inspector CLI', () => {
  let app: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    app = await startTestApp();
    apiKey = (await createTestUser(app, 'inspector')).apiKey;
  });
  afterAll(async () => {
    await app.close();
  });

  test('runs on Node 22.19 or later (on Node 20 it fails quietly)', () => {
    const [major = 0, minor = 0] = inspectorNodeVersion();
    expect(major > 22 || (major === 22 && minor >= 19)).toBe(true);
  });

  const connection = () => [
    `${app.baseUrl}/api/mcp`,
    '--transport',
    'http',
    '--header',
    `Authorization: Bearer ${apiKey}`,
  ];

  test.each([
    ['legacy', ''],
    ['modern', ''],
    ['legacy', '?toolsets=all'],
    ['modern', '?toolsets=all'],
  ])('%s era, /api/mcp%s: tools/list passes --strict with no finding', async (era, query) => {
    const [url, ...rest] = connection();
    const run = await runInspector([
      `${url}${query}`,
      ...rest,
      '--protocol-era',
      era,
      '--method',
      'tools/list',
      '--strict',
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    // No finding on any schema, input or output: every client maps the same portable subset.
    expect(run.stderr).not.toMatch(/Warning: |Error: /);
    const envelope = JSON.parse(run.stdout);
    expect(envelope.result.tools).toHaveLength(query ? SPEC_TOOLS.length : DEFAULT_TOOLS.length);
    expect(envelope.schemaFindings ?? []).toEqual([]);
  });

  test.each(['legacy', 'modern'])('%s era: tools/call create_quiz creates the quiz', async (era) => {
    const title = `From the Inspector (${era})`;
    const run = await runInspector([
      ...connection(),
      '--protocol-era',
      era,
      '--method',
      'tools/call',
      '--tool-name',
      'create_quiz',
      '--tool-arg',
      `title=${title}`,
      '--format',
      'json',
    ]);
    expect(run.code).toBe(0);
    const { result } = JSON.parse(run.stdout);
    expect(result.isError).toBeUndefined();
    expect(result.structuredContent).toMatchObject({ title, status: 'draft' });
  });

  test.each(['legacy', 'modern'])(
    '%s era: --app-info finds the MCP App view of get_results, and none on publish_quiz',
    async (era) => {
      const probe = (tool: string) =>
        runInspector([
          ...connection(),
          '--protocol-era',
          era,
          '--method',
          'tools/call',
          '--tool-name',
          tool,
          '--app-info',
        ]);
      const withView = await probe('get_results');
      expect(withView.code).toBe(0);
      const info = JSON.parse(withView.stdout.trim().split('\n').pop()!);
      expect(JSON.stringify(info)).toContain('ui://quiz-service/quiz-app.html');
      const withoutView = await probe('publish_quiz');
      expect(withoutView.code).toBe(2);
    },
  );

  test.each(['legacy', 'modern'])(
    '%s era: prompts/get and resources/read, as the README runs them',
    async (era) => {
      const prompt = await runInspector([
        ...connection(),
        '--protocol-era',
        era,
        '--method',
        'prompts/get',
        '--prompt-name',
        'quiz_from_material',
        '--prompt-args',
        'material=Paris is the capital of France.',
        '--format',
        'json',
      ]);
      expect(prompt.code).toBe(0);
      expect(prompt.stdout).toContain('Paris is the capital of France.');

      const created = await runInspector([
        ...connection(),
        '--method',
        'tools/call',
        '--tool-name',
        'create_quiz',
        '--tool-arg',
        `title=Read as a resource ${era}`,
        '--format',
        'json',
      ]);
      expect(created.code).toBe(0);
      const read = await runInspector([
        ...connection(),
        '--protocol-era',
        era,
        '--method',
        'resources/read',
        '--uri',
        `quiz://${encodeURIComponent(`Read as a resource ${era}`)}`,
        '--format',
        'json',
      ]);
      expect(read.code).toBe(0);
      expect(read.stdout).toContain(`Read as a resource ${era}`);
    },
  );

  test.each(['legacy', 'modern'])(
    '%s era: skills/list --verify checks the skill (digest, size, front matter), and skills/get reads it',
    async (era) => {
      const verified = await runInspector([
        ...connection(),
        '--protocol-era',
        era,
        '--method',
        'skills/list',
        '--verify',
        '--format',
        'json',
      ]);
      expect(verified.code).toBe(0);
      const report = JSON.parse(verified.stdout.trim().split('\n')[0]!);
      expect(report).toMatchObject({
        uri: 'skill://writing-good-quizzes/SKILL.md',
        name: 'writing-good-quizzes',
        conformance: [],
        ok: true,
        outcome: 'verified',
      });
      // SKILL.md and every part it points to, each checked against its digest and size.
      const statuses = report.files.map((file: { status: string }) => file.status);
      expect(statuses.length).toBe(Object.keys(skillFiles()).length);
      expect(new Set(statuses)).toEqual(new Set(['verified']));

      const got = await runInspector([
        ...connection(),
        '--protocol-era',
        era,
        '--method',
        'skills/get',
        '--uri',
        'skill://writing-good-quizzes/SKILL.md',
        '--format',
        'json',
      ]);
      expect(got.code).toBe(0);
      expect(JSON.parse(got.stdout).result.skill.frontmatter.name).toBe('writing-good-quizzes');
    },
  );
});
