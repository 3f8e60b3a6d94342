// JSON nested deeper than the endpoint's bound is refused at the door as a JSON-RPC invalid
// request (400, -32600), in both eras, wherever the nesting is (params, arguments, _meta) and
// however large the body is up to its limit; never a 500. Nesting within the bound still works.
import request from 'supertest';
import { MAX_JSON_DEPTH } from '../../src/http/json-body';
import { ACCEPT_BOTH, createTestUser, sseMessages, startTestApp, type TestApp } from '../helpers/test-app';

const MODERN = '2026-07-28';

/** `{"a":{"a":…}}` as text, `depth` objects deep around `inner` (built as text: no stack needed). */
const nestedObjects = (depth: number, inner = '1') => '{"a":'.repeat(depth) + inner + '}'.repeat(depth);
const nestedArrays = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);

interface Era {
  name: string;
  headers: (method: string, tool?: string) => Record<string, string>;
  meta: string;
}

const ERAS: Era[] = [
  { name: '2025 era', headers: () => ({}), meta: '{}' },
  {
    name: '2026-07-28 era',
    headers: (method, tool) => ({
      'MCP-Protocol-Version': MODERN,
      'Mcp-Method': method,
      ...(tool ? { 'Mcp-Name': tool } : {}),
    }),
    meta: `{"io.modelcontextprotocol/protocolVersion":"${MODERN}","io.modelcontextprotocol/clientCapabilities":{}}`,
  },
];

describe('deep JSON at the MCP endpoint', () => {
  let app: TestApp;
  let apiKey: string;

  beforeAll(async () => {
    app = await startTestApp();
    apiKey = (await createTestUser(app)).apiKey;
  });
  afterAll(async () => {
    await app.close();
  });

  const post = (body: string, headers: Record<string, string>) =>
    request(app.app)
      .post('/api/mcp')
      .set('Accept', ACCEPT_BOTH)
      .set('Authorization', `Bearer ${apiKey}`)
      .set('Content-Type', 'application/json')
      .set(headers)
      .send(body);

  for (const era of ERAS) {
    describe(era.name, () => {
      /** Bodies whose nesting sits at each position a client could put it. */
      const positions = (deep: string) =>
        [
          [
            'inside params of tools/list',
            'tools/list',
            undefined,
            `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":${era.meta},"x":${deep}}}`,
          ],
          [
            'inside tools/call arguments',
            'tools/call',
            'list_quizzes',
            `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_quizzes","_meta":${era.meta},"arguments":{"cursor":${deep}}}}`,
          ],
          [
            'inside a question of create_quiz',
            'tools/call',
            'create_quiz',
            `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_quiz","_meta":${era.meta},"arguments":{"title":"Deep","questions":[{"type":"yes_no","text":${deep}}]}}}`,
          ],
          [
            'inside the id',
            'tools/list',
            undefined,
            `{"jsonrpc":"2.0","id":${deep},"method":"tools/list","params":{"_meta":${era.meta}}}`,
          ],
        ] as const;

      test.each([
        ['just past the bound', MAX_JSON_DEPTH + 1],
        ['5,000 levels', 5_000],
        ['up to the body limit', 0],
      ])('objects nested %s: 400 with -32600 at every position', async (_label, levels) => {
        for (const [where, method, tool, template] of positions('DEEP')) {
          // Deepest that fits under the body limit, when asked for.
          const depth = levels || Math.floor((app.config.maxBodyBytes - template.length) / 6) - 1;
          const body = template.replace('DEEP', nestedObjects(depth));
          expect(Buffer.byteLength(body)).toBeLessThanOrEqual(app.config.maxBodyBytes);
          const res = await post(body, era.headers(method, tool));
          expect({ where, depth, status: res.status }).toEqual({ where, depth, status: 400 });
          expect(res.body.error.code).toBe(-32600);
          expect(res.body.error.message).toMatch(new RegExp(`nested deeper than ${MAX_JSON_DEPTH} levels`));
        }
      });

      test('arrays nested 100,000 levels in arguments: 400 with -32600', async () => {
        const [, method, tool, template] = positions('DEEP')[1];
        const res = await post(template.replace('DEEP', nestedArrays(100_000)), era.headers(method, tool!));
        expect(res.status).toBe(400);
        expect(res.body.error.code).toBe(-32600);
      });

      test('brackets inside strings do not count, and nesting within the bound is served', async () => {
        const [, method, tool, template] = positions('DEEP')[1];
        const text = JSON.stringify('['.repeat(10_000));
        const inString = await post(template.replace('DEEP', text), era.headers(method, tool!));
        expect(inString.status).toBe(200);
        // A cursor that is a deep-but-allowed object is an argument error, told by the tool.
        const within = await post(
          template.replace('DEEP', nestedObjects(MAX_JSON_DEPTH - 6)),
          era.headers(method, tool!),
        );
        expect(within.status).toBe(200);
        const answer = sseMessages(within.text)[0] ?? within.body;
        expect(answer.result.isError).toBe(true);
        expect(answer.result.content[0].text).toMatch(/cursor/);
      });
    });
  }
});
