// The pre-checks put in front of the SDK's JSON-RPC type guards (src/mcp/sdk-guards.ts) must
// never change an answer: over requests, notifications, responses and malformed values of
// every shape, each guarded function agrees with the SDK's own.
import * as sdkTypes from '@modelcontextprotocol/sdk/types.js';
import { installSdkGuardPreChecks, PRE_CHECKS } from '../../src/mcp/sdk-guards';
import { postMcp } from '../helpers/http';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';

type Guard = (value: unknown) => boolean;
const exportsOf = sdkTypes as unknown as Record<string, Guard>;
const names = Object.keys(PRE_CHECKS);
const originals = Object.fromEntries(names.map((name) => [name, exportsOf[name]!]));

const initialize = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'c', version: '1' } },
};
const corpus: unknown[] = [
  initialize,
  { ...initialize, jsonrpc: undefined },
  { ...initialize, params: {} },
  { method: 'initialize', params: initialize.params },
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_quizzes', arguments: {} } },
  { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
  { jsonrpc: '2.0', id: 1.5, method: 'ping' },
  { jsonrpc: '2.0', id: null, method: 'ping' },
  { jsonrpc: '2.0', id: undefined, method: 'ping' },
  { jsonrpc: '2.0', id: 1, method: 'ping', extra: true },
  { jsonrpc: '1.0', id: 1, method: 'ping' },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
  { jsonrpc: '2.0', method: 'notifications/progress', id: 3 },
  { jsonrpc: '2.0', id: 1, result: {} },
  { jsonrpc: '2.0', id: 1, result: { content: [] }, method: 'x' },
  { jsonrpc: '2.0', id: 1, result: null },
  { jsonrpc: '2.0', id: 1, result: undefined },
  { jsonrpc: '2.0', result: {} },
  { jsonrpc: '2.0', id: 1, error: { code: -32600, message: 'bad' } },
  { jsonrpc: '2.0', id: 1, error: { code: 'x', message: 'bad' } },
  { jsonrpc: '2.0', error: { code: -32700, message: 'parse' } },
  { jsonrpc: '2.0', id: 1, error: { code: 1, message: 'm' }, result: {} },
  { task: { ttl: 1000 } },
  { task: 'soon' },
  { name: 'list_quizzes', arguments: {}, _meta: { progressToken: 1 } },
  {},
  [],
  [{ jsonrpc: '2.0', id: 1, method: 'ping' }],
  null,
  undefined,
  'initialize',
  42,
  true,
];

describe('SDK guard pre-checks', () => {
  beforeAll(() => installSdkGuardPreChecks());

  test.each(names)('%s answers as the SDK does for every value', (name) => {
    const guarded = exportsOf[name]!;
    expect(guarded).not.toBe(originals[name]);
    for (const value of corpus) {
      expect([JSON.stringify(value), guarded(value)]).toEqual([
        JSON.stringify(value),
        originals[name]!(value),
      ]);
    }
  });

  test('the corpus holds a yes and a no for every guard', () => {
    for (const name of names) {
      const answers = new Set(corpus.map((value) => originals[name]!(value)));
      expect([name, [...answers].sort()]).toEqual([name, [false, true]]);
    }
  });

  test('installing twice wraps once', () => {
    const before = names.map((name) => exportsOf[name]);
    installSdkGuardPreChecks();
    expect(names.map((name) => exportsOf[name])).toEqual(before);
  });
});

describe('a call through the endpoint', () => {
  let app: TestApp;
  let key: string;
  beforeAll(async () => {
    app = await startTestApp();
    key = (await createTestUser(app)).apiKey;
  });
  afterAll(() => app.close());

  const post = (body: unknown) => postMcp(app, { credential: key, body });

  test("asks the SDK's schemas only the questions that can be yes", async () => {
    const initializeParse = jest.spyOn(sdkTypes.InitializeRequestSchema, 'safeParse');
    const resultParse = jest.spyOn(sdkTypes.JSONRPCResultResponseSchema, 'safeParse');
    try {
      const listed = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} });
      expect(listed.status).toBe(200);
      expect(listed.text).toContain('"tools"');
      // The request is no initialize and no response: the pre-checks answered both.
      expect(initializeParse).not.toHaveBeenCalled();
      // The answer is a result response: the SDK's own guard confirmed it.
      expect(resultParse).toHaveBeenCalled();

      const initialized = await post(initialize);
      expect(initialized.status).toBe(200);
      expect(initializeParse).toHaveBeenCalled();
    } finally {
      initializeParse.mockRestore();
      resultParse.mockRestore();
    }
  });
});
