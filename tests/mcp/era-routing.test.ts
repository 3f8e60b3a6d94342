// The era is decided once, at the edge, by the SDK's classifier given the parsed message and
// the three MCP headers (eraOf). Over a corpus of requests of both eras and of malformed ones,
// that verdict must equal the SDK's own isLegacyRequest on a full conversion of the request
// (toWebRequest, the body read from the request), so an SDK that starts reading more of a
// request is caught here. Plain Express, no app and no database.
import { toWebRequest } from '@modelcontextprotocol/node';
import { DEFAULT_NEGOTIATED_PROTOCOL_VERSION, isLegacyRequest } from '@modelcontextprotocol/server';
import express from 'express';
import request from 'supertest';
import { ACCEPT_BOTH, eraOf, protocolVersionOf, sdkRequest } from '../../src/mcp/era-routing';
import type { ResolvedRequest } from '../../src/mcp/resolved-request';

const ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
const modernHeaders = {
  'MCP-Protocol-Version': '2026-07-28',
  'Mcp-Method': 'tools/call',
  'Mcp-Name': 'list_quizzes',
};
const call = (params: Record<string, unknown>) => ({ jsonrpc: '2.0', id: 1, method: 'tools/call', params });

const CORPUS: Array<[string, Record<string, string>, unknown, 'legacy' | 'modern']> = [
  ['2025 tools/call, no version header', {}, call({ name: 'list_quizzes', arguments: {} }), 'legacy'],
  [
    '2025 tools/call with its version header',
    { 'MCP-Protocol-Version': '2025-06-18' },
    call({ name: 'x' }),
    'legacy',
  ],
  [
    '2025 initialize',
    {},
    {
      jsonrpc: '2.0',
      id: 0,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {} },
    },
    'legacy',
  ],
  ['2025 notification', {}, { jsonrpc: '2.0', method: 'notifications/initialized' }, 'legacy'],
  [
    'modern tools/call',
    modernHeaders,
    call({ name: 'list_quizzes', arguments: {}, _meta: ENVELOPE }),
    'modern',
  ],
  [
    'modern server/discover',
    { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' },
    { jsonrpc: '2.0', id: 2, method: 'server/discover', params: { _meta: ENVELOPE } },
    'modern',
  ],
  ['modern body without its headers', {}, call({ name: 'list_quizzes', _meta: ENVELOPE }), 'modern'],
  [
    'modern version header without the envelope',
    { 'MCP-Protocol-Version': '2026-07-28' },
    call({ name: 'x' }),
    'modern',
  ],
  [
    'modern envelope, Mcp-Name disagreeing with the body',
    { ...modernHeaders, 'Mcp-Name': 'delete_quiz' },
    call({ name: 'list_quizzes', _meta: ENVELOPE }),
    'modern',
  ],
  [
    'an envelope naming a version the endpoint does not serve',
    {},
    call({ name: 'x', _meta: { ...ENVELOPE, 'io.modelcontextprotocol/protocolVersion': '2099-01-01' } }),
    'modern',
  ],
];

describe('eraOf', () => {
  const app = express();
  app.post('/api/mcp', express.json(), async (req, res) => {
    const sdk = await isLegacyRequest(await toWebRequest(req, req.body));
    res.json({ sdk: sdk ? 'legacy' : 'modern', ours: eraOf(req, req.body) });
  });

  test.each(CORPUS)('%s', async (_label, headers, body, era) => {
    const res = await request(app)
      .post('/api/mcp')
      .set({ 'Content-Type': 'application/json', Accept: ACCEPT_BOTH, ...headers })
      .send(JSON.stringify(body));
    expect(res.body).toEqual({ sdk: era, ours: era });
  });
});

describe('protocolVersionOf', () => {
  const req = (headers: Record<string, string> = {}) => ({ headers }) as unknown as express.Request;
  test.each([
    [
      'a 2025 call without the header: the version the spec assumes',
      'legacy',
      {},
      call({ name: 'x' }),
      DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
    ],
    [
      'a 2025 call with the header',
      'legacy',
      { 'mcp-protocol-version': '2025-06-18' },
      call({ name: 'x' }),
      '2025-06-18',
    ],
    [
      'a 2025 initialize: the version it asks for',
      'legacy',
      {},
      { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25' } },
      '2025-11-25',
    ],
    ['a modern call: its envelope', 'modern', {}, call({ name: 'x', _meta: ENVELOPE }), '2026-07-28'],
  ] as const)('%s', (_label, era, headers, message, version) => {
    expect(protocolVersionOf(era, req(headers), message as never)).toBe(version);
  });
});

describe('sdkRequest: what a leg reads, without writing to the request', () => {
  const resolved = (era: 'legacy' | 'modern', listsBoth: boolean): ResolvedRequest => ({
    message: call({ name: 'x' }) as ResolvedRequest['message'],
    era,
    protocolVersion: '2025-11-25',
    accept: { mode: 'json', listsBoth },
    principal: { userId: 'u', credential: { kind: 'api_key', id: 'k' }, scopes: new Set(['quizzes:read']) },
    credential: 'svc_x',
    requestId: 'r',
    toolsets: new Set(),
  });
  const req = (accept: string) =>
    ({ method: 'POST', url: '/api/mcp', headers: { accept, host: 'h' } }) as unknown as express.Request;

  test('a 2025 leg is shown the pair the SDK insists on; the request keeps its own Accept', () => {
    const original = req('application/json');
    const view = sdkRequest(original, resolved('legacy', false));
    expect(view.headers.accept).toBe(ACCEPT_BOTH);
    expect(original.headers.accept).toBe('application/json');
    expect(view.auth).toMatchObject({ token: 'svc_x', clientId: 'k', scopes: ['quizzes:read'] });
  });

  test.each([
    ['a modern request', 'modern', false],
    ['a 2025 request that already lists both', 'legacy', true],
  ] as const)('%s is shown its own headers', (_label, era, listsBoth) => {
    const original = req('application/json');
    expect(sdkRequest(original, resolved(era, listsBoth)).headers).toBe(original.headers);
  });
});
