// Every tool's input schema is one any client can parse: no oneOf, allOf, not or if/then/else
// (LangChain's adapters merge a union's variants, Mastra reports only "must match exactly one
// schema", Gemini's declarations take none of them), and anyOf only in the nullable form
// `anyOf: [{...}, {"type": "null"}]`.
import request from 'supertest';
import gemini from './fixtures/gemini-schema-keywords.json';
import { ACCEPT_BOTH, createTestUser, sseMessages, startTestApp, type TestApp } from '../helpers/test-app';

const FORBIDDEN = ['oneOf', 'allOf', 'not', 'if', 'then', 'else'];

/** Each place in a schema that uses a combinator clients cannot read, as a JSON path. */
function unportable(schema: unknown, at = '$'): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => unportable(item, `${at}[${index}]`));
  if (typeof schema !== 'object' || schema === null) return [];
  const node = schema as Record<string, unknown>;
  const found: string[] = [];
  for (const [key, value] of Object.entries(node)) {
    // Under `properties`, keys are field names, not keywords.
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const [name, child] of Object.entries(value))
        found.push(...unportable(child, `${at}.properties.${name}`));
      continue;
    }
    if (FORBIDDEN.includes(key)) found.push(`${at}.${key}`);
    if (key === 'anyOf') {
      const branches = value as unknown[];
      const nullable =
        branches.length === 2 && branches.some((branch) => JSON.stringify(branch) === '{"type":"null"}');
      if (!nullable) found.push(`${at}.anyOf (not the nullable form)`);
    }
    found.push(...unportable(value, `${at}.${key}`));
  }
  return found;
}

/** Each keyword, outside property names, that Gemini's function declarations do not take. */
function outsideGemini(schema: unknown, at = '$'): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, index) => outsideGemini(item, `${at}[${index}]`));
  if (typeof schema !== 'object' || schema === null) return [];
  const found: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    const allowed = gemini.keywords.includes(key) || (at === '$' && key in gemini.rootOnly);
    if (!allowed) found.push(`${at}.${key}`);
    if (key === 'properties' && typeof value === 'object' && value !== null) {
      for (const [name, child] of Object.entries(value))
        found.push(...outsideGemini(child, `${at}.properties.${name}`));
    } else if (key !== 'enum' && key !== 'required' && key !== 'default' && key !== 'example') {
      found.push(...outsideGemini(value, `${at}.${key}`));
    }
  }
  return found;
}

describe('portable input schemas', () => {
  let app: TestApp;
  let apiKey: string;
  beforeAll(async () => {
    app = await startTestApp();
    apiKey = (await createTestUser(app, 'schemas')).apiKey;
  });
  afterAll(() => app.close());

  async function listedTools(): Promise<Array<{ name: string; inputSchema: unknown }>> {
    const res = await request(app.app)
      .post('/api/mcp')
      .set('Accept', ACCEPT_BOTH)
      .set('Authorization', `Bearer ${apiKey}`)
      .send({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
    return sseMessages(res.text)[0].result.tools;
  }

  test('no tool input schema holds a combinator beyond the nullable anyOf', async () => {
    const tools = await listedTools();
    expect(tools.length).toBeGreaterThanOrEqual(8);
    const findings = tools.flatMap((tool) =>
      unportable(tool.inputSchema).map((path) => `${tool.name}: ${path}`),
    );
    expect(findings).toEqual([]);
  });

  test("every input schema keyword is one Gemini's function declarations accept (fixtures/gemini-schema-keywords.json)", async () => {
    const tools = await listedTools();
    const findings = tools.flatMap((tool) =>
      outsideGemini(tool.inputSchema).map((path) => `${tool.name}: ${path}`),
    );
    expect(findings).toEqual([]);
    expect(outsideGemini({ properties: { x: { type: 'string', const: 'a' } } })).toEqual([
      '$.properties.x.const',
    ]);
  });

  test('the check itself finds what it must', () => {
    expect(unportable({ properties: { not: { type: 'string' }, a: { oneOf: [{}, {}] } } })).toEqual([
      '$.properties.a.oneOf',
    ]);
    expect(unportable({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toEqual([]);
    expect(unportable({ anyOf: [{ type: 'string' }, { type: 'number' }] })).toEqual([
      '$.anyOf (not the nullable form)',
    ]);
  });
});
