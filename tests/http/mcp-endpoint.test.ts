// POST /api/mcp as a plain HTTP client sees it (spec "Transport", "Errors"):
// curl-style requests, Accept negotiation, malformed bodies, other methods and paths.
import http from 'node:http';
import v8 from 'node:v8';
import vm from 'node:vm';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import request from 'supertest';
import { TOOLSET_VERSION } from '../../src/version';
import { expectProblem, onlyMessage, postMcp, rawExchange } from '../helpers/http';
import {
  createTestUser,
  DEFAULT_TOOLS,
  startTestApp,
  toolCall,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';

const TOOLS_LIST = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };

describe('POST /api/mcp as curl uses it', () => {
  let app: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    user = await createTestUser(app, 'curl');
  });
  afterAll(async () => {
    await app.close();
  });

  test('tools/list without initialize: 200 text/event-stream, one `message` event listing the eight tools', async () => {
    const res = await postMcp(app, { credential: user.apiKey, body: TOOLS_LIST });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(res.text).toMatch(/^event: message$/m);
    expect(res.text).toMatch(/^data: \{/m);
    const message = onlyMessage(res.text);
    expect(message).toMatchObject({ jsonrpc: '2.0', id: 1 });
    expect(message.result.tools.map((tool: { name: string }) => tool.name)).toEqual(DEFAULT_TOOLS);
  });

  test('tools/call: content[0] is text holding the same JSON document as structuredContent', async () => {
    const res = await postMcp(app, {
      credential: user.apiKey,
      body: toolCall(
        'create_quiz',
        { title: 'Curl quiz', questions: [{ type: 'yes_no', text: 'Ok?' }] },
        'call-1',
      ),
    });
    expect(res.status).toBe(200);
    const { id, result } = onlyMessage(res.text);
    expect(id).toBe('call-1');
    expect(result.isError).toBeFalsy();
    expect(result.content[0].type).toBe('text');
    const parsed = JSON.parse(result.content[0].text);
    expect(parsed).toEqual(result.structuredContent);
    expect(parsed).toMatchObject({ title: 'Curl quiz', status: 'draft', quiz_id: expect.any(String) });
  });

  test('MCP-Protocol-Version: a supported version is served, an unknown one gets 400 naming the supported ones', async () => {
    const supported = await postMcp(app, {
      credential: user.apiKey,
      body: TOOLS_LIST,
      headers: { 'MCP-Protocol-Version': '2025-06-18' },
    });
    expect(supported.status).toBe(200);
    expect(onlyMessage(supported.text).result.tools).toHaveLength(DEFAULT_TOOLS.length);
    const unknown = await postMcp(app, {
      credential: user.apiKey,
      body: TOOLS_LIST,
      headers: { 'MCP-Protocol-Version': '1999-01-01' },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toMatch(/Unsupported protocol version.*2025-06-18/);
  });

  test('initialize also works and reports the tool set version as serverInfo.version', async () => {
    const res = await postMcp(app, {
      credential: user.apiKey,
      body: {
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'curl', version: '8' },
        },
      },
    });
    expect(res.status).toBe(200);
    const { result } = onlyMessage(res.text);
    expect(result.serverInfo).toEqual({ name: 'quiz-service', version: TOOLSET_VERSION });
    expect(result.capabilities.tools).toBeDefined();
  });

  test.each([
    ['curl default "*/*"', '*/*'],
    ['no Accept header', null],
  ])('Accept: %s still gets the SSE answer', async (_label, accept) => {
    const res = await postMcp(app, { credential: user.apiKey, accept, body: TOOLS_LIST });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
    expect(onlyMessage(res.text).result.tools).toHaveLength(DEFAULT_TOOLS.length);
  });

  // `text/*` covers text/event-stream (RFC 9110 section 12.5.1).
  test('Accept: text/* gets the SSE answer', async () => {
    const res = await postMcp(app, { credential: user.apiKey, accept: 'text/*', body: TOOLS_LIST });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
  });

  test('Accept: application/json only gets one plain JSON-RPC body', async () => {
    const res = await postMcp(app, { credential: user.apiKey, accept: 'application/json', body: TOOLS_LIST });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 1 });
    expect(res.body.result.tools).toHaveLength(DEFAULT_TOOLS.length);
  });

  test('Accept: text/html -> 406 problem whose hint names the Accept header to send', async () => {
    const res = await postMcp(app, { credential: user.apiKey, accept: 'text/html', body: TOOLS_LIST });
    expect(res.status).toBe(406);
    expectProblem(res, app.baseUrl, 'not_acceptable');
    expect(res.body.hint).toContain('Accept: application/json, text/event-stream');
  });

  test('every response carries X-Request-Id: success, 401, 404 and 405', async () => {
    const responses = [
      await postMcp(app, { credential: user.apiKey, body: TOOLS_LIST }),
      await postMcp(app, { credential: null, body: TOOLS_LIST }),
      await request(app.app).get('/nope'),
      await request(app.app).get('/api/mcp'),
    ];
    const ids = responses.map((res) => res.headers['x-request-id']);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{8,128}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  test('a well-formed id from a proxy in front is kept; a malformed one is replaced, not echoed', async () => {
    const kept = await request(app.app).get('/nope').set('X-Request-Id', 'lb-1234abcd');
    expect(kept.headers['x-request-id']).toBe('lb-1234abcd');
    const replaced = await request(app.app).get('/nope').set('X-Request-Id', 'bad id <script>');
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});

describe('POST /api/mcp with a malformed body', () => {
  let app: TestApp;
  let small: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    user = await createTestUser(app, 'bodies');
    small = await startTestApp({ database: app.database, config: { maxBodyBytes: 2048 } });
  });
  afterAll(async () => {
    await small.close();
    await app.close();
  });

  test('invalid JSON -> HTTP 400, JSON-RPC parse error -32700 with id null, never an HTML page', async () => {
    const res = await postMcp(app, {
      credential: user.apiKey,
      body: '{"jsonrpc": "2.0", "id": 1, "method": ',
    });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.text).not.toMatch(/<html|<!DOCTYPE|<pre>/i);
    expect(res.body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: expect.any(String) },
    });
  });

  test.each([
    ['an empty object', {}],
    ['an array', []],
    ['jsonrpc "1.0"', { jsonrpc: '1.0', id: 1, method: 'tools/list', params: {} }],
    ['no method', { jsonrpc: '2.0', id: 1, params: {} }],
    ['params that are not an object', { jsonrpc: '2.0', id: 1, method: 'tools/list', params: 'all' }],
  ])(
    'valid JSON that is not a JSON-RPC request (%s) -> 400 naming jsonrpc, id, method and params',
    async (_label, body) => {
      const res = await postMcp(app, { credential: user.apiKey, body });
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
      for (const field of ['jsonrpc', 'id', 'method', 'params'])
        expect(res.body.error.message).toContain(field);
    },
  );

  test('a body over maxBodyBytes -> 413 problem payload_too_large', async () => {
    const title = 'x'.repeat(4096);
    const res = await postMcp(small, { credential: user.apiKey, body: toolCall('create_quiz', { title }) });
    expect(res.status).toBe(413);
    expectProblem(res, small.baseUrl, 'payload_too_large');
    expect(res.body.detail).toContain('2048');
    // Below the limit the same app serves normally.
    const ok = await postMcp(small, { credential: user.apiKey, body: TOOLS_LIST });
    expect(ok.status).toBe(200);
  });

  // Body-reading errors without a known `type` (zlib's "incorrect header check") are the
  // client's mistake, not an internal error.
  test('a corrupt gzip body -> 400 saying the body could not be read, not a 500', async () => {
    const raw = (body: Buffer) =>
      fetch(`${app.baseUrl}/api/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${user.apiKey}`,
          'Content-Type': 'application/json',
          'Content-Encoding': 'gzip',
          Accept: 'application/json, text/event-stream',
        },
        body,
      });
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'ping' });
    const ok = await raw(gzipSync(ping));
    expect(ok.status).toBe(200);
    expect(onlyMessage(await ok.text())).toEqual({ jsonrpc: '2.0', id: 5, result: {} });

    const corrupt = await raw(Buffer.from(ping));
    expect(corrupt.status).toBe(400);
    expect(corrupt.headers.get('content-type')).toMatch(/json/);
  });

  test('compressed bodies (gzip, deflate, br) are read; the size limit counts the decoded bytes', async () => {
    const send = (target: TestApp, body: Buffer, headers: Record<string, string>) =>
      fetch(`${target.baseUrl}/api/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${user.apiKey}`,
          'Content-Type': 'application/json',
          Accept: 'application/json, text/event-stream',
          ...headers,
        },
        body,
      });
    const list = JSON.stringify(TOOLS_LIST);
    for (const [encoding, encode] of [
      ['gzip', gzipSync],
      ['deflate', deflateSync],
      ['br', brotliCompressSync],
    ] as const) {
      const res = await send(app, encode(list), { 'Content-Encoding': encoding });
      expect(res.status).toBe(200);
      expect(onlyMessage(await res.text()).result.tools).toHaveLength(DEFAULT_TOOLS.length);
    }
    // 200 KB of spaces compress to a few hundred bytes: still over the 2,048-byte limit.
    const bomb = gzipSync(`${' '.repeat(200_000)}${list}`);
    expect(bomb.length).toBeLessThan(2048);
    const refused = await send(small, bomb, { 'Content-Encoding': 'gzip' });
    expect(refused.status).toBe(413);
    expect(refused.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  });

  /**
   * One raw HTTP/1.0 request (its answer ends with the connection): the body in the same
   * write as the headers, so that it is already buffered when the endpoint reads it, or
   * written 50 ms after them, so that it arrives while the endpoint waits for it.
   */
  async function rawPost(body: string, bodyLater: boolean): Promise<{ status: number; answer: unknown }> {
    const { port, host } = new URL(app.baseUrl);
    const payload = Buffer.from(body);
    const head = Buffer.from(
      `POST /api/mcp HTTP/1.0\r\nHost: ${host}\r\nAuthorization: Bearer ${user.apiKey}\r\n` +
        `Content-Type: application/json\r\nAccept: application/json\r\nContent-Length: ${payload.length}\r\n\r\n`,
    );
    const { reply } = await rawExchange(Number(port), (socket) => {
      if (!bodyLater) socket.write(Buffer.concat([head, payload]));
      else {
        socket.write(head);
        setTimeout(() => socket.write(payload), 50);
      }
    });
    return {
      status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(reply)?.[1]),
      answer: JSON.parse(reply.slice(reply.indexOf('\r\n\r\n') + 4)),
    };
  }

  test.each([
    ['a JSON-RPC request', JSON.stringify(TOOLS_LIST), 200, undefined],
    ['a byte-order mark before it', `\uFEFF${JSON.stringify(TOOLS_LIST)}`, 200, undefined],
    ['invalid JSON', '{"jsonrpc": "2.0", "id": 1, "method": ', 400, -32700],
    ['only white space', ' \r\n\t ', 400, -32600],
  ])(
    '%s: the same answer whether the body comes with the headers or after them',
    async (_label, body, status, errorCode) => {
      const withHeaders = await rawPost(body, false);
      const afterHeaders = await rawPost(body, true);
      expect(withHeaders.status).toBe(status);
      expect(afterHeaders).toEqual(withHeaders);
      const answer = withHeaders.answer as { result?: { tools: unknown[] }; error?: { code: number } };
      if (errorCode === undefined) expect(answer.result?.tools).toHaveLength(DEFAULT_TOOLS.length);
      else expect(answer.error?.code).toBe(errorCode);
    },
  );

  test('an idle keep-alive connection does not keep its last request (nor its response) in memory', async () => {
    v8.setFlagsFromString('--expose-gc');
    const gc = vm.runInNewContext('gc') as () => void;
    const requests: Array<WeakRef<http.IncomingMessage>> = [];
    const track = (req: http.IncomingMessage) => requests.push(new WeakRef(req));
    app.server.on('request', track);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const { hostname, port } = new URL(app.baseUrl);
      // Node's client sends the headers and a body given to end() in one write.
      const status = await new Promise<number>((resolve, reject) => {
        http
          .request(
            {
              agent,
              hostname,
              port,
              method: 'POST',
              path: '/api/mcp',
              headers: {
                Authorization: `Bearer ${user.apiKey}`,
                'Content-Type': 'application/json',
                Accept: 'application/json, text/event-stream',
              },
            },
            (res) => {
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            },
          )
          .on('error', reject)
          .end(JSON.stringify(TOOLS_LIST));
      });
      expect(status).toBe(200);
      expect(requests).toHaveLength(1);
      // The connection stays open (the agent keeps it for the next request), idle.
      await new Promise((resolve) => setTimeout(resolve, 50));
      gc();
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      expect(requests[0]!.deref()).toBeUndefined();
    } finally {
      app.server.off('request', track);
      agent.destroy();
    }
  });

  test('a UTF-8 body with a byte-order mark is read like one without', async () => {
    const res = await postMcp(app, { credential: user.apiKey, body: `\uFEFF${JSON.stringify(TOOLS_LIST)}` });
    expect(res.status).toBe(200);
    expect(onlyMessage(res.text).result.tools).toHaveLength(DEFAULT_TOOLS.length);
  });

  test.each([
    ['a charset other than UTF-8', { 'Content-Type': 'application/json; charset=iso-8859-1' }],
    ['an unknown Content-Encoding', { 'Content-Encoding': 'compress' }],
  ])('%s -> 415 problem', async (_label, headers) => {
    const res = await postMcp(app, { credential: user.apiKey, body: TOOLS_LIST, headers });
    expect(res.status).toBe(415);
    expectProblem(res, app.baseUrl, 'unsupported_media_type');
  });

  test('a body that is not JSON (Content-Type: text/plain) -> 415 problem', async () => {
    const res = await postMcp(app, {
      credential: user.apiKey,
      contentType: 'text/plain',
      body: JSON.stringify(TOOLS_LIST),
    });
    expect(res.status).toBe(415);
    expectProblem(res, app.baseUrl, 'unsupported_media_type');
    expect(res.body.hint).toContain('application/json');
  });
});

describe('requests from a web page (DNS rebinding)', () => {
  let app: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    user = await createTestUser(app, 'origin');
  });
  afterAll(async () => {
    await app.close();
  });

  test('a foreign Origin -> 403 problem, even with a valid key; the service’s own origin is served', async () => {
    const foreign = await postMcp(app, {
      credential: user.apiKey,
      headers: { Origin: 'https://evil.example' },
      body: TOOLS_LIST,
    });
    expect(foreign.status).toBe(403);
    expectProblem(foreign, app.baseUrl, 'forbidden');
    expect(foreign.text).not.toContain('event: message');

    const own = await postMcp(app, {
      credential: user.apiKey,
      headers: { Origin: app.baseUrl },
      body: TOOLS_LIST,
    });
    expect(own.status).toBe(200);
  });

  test('with host checking on, a Host header that does not name the service -> 403 problem', async () => {
    const strict = await startTestApp({ database: app.database, config: { enforceHost: true } });
    try {
      const rebound = await postMcp(strict, {
        credential: user.apiKey,
        headers: { Host: 'rebound.example' },
        body: TOOLS_LIST,
      });
      expect(rebound.status).toBe(403);
      expectProblem(rebound, strict.baseUrl, 'forbidden');
      const named = await postMcp(strict, {
        credential: user.apiKey,
        headers: { Host: new URL(strict.baseUrl).host },
        body: TOOLS_LIST,
      });
      expect(named.status).toBe(200);
    } finally {
      await strict.close();
    }
  });
});

describe('other methods and paths', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => {
    await app.close();
  });

  test.each(['get', 'delete'] as const)(
    '%s /api/mcp -> 405 with Allow: POST and a problem body',
    async (method) => {
      const agent = request(app.app);
      const res = await agent[method]('/api/mcp').set('Accept', 'application/json, text/event-stream');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('POST');
      expectProblem(res, app.baseUrl, 'method_not_allowed');
    },
  );

  // GET / is the home page (an HTML page for people); every other unknown path is a problem.
  test.each([
    ['post', '/'],
    ['get', '/nothing-here'],
    ['get', '/api'],
    ['get', '/api/mcp/x'],
    ['post', '/nope'],
  ] as const)(
    '%s %s -> 404 problem not_found with exactly type, title, status, code, detail',
    async (method, path) => {
      const res = await request(app.app)[method](path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
      expect(res.body).toEqual(
        expect.objectContaining({
          type: `${app.baseUrl}/en/docs/api-reference#error-not_found`,
          title: 'Not Found',
          status: 404,
          code: 'not_found',
          detail: expect.stringContaining(path),
        }),
      );
      for (const key of Object.keys(res.body))
        expect(['type', 'title', 'status', 'code', 'detail', 'hint']).toContain(key);
    },
  );
});
