// The MCP edge on its own: what resolveRequest answers itself and what it resolves, through a
// plain Express app with a fixed caller and a small tool table. No service, no database.
import express from 'express';
import request from 'supertest';
import { z } from 'zod';
import type { Principal, Scope } from '../../src/identity/principal';
import { negotiate, resolveRequest } from '../../src/mcp/edge-checks';
import { createToolRegistry } from '../../src/mcp/registry';
import { defineTool, READ_ONLY } from '../../src/mcp/tool';
import { ACCEPT_BOTH } from '../../src/mcp/era-routing';

const BASE = 'http://quiz.test';
const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};

const tool = (name: string, scope: Scope, extra: object = {}) =>
  defineTool({
    name,
    title: name,
    description: `Test-only: ${name}.`,
    input: z.strictObject({}),
    output: z.object({}),
    annotations: READ_ONLY,
    scope,
    ...extra,
    run: async () => ({}),
  });
const registry = createToolRegistry([
  tool('read_thing', 'quizzes:read'),
  tool('write_thing', 'quizzes:write'),
  tool('old_thing', 'quizzes:read', {
    deprecation: { since: '2026-11-01', sunset: '2027-03-01', replacement: 'read_thing' },
  }),
]);

/** A caller that holds only `scopes`, then the edge; what it resolved comes back as JSON. */
function edge(scopes: Scope[] = ['quizzes:read', 'quizzes:write']) {
  const principal: Principal = {
    userId: 'user-1',
    credential: { kind: 'oauth', id: 'token-1', clientId: 'client-1' },
    scopes: new Set(scopes),
  };
  const app = express();
  app.post('/api/mcp', express.json(), (req, res) => {
    res.locals.principal = principal;
    res.locals.requestId = 'request-1';
    const resolved = resolveRequest(req, res, { registry, baseUrl: BASE });
    if (!resolved) return;
    res.json({
      method: resolved.message.method,
      era: resolved.era,
      protocolVersion: resolved.protocolVersion,
      accept: resolved.accept,
      credential: resolved.credential,
      requestId: resolved.requestId,
      toolCall: resolved.toolCall && {
        name: resolved.toolCall.name,
        found: resolved.toolCall.tool?.definition.name,
      },
      logFields: res.locals.logFields,
    });
  });
  return app;
}

function post(body: unknown, headers: Record<string, string> = {}, scopes?: Scope[]) {
  return request(edge(scopes))
    .post('/api/mcp')
    .set({ 'Content-Type': 'application/json', Accept: ACCEPT_BOTH, Authorization: 'Bearer tok', ...headers })
    .send(typeof body === 'string' ? body : JSON.stringify(body));
}
const call = (name: string, extra: object = {}) => ({
  jsonrpc: '2.0',
  id: 5,
  method: 'tools/call',
  params: { name, arguments: {}, ...extra },
});

describe('negotiate: what the client gets, from its Accept header', () => {
  test.each([
    [undefined, { mode: 'sse', listsBoth: false }],
    ['*/*', { mode: 'sse', listsBoth: false }],
    ['text/*', { mode: 'sse', listsBoth: false }],
    ['text/event-stream', { mode: 'sse', listsBoth: false }],
    ['Application/JSON, Text/Event-Stream', { mode: 'sse', listsBoth: true }],
    ['application/json', { mode: 'json', listsBoth: false }],
    ['application/*', { mode: 'json', listsBoth: false }],
    ['text/html', undefined],
  ])('%s', (accept, expected) => {
    expect(negotiate(accept)).toEqual(expected);
  });
});

describe('resolveRequest answers what the edge can explain better than the SDK', () => {
  test('a body that is not JSON -> 415 problem', async () => {
    const res = await post('hello', { 'Content-Type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ type: `${BASE}/en/docs/api-reference#error-unsupported_media_type` });
  });

  test.each([
    ['a batch', [call('read_thing')]],
    ['a wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'tools/list' }],
    ['params that are an array', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: [] }],
  ])('%s -> -32600', async (_label, body) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe(-32600);
  });

  test.each([
    [
      'no tool name',
      { jsonrpc: '2.0', id: 9, method: 'tools/call', params: { arguments: {} } },
      'params.name',
    ],
    ['arguments that are a string', call('read_thing', { arguments: 'x' }), 'params.arguments'],
  ])('a tools/call with %s -> -32602 naming the field', async (_label, body, field) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32602, message: expect.stringContaining(field) });
  });

  test('an Accept it cannot serve -> 406 problem that says what to send', async () => {
    const res = await post(call('read_thing'), { Accept: 'text/html' });
    expect(res.status).toBe(406);
    expect(res.body.hint).toContain(ACCEPT_BOTH);
  });

  test('a token without the scope the tool needs -> 403 insufficient_scope asking for both', async () => {
    const res = await post(call('write_thing'), {}, ['quizzes:read']);
    expect(res.status).toBe(403);
    expect(res.headers['www-authenticate']).toContain('scope="quizzes:read quizzes:write"');
  });
});

describe('resolveRequest resolves each fact once', () => {
  test('a 2025 tools/call: its tool, era, version, Accept and caller', async () => {
    const res = await post(call('read_thing'), { 'MCP-Protocol-Version': '2025-06-18' });
    expect(res.body).toEqual({
      method: 'tools/call',
      era: 'legacy',
      protocolVersion: '2025-06-18',
      accept: { mode: 'sse', listsBoth: true },
      credential: 'tok',
      requestId: 'request-1',
      toolCall: { name: 'read_thing', found: 'read_thing' },
      logFields: { tool: 'read_thing', era: 'legacy', protocolVersion: '2025-06-18' },
    });
  });

  test('a 2026-07-28 tools/call is modern, with the version of its envelope', async () => {
    const res = await post(call('read_thing', { _meta: ENVELOPE }), {
      'MCP-Protocol-Version': '2026-07-28',
      Accept: 'application/json',
    });
    expect(res.body).toMatchObject({
      era: 'modern',
      protocolVersion: '2026-07-28',
      accept: { mode: 'json', listsBoth: false },
    });
  });

  test('an unknown tool resolves without a tool, for the endpoint to answer in band', async () => {
    const res = await post(call('no_such_thing'));
    expect(res.body.toolCall).toEqual({ name: 'no_such_thing' });
    expect(res.body.logFields).toEqual({ era: 'legacy', protocolVersion: expect.any(String) });
  });

  test('tools/list names no tool', async () => {
    const res = await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(res.body).toMatchObject({ method: 'tools/list', era: 'legacy' });
    expect(res.body.toolCall).toBeUndefined();
  });

  test('a deprecated tool gets Deprecation, Sunset and a link to its successor', async () => {
    const res = await post(call('old_thing'));
    expect(res.status).toBe(200);
    expect(res.headers.deprecation).toBe(`@${Date.parse('2026-11-01T00:00:00Z') / 1000}`);
    expect(res.headers.sunset).toBe('Mon, 01 Mar 2027 00:00:00 GMT');
    expect(res.headers.link).toBe(`<${BASE}/en/docs/api-reference#tool-read_thing>; rel="successor-version"`);
  });
});
