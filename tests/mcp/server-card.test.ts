// The MCP Server Card at /api/mcp/server-card, as a client or registry reads it before
// connecting: valid against the extension's own schema (tests/fixtures/server-card/), in its
// media type, public to browsers (CORS) and cacheable (an ETag a second request revalidates to
// 304), naming the endpoint and the versions that the connected server then reports, and no secret.
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import request from 'supertest';
import schema from '../fixtures/server-card/schema.json';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { serverCardName } from '../../src/mcp/server-card';
import { TOOLSET_VERSION } from '../../src/version';
import { onlyMessage, postMcp } from '../helpers/http';
import { forEachEra } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats(ajv);
ajv.addSchema(schema, 'server-card');
const validCard = ajv.compile({ $ref: 'server-card#/$defs/ServerCard' });

let app: TestApp;
let user: TestUser;
beforeAll(async () => {
  app = await startTestApp();
  user = await createTestUser(app, 'server-card');
});
afterAll(async () => {
  await app?.close();
});

const getCard = () =>
  request(app.app).get('/api/mcp/server-card').set('Accept', 'application/mcp-server-card+json');

test('the card is valid against the extension schema and names the one streamable-HTTP endpoint', async () => {
  const res = await getCard();
  expect(res.status).toBe(200);
  expect(res.headers['content-type']).toMatch(/^application\/mcp-server-card\+json/);
  const card = JSON.parse(res.text);
  expect({ valid: validCard(card), errors: validCard.errors ?? null }).toEqual({ valid: true, errors: null });
  expect(card).toMatchObject({
    name: serverCardName(app.baseUrl),
    version: TOOLSET_VERSION,
    remotes: [
      {
        type: 'streamable-http',
        url: `${app.baseUrl}/api/mcp`,
        supportedProtocolVersions: ['2026-07-28', ...SUPPORTED_PROTOCOL_VERSIONS],
      },
    ],
  });
  // Public metadata only: no tool list, no key, nothing a connection would have to authorise.
  expect(card).not.toHaveProperty('tools');
  expect(res.text).not.toContain('svc_' + 'x');
  expect(res.text).not.toContain(user.apiKey);
});

test('the schema refuses a card without its name, so the check above can fail', () => {
  expect(
    validCard({
      $schema: schema.$defs.ServerCard.properties.$schema.pattern,
      version: '1',
      description: 'x',
    }),
  ).toBe(false);
});

test('a second request with its ETag is answered 304; CORS lets a browser read it', async () => {
  const first = await getCard();
  expect(first.headers['cache-control']).toBe('public, max-age=3600');
  expect(first.headers['access-control-allow-origin']).toBe('*');
  expect(first.headers['access-control-expose-headers']).toBe('ETag');
  const etag = first.headers.etag as string;
  expect(etag).toMatch(/^"[\w-]+"$/);
  const again = await getCard().set('If-None-Match', etag);
  expect(again.status).toBe(304);
  expect(again.text ?? '').toBe('');
  const other = await getCard().set('If-None-Match', '"another"');
  expect(other.status).toBe(200);
  const preflight = await request(app.app)
    .options('/api/mcp/server-card')
    .set('Origin', 'https://client.example')
    .set('Access-Control-Request-Method', 'GET');
  expect(preflight.status).toBe(204);
  expect(preflight.headers['access-control-allow-methods']).toBe('GET');
  expect(preflight.headers['access-control-allow-headers']).toBe('Content-Type, If-None-Match');
});

test('the card names a reverse-DNS name for any host', () => {
  expect(serverCardName('https://quiz.example.com')).toBe('com.example.quiz/quiz-service');
  expect(serverCardName('http://127.0.0.1:3000')).toBe('1.0.0.127/quiz-service');
  expect(serverCardName('http://[::1]:3000')).toMatch(/^[a-zA-Z0-9.-]+\/quiz-service$/);
});

test("the versions the card names are those server/discover answers, the card's version the server's", async () => {
  const card = JSON.parse((await getCard()).text);
  const res = await postMcp(app, {
    credential: user.apiKey,
    headers: { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'server/discover' },
    body: {
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params: {
        _meta: {
          'io.modelcontextprotocol/protocolVersion': '2026-07-28',
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    },
  });
  const answer = res.headers['content-type']?.startsWith('text/event-stream')
    ? onlyMessage(res.text)
    : JSON.parse(res.text);
  expect(card.remotes[0].supportedProtocolVersions).toEqual(answer.result.supportedVersions);
});

forEachEra((era) => {
  test('a client connects to the endpoint the card names, in a version it lists', async () => {
    const card = JSON.parse((await getCard()).text);
    const client = await era.connect(
      { baseUrl: card.remotes[0].url.replace(/\/api\/mcp$/, '') },
      user.apiKey,
    );
    try {
      expect(card.remotes[0].supportedProtocolVersions).toContain(client.protocolVersion);
    } finally {
      await client.close();
    }
  });
});
