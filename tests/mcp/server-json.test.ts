// The repository's server.json, the service's entry for the MCP Registry: valid against the
// registry's schema (tests/fixtures/server-json/), exactly what `npm run server-json` writes for the
// README's example host, and saying what the served server card says of the same deployment.
import fs from 'node:fs';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import request from 'supertest';
import schema from '../fixtures/server-json/server.schema.json';
import path from 'node:path';
import { EXAMPLE_BASE_URL, serverJsonText } from '../../scripts/server-json';
import { serverCard } from '../../src/mcp/server-card';
import { TOOLSET_VERSION } from '../../src/version';
import { startTestApp, type TestApp } from '../helpers/test-app';

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats(ajv);
const validEntry = ajv.compile(schema);
const kept = fs.readFileSync(path.join(__dirname, '..', '..', 'server.json'), 'utf8');
const entry = JSON.parse(kept);

test('server.json is valid against the registry schema', () => {
  expect({ valid: validEntry(entry), errors: validEntry.errors ?? null }).toEqual({
    valid: true,
    errors: null,
  });
});

test('the schema refuses an entry a registry would refuse, so the check above can fail', () => {
  expect(validEntry({ ...entry, name: 'no-namespace' })).toBe(false);
  expect(validEntry({ ...entry, description: 'x'.repeat(101) })).toBe(false);
  const { version: _version, ...unversioned } = entry;
  expect(validEntry(unversioned)).toBe(false);
});

test('server.json is what npm run server-json writes, at the tool set version', () => {
  // When this fails after a version bump: run `npm run server-json` and commit server.json.
  expect(kept).toBe(serverJsonText(EXAMPLE_BASE_URL));
  expect(entry.version).toBe(TOOLSET_VERSION);
});

describe('beside the server card', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app?.close();
  });

  test('a deployment serves a card that says what its server.json says', async () => {
    const served = JSON.parse((await request(app.app).get('/api/mcp/server-card')).text);
    const own = JSON.parse(serverJsonText(app.baseUrl));
    for (const field of ['name', 'version', 'title', 'description', 'websiteUrl'])
      expect([field, own[field]]).toEqual([field, served[field]]);
    const { supportedProtocolVersions, ...remote } = served.remotes[0];
    expect(own.remotes).toEqual([remote]);
    expect(supportedProtocolVersions.length).toBeGreaterThan(0);
    // The card is a function of the base URL alone, so the example host's card matches server.json.
    expect(serverCard(EXAMPLE_BASE_URL)).toMatchObject({
      name: entry.name,
      remotes: [{ url: entry.remotes[0].url }],
    });
  });
});
