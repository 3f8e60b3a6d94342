// The tool registry on its own: what tools/list shows of a definition, and what a call returns
// for good arguments, bad ones, a domain error and an internal failure. No service, no database.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { DomainError } from '../../src/domain/errors';
import type { Principal } from '../../src/identity/principal';
import { createToolRegistry } from '../../src/mcp/registry';
import { defineTool, READ_ONLY, type ToolContext } from '../../src/mcp/tool';
import { TOOLS } from '../../src/mcp/tools';

const principal: Principal = {
  userId: 'user-1',
  credential: { kind: 'api_key', id: 'key-1' },
  scopes: new Set(['quizzes:read']),
};

const greet = defineTool({
  name: 'greet',
  title: 'Greet',
  description: 'Test-only: greets someone.',
  input: z.strictObject({
    name: z.string({ error: 'name must be a string' }).max(10, { error: 'name is too long' }),
    times: z.number().int().default(1),
  }),
  output: z.object({ greeting: z.string() }),
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  run: async ({ name, times }, { principal: caller }) => {
    if (name === 'nobody') throw new DomainError('user_not_found', 'There is nobody called that.');
    if (name === 'boom') throw new Error('a secret detail');
    return { greeting: `${'hello '.repeat(times)}${name} from ${caller.userId}` };
  },
});

const oldGreet = defineTool({
  ...greet,
  name: 'old_greet',
  description: 'Test-only: the old greet.',
  input: z.strictObject({}),
  deprecation: { since: '2026-11-01', sunset: '2027-03-01', replacement: 'greet' },
  run: async () => ({ greeting: 'hi' }),
});

describe('the tool registry', () => {
  const registry = createToolRegistry([greet, oldGreet]);
  const internal: unknown[] = [];
  const context: ToolContext = {
    deps: { repos: {} as never, baseUrl: 'http://quiz.test' },
    principal,
    onInternalError: (error) => {
      internal.push(error);
      return 'internal failure, request id r-1';
    },
  };
  const call = async (args: unknown) =>
    (await registry.call(registry.find('greet')!, args, context)) as CallToolResult;

  test('lists each tool once, in order, with its schemas and its annotations titled', () => {
    expect(registry.listing.map((tool) => tool.name)).toEqual(['greet', 'old_greet']);
    expect(registry.names).toBe('greet, old_greet');
    expect(registry.listing[0]).toMatchObject({
      title: 'Greet',
      annotations: { title: 'Greet', readOnlyHint: true },
      inputSchema: { type: 'object', required: ['name'], additionalProperties: false },
      outputSchema: { type: 'object', properties: { greeting: { type: 'string' } } },
    });
    // A published output schema is open, and names no required field (portable-json-schema.ts).
    expect(registry.listing[0]?.outputSchema).not.toHaveProperty('required');
    expect(registry.listing[0]?.outputSchema).not.toHaveProperty('additionalProperties');
  });

  test('a listed output replaces the output in tools/list, and no integer keeps the safe-integer bounds', () => {
    const counted = defineTool({
      ...greet,
      name: 'count',
      output: z.object({ count: z.number().int(), internal: z.string() }),
      listedOutput: z.object({ count: z.number().int() }),
      run: async () => ({ count: 1, internal: 'x' }),
    });
    const [listing] = createToolRegistry([counted]).listing;
    expect(listing?.outputSchema).toEqual({ type: 'object', properties: { count: { type: 'integer' } } });
    expect(listing?.inputSchema.properties?.times).toEqual({ type: 'integer', default: 1 });
  });

  test('a deprecated tool says so first, with its replacement and its sunset', () => {
    expect(registry.find('old_greet')?.listing.description).toBe(
      'DEPRECATED: use greet instead; this tool stops working on 2027-03-01. Test-only: the old greet.',
    );
  });

  test('finds a tool by name, and nothing for an unknown name', () => {
    expect(registry.find('greet')?.definition).toBe(greet);
    expect(registry.find('gret')).toBeUndefined();
  });

  test('two tools of one name are refused at start-up', () => {
    expect(() => createToolRegistry([greet, greet])).toThrow('two tools share a name');
  });

  test('good arguments: the handler gets them parsed (defaults applied); the answer is text and structured', async () => {
    const result = await call({ name: 'Ada' });
    expect(result).toEqual({
      content: [{ type: 'text', text: JSON.stringify({ greeting: 'hello Ada from user-1' }) }],
      structuredContent: { greeting: 'hello Ada from user-1' },
    });
  });

  test.each([
    ['a field of the wrong type', { name: 5 }, 'name must be a string'],
    ['a field over its bound', { name: 'a'.repeat(11) }, 'name is too long'],
    ['an unknown argument', { name: 'Ada', nmae: 'x' }, 'nmae'],
    ['a NUL character', { name: 'A\u0000da' }, 'name'],
  ])('%s -> isError naming the field, and the handler never runs', async (_label, args, text) => {
    const result = await call(args);
    expect(result.isError).toBe(true);
    expect(result.content[0]).toEqual({ type: 'text', text: expect.stringContaining(text) });
    expect(result.structuredContent).toBeUndefined();
  });

  test('a domain error reaches the caller in its own words', async () => {
    const result = await call({ name: 'nobody' });
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: expect.stringContaining('nobody called that') }],
    });
  });

  test('any other failure gives the caller the generic text; the error goes to onInternalError', async () => {
    const result = await call({ name: 'boom' });
    expect(result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'internal failure, request id r-1' }],
    });
    expect(internal).toEqual([expect.objectContaining({ message: 'a secret detail' })]);
  });

  test('the production table links the view from exactly the tools it draws', () => {
    const production = createToolRegistry(TOOLS);
    expect(
      production.entries.filter((entry) => entry.definition.view).map((entry) => entry.definition.name),
    ).toEqual(['list_quizzes', 'create_quiz', 'get_quiz_questions', 'update_quiz', 'get_results']);
  });
});
