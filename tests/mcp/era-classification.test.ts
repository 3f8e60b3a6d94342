// The era router classifies a request with the SDK's isLegacyRequest, given a probe that
// carries only what the SDK reads of it (method and the three MCP headers). Over a corpus of
// requests of both eras and of malformed ones, the probe's verdict must equal the verdict on a
// full conversion of the request (the SDK's toWebRequest), so an SDK that starts reading more
// of a request is caught here.
import { toWebRequest } from '@modelcontextprotocol/node';
import { isLegacyRequest } from '@modelcontextprotocol/server';
import express from 'express';
import request from 'supertest';
import { classificationProbe, declaredEra } from '../../src/mcp/era-routing';

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

describe('era classification probe', () => {
  const app = express();
  app.post('/api/mcp', express.json(), async (req, res) => {
    const probe = await isLegacyRequest(classificationProbe(req), req.body);
    const full = await isLegacyRequest(await toWebRequest(req, req.body), req.body);
    res.json({ probe, full, declared: declaredEra(req, req.body) });
  });

  test.each(CORPUS)('%s', async (_label, headers, body, era) => {
    const res = await request(app)
      .post('/api/mcp')
      .set({ 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream', ...headers })
      .send(JSON.stringify(body));
    expect(res.body.probe).toBe(res.body.full);
    expect(res.body.probe ? 'legacy' : 'modern').toBe(era);
    // The era the access log and the metrics record agrees with the SDK's routing.
    expect(res.body.declared).toBe(era);
  });
});
