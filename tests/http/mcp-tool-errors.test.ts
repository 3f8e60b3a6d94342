// What a caller sees when a tools/call goes wrong (spec "Errors", "Versioning" 5;
// sections 3 and 5): unknown tools, bad arguments, internal failures that must not leak, and
// the Deprecation / Sunset headers of a deprecated tool.
import { z } from 'zod';
import { createLogger } from '../../src/logger';
import { defineTool, READ_ONLY } from '../../src/mcp/tool';
import { TOOLS } from '../../src/mcp/tools';
import { onlyMessage, postMcp } from '../helpers/http';
import { memoryLog } from '../helpers/memory-log';
import { createTestUser, startTestApp, toolCall, type TestApp, type TestUser } from '../helpers/test-app';

const SECRET = 'secret internal detail /etc/passwd';

const boomTool = defineTool({
  name: 'boom',
  title: 'Always fails',
  description: 'Test-only: throws an unexpected error.',
  input: z.strictObject({}),
  output: z.object({}),
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  run: () => Promise.reject(new Error(SECRET)),
});

const oldListTool = defineTool({
  name: 'old_list_quizzes',
  title: 'List my quizzes (old)',
  description: 'Test-only: the previous name of list_quizzes.',
  input: z.strictObject({}),
  output: z.object({ ok: z.boolean() }),
  annotations: READ_ONLY,
  scope: 'quizzes:read',
  deprecation: { since: '2026-11-01', sunset: '2027-03-01', replacement: 'list_quizzes' },
  run: () => Promise.resolve({ ok: true }),
});

describe('tools/call errors', () => {
  let app: TestApp;
  let user: TestUser;
  const log = memoryLog();

  beforeAll(async () => {
    app = await startTestApp({
      tools: [...TOOLS, boomTool, oldListTool],
      logger: createLogger('info', log.stream),
    });
    user = await createTestUser(app, 'errors');
  });
  afterAll(async () => {
    await app.close();
  });

  const call = (name: string, args: Record<string, unknown> = {}) =>
    postMcp(app, { credential: user.apiKey, body: toolCall(name, args, 7) });

  test('an unknown tool name -> a JSON-RPC error that names the available tools', async () => {
    const res = await call('list_quizes');
    expect(res.status).toBe(200);
    const message = onlyMessage(res.text);
    expect(message.id).toBe(7);
    expect(message.result).toBeUndefined();
    expect(message.error.code).toBe(-32602);
    expect(message.error.message).toContain('"list_quizes"');
    for (const name of ['list_quizzes', 'create_quiz', 'delete_quiz'])
      expect(message.error.message).toContain(name);
  });

  // The SDK alone would answer these with -32603 "Internal error" and zod's raw issue dump.
  test.each([
    ['no name', { arguments: {} }, 'name'],
    ['arguments that are an array', { name: 'list_quizzes', arguments: [1] }, 'arguments'],
  ])('tools/call with %s -> -32602 naming the field to fix', async (_label, params, field) => {
    const res = await postMcp(app, {
      credential: user.apiKey,
      body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params },
    });
    const message = res.headers['content-type']?.startsWith('text/event-stream')
      ? onlyMessage(res.text)
      : res.body;
    expect(message.error.code).toBe(-32602);
    expect(message.error.message).toContain(field);
    expect(message.error.message).not.toContain('invalid_type');
  });

  test('an unknown argument -> isError naming the field and saying to remove it', async () => {
    const { result } = onlyMessage((await call('list_quizzes', { colour: 'red' })).text);
    expect(result.isError).toBe(true);
    expect(result.content[0].type).toBe('text');
    expect(result.content[0].text).toMatch(/colour: .*not a known field.*remove it/);
  });

  test('an argument of the wrong type -> isError naming the field and what it must be', async () => {
    const { result } = onlyMessage((await call('list_quizzes', { limit: 'ten' })).text);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/limit: limit must be a whole number from 1 to 100/);
    const nested = onlyMessage(
      (
        await call('create_quiz', {
          title: 'Typed',
          questions: [{ type: 'yes_no', text: 'Ok?', points: 'two' }],
        })
      ).text,
    ).result;
    expect(nested.isError).toBe(true);
    expect(nested.content[0].text).toMatch(/questions\[0\]\.points: points must be an integer/);
  });

  test('a missing required argument -> isError naming it as required', async () => {
    const { result } = onlyMessage((await call('get_quiz_questions', {})).text);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toMatch(/quiz_id: is required/);
  });

  test('an unexpected exception -> a generic isError with the request id; the message only reaches the log', async () => {
    const res = await call('boom');
    expect(res.status).toBe(200);
    const requestId = res.headers['x-request-id'];
    expect(requestId).toBeTruthy();
    const { result } = onlyMessage(res.text);
    expect(result.isError).toBe(true);
    expect(result.content[0].text).toContain(requestId);
    expect(res.text).not.toContain('secret internal detail');
    expect(res.text).not.toContain('/etc/passwd');

    const logged = log.lines().filter((line) => line.requestId === requestId);
    expect(logged.filter((line) => Number(line.level) >= 50)).toEqual([
      expect.objectContaining({ level: 50, tool: 'boom', err: expect.objectContaining({ message: SECRET }) }),
    ]);
    // The access line of the same request carries its id and no details of the failure.
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 30, msg: 'request', status: 200, tool: 'boom' }),
    );
  });

  test('a deprecated tool is listed as DEPRECATED, naming its replacement and sunset date', async () => {
    const { result } = onlyMessage(
      (
        await postMcp(app, {
          credential: user.apiKey,
          body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
        })
      ).text,
    );
    const old = result.tools.find((tool: { name: string }) => tool.name === 'old_list_quizzes');
    expect(old.description).toMatch(/^DEPRECATED/);
    expect(old.description).toContain('list_quizzes');
    expect(old.description).toContain('2027-03-01');
    const current = result.tools.find((tool: { name: string }) => tool.name === 'list_quizzes');
    expect(current.description).not.toMatch(/DEPRECATED/);
  });

  test('calling a deprecated tool answers with Deprecation and Sunset headers; other tools do not', async () => {
    const res = await call('old_list_quizzes');
    expect(res.status).toBe(200);
    expect(onlyMessage(res.text).result.structuredContent).toEqual({ ok: true });
    expect(res.headers.deprecation).toBe(`@${Date.UTC(2026, 10, 1) / 1000}`);
    expect(res.headers.sunset).toBe('Mon, 01 Mar 2027 00:00:00 GMT');

    const current = await call('list_quizzes');
    expect(current.status).toBe(200);
    expect(current.headers.deprecation).toBeUndefined();
    expect(current.headers.sunset).toBeUndefined();
  });
});
