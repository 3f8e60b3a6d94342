// /openapi.json and /en/docs/api-reference: generated from the running service's own tool
// table, problem codes and limits; every problem `type` URI lands on its explanation.
import { spawnSync } from 'node:child_process';
import request from 'supertest';
import { squash } from '../dashboard/dashboard-helpers';
import { PROBLEMS } from '../../src/http/problem';
import { TOOLS } from '../../src/mcp/tools';
import { TOOLSET_VERSION } from '../../src/version';
import { ACCEPT_BOTH, createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { describeWithBrowser, launchBrowser } from '../helpers/browser';

/**
 * Validates with @apidevtools/swagger-parser in a child process: its ref parser is an ES
 * module, which Jest's CommonJS runtime cannot load (plain Node 20.19 can).
 */
function validateOpenApi(doc: unknown): { valid: boolean; message: string } {
  const script = `
    let input = '';
    process.stdin.on('data', (chunk) => (input += chunk));
    process.stdin.on('end', () => require('@apidevtools/swagger-parser').validate(JSON.parse(input)).then(
      () => process.stdout.write('valid'),
      (error) => { process.stdout.write(String(error.message)); process.exitCode = 1; }));`;
  const result = spawnSync(process.execPath, ['-e', script], {
    input: JSON.stringify(doc),
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { valid: result.status === 0 && result.stdout === 'valid', message: result.stdout + result.stderr };
}

describe('API description', () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(() => app.close());

  test('/openapi.json is valid OpenAPI 3.1 (checked by a maintained validator) with the tool set version', async () => {
    const res = await request(app.app).get('/openapi.json').expect(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const doc = res.body;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.version).toBe(TOOLSET_VERSION);
    expect(doc.servers).toEqual([{ url: app.baseUrl }]);
    expect(validateOpenApi(doc)).toEqual({ valid: true, message: 'valid' });
    // The validator does reject a broken document: this test can fail.
    expect(validateOpenApi({ ...doc, paths: { '/x': { get: { responses: 'nope' } } } }).valid).toBe(false);
  });

  test('it documents the MCP endpoint with its headers and responses, and the other endpoints', async () => {
    const doc = (await request(app.app).get('/openapi.json')).body;
    const mcp = doc.paths['/api/mcp'].post;
    expect(Object.keys(mcp.responses)).toEqual(expect.arrayContaining(['200', '400', '401', '413', '429']));
    expect(Object.keys(mcp.responses['429'].headers)).toEqual(
      expect.arrayContaining([
        'Retry-After',
        'RateLimit-Policy',
        'RateLimit',
        'RateLimit-Limit',
        'RateLimit-Remaining',
        'RateLimit-Reset',
      ]),
    );
    expect(Object.keys(mcp.responses['200'].content)).toEqual(['text/event-stream', 'application/json']);
    expect(doc.paths['/api/mcp'].get.responses['405']).toBeDefined();
    for (const path of ['/openapi.json', '/en/docs/api-reference', '/healthz'])
      expect(doc.paths[path]).toBeDefined();
    expect(doc.components.schemas.Problem.properties.code.enum).toEqual(Object.keys(PROBLEMS));
    expect(doc['x-mcp-tools'].map((tool: { name: string }) => tool.name)).toEqual(
      TOOLS.map((tool) => tool.name),
    );
  });

  test('the MCP serverInfo.version is the same version', async () => {
    const user = await createTestUser(app);
    const res = await request(app.app)
      .post('/api/mcp')
      .set('Authorization', `Bearer ${user.apiKey}`)
      .set('Accept', ACCEPT_BOTH)
      .send({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 't', version: '1' } },
      });
    expect(res.text).toContain(`"version":"${TOOLSET_VERSION}"`);
  });

  test('the reference page has an anchor for every problem code and every tool, with its arguments', async () => {
    const res = await request(app.app).get('/en/docs/api-reference').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    for (const code of Object.keys(PROBLEMS)) expect(res.text).toContain(`id="error-${code}"`);
    for (const tool of TOOLS) expect(res.text).toContain(`id="tool-${tool.name}"`);
    expect(res.text).toContain('<code>confirm_edit_published</code>');
    expect(res.text).toContain(`curl -s ${app.baseUrl}/api/mcp`);
    expect(res.text).toContain('120 requests per 60-second window');
  });

  test('the reference page has the site header: a way back to the dashboard and home', async () => {
    const page = squash((await request(app.app).get('/en/docs/api-reference').expect(200)).text);
    const header = /<header class="site">(.*?)<\/header>/.exec(page)?.[1] ?? '';
    expect(header).toMatch(/<a href="\/dashboard" ?>Dashboard<\/a>/);
    expect(header).toContain('<a class="brand" href="/">Quiz service</a>');
    expect(header).toContain('<a href="/en/docs/api-reference" aria-current="page">API docs</a>');
    // The dashboard link leads somewhere for everyone: the log-in page when nobody is logged in.
    const dashboard = await request(app.app).get('/dashboard');
    expect(dashboard.status).toBe(303);
    expect(dashboard.headers.location).toMatch(/^\/login/);
  });

  test('every problem the service sends links to an anchor that exists', async () => {
    const page = (await request(app.app).get('/en/docs/api-reference')).text;
    const problems = [
      await request(app.app).get('/nowhere'),
      await request(app.app).get('/api/mcp'),
      await request(app.app)
        .post('/api/mcp')
        .set('Authorization', 'Bearer x')
        .set('Origin', 'https://evil.example')
        .send({}),
    ];
    for (const res of problems) {
      const type: string = JSON.parse(res.text).type;
      expect(type.startsWith(`${app.baseUrl}/en/docs/api-reference#error-`)).toBe(true);
      expect(page).toContain(`id="${type.split('#')[1]}"`);
    }
  });
});

describeWithBrowser('a problem type followed in a browser', () => {
  test('lands on the explanation of its code', async () => {
    const app = await startTestApp();
    const browser = await launchBrowser();
    try {
      const res = await request(app.app).get('/nowhere');
      const page = await browser.newPage();
      await page.goto(JSON.parse(res.text).type);
      const target = page.locator(':target');
      await expect(target.getAttribute('id')).resolves.toBe('error-not_found');
      await expect(target.innerText()).resolves.toContain('not_found');
      expect(await page.locator('#error-not_found + dd').innerText()).toContain('No such endpoint');
    } finally {
      await browser.close();
      await app.close();
    }
  });
});
