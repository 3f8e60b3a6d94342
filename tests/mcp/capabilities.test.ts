// What the server advertises, in both eras, and that each advertised capability delivers: the
// client receives what it was promised. No list-change notification is promised, since this
// stateless endpoint keeps no stream on which to send one; server/discover names every
// protocol version the URL serves; the instructions say how the tools fit together.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { onlyMessage, postMcp } from '../helpers/http';
import { forEachEra, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';

const MODERN = '2026-07-28';

/** Each capability the service may advertise, and a request that must then be answered. */
const EXERCISE: Record<string, (client: AnyClient) => Promise<void>> = {
  async tools(client) {
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
  },
  async resources(client) {
    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    for (const { uri } of resources) {
      expect((await client.readResource(uri)).contents[0]?.uri).toBe(uri);
    }
    expect((await client.listResourceTemplates()).resourceTemplates.length).toBeGreaterThan(0);
  },
  async prompts(client) {
    expect((await client.listPrompts()).prompts.length).toBeGreaterThan(0);
    const { messages } = await client.getPrompt('quiz_from_material', { material: 'Water boils at 100 °C.' });
    expect(messages[0]?.content.text).toContain('Water boils');
  },
  async completions(client) {
    const { completion } = await client.completePrompt('quiz_from_material', 'question_count', '1');
    expect(completion.values).toEqual(['10', '15']);
  },
  // The one extension: skills (SEP-2640), whose methods tests/mcp/skills.test.ts covers in full.
  async extensions(client) {
    expect(Object.keys(client.capabilities()!.extensions)).toEqual(['io.modelcontextprotocol/skills']);
    const { skills } = await client.request('skills/list');
    expect(skills.length).toBeGreaterThan(0);
    for (const { uri } of skills) expect((await client.readResource(uri)).contents[0]?.uri).toBe(uri);
  },
};

describe('capabilities', () => {
  let app: TestApp;
  let user: TestUser;
  beforeAll(async () => {
    app = await startTestApp();
    user = await createTestUser(app, 'capabilities');
  });
  afterAll(() => app.close());

  forEachEra((era) => {
    let client: AnyClient;
    beforeAll(async () => {
      client = await era.connect(app, user.apiKey);
    });
    afterAll(() => client.close());

    test('every advertised capability is answered', async () => {
      const capabilities = client.capabilities() ?? {};
      expect(Object.keys(capabilities).sort()).toEqual(Object.keys(EXERCISE).sort());
      for (const name of Object.keys(capabilities)) await EXERCISE[name]!(client);
    });

    test('no list-change notification or subscription is promised', () => {
      for (const capability of Object.values(client.capabilities() ?? {})) {
        expect(capability).not.toHaveProperty('listChanged', true);
        expect(capability).not.toHaveProperty('subscribe', true);
      }
    });

    test('the instructions say how the tools fit together', () => {
      const instructions = client.instructions() ?? '';
      for (const phrase of ['slug', 'title', 'publish_quiz', 'confirm: true', 'confirm_edit_published']) {
        expect(instructions).toContain(phrase);
      }
      expect(instructions).toMatch(/question_id/);
      expect(instructions).toMatch(/summary/);
    });
  });

  test('server/discover names every protocol version the URL serves, 2026-07-28 first', async () => {
    const res = await postMcp(app, {
      credential: user.apiKey,
      headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'server/discover' },
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
    });
    const answer = res.headers['content-type']?.startsWith('text/event-stream')
      ? onlyMessage(res.text)
      : JSON.parse(res.text);
    expect(answer.result.supportedVersions).toEqual([MODERN, ...SUPPORTED_PROTOCOL_VERSIONS]);
  });

  test('every version server/discover names is served', async () => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const res = await postMcp(app, {
        credential: user.apiKey,
        body: {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 't', version: '1' } },
        },
      });
      expect(onlyMessage(res.text).result.protocolVersion).toBe(version);
    }
  });
});
