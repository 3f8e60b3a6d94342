// Raw HTTP, as the README's curl examples send it: a request of each protocol era, the Accept
// rules of the 2025 era, every 2025-era version, a malformed Host, and many calls at once.
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import type { AddressInfo } from 'node:net';
import { expectProblem, onlyMessage, postMcp, rawExchange } from '../helpers/http';
import {
  ACCEPT_BOTH,
  createTestUser,
  describeEachDatabase,
  sampleQuestions,
  startTestApp,
  toolCall,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';

const MODERN = '2026-07-28';

/** A 2026-07-28 tools/call as curl sends it: the envelope in params._meta and its headers. */
function modernToolCall(name: string, args: Record<string, unknown>, id: number | string = 1) {
  return {
    headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'tools/call', 'Mcp-Name': name },
    body: {
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name,
        arguments: args,
        _meta: {
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientCapabilities': {},
        },
      },
    },
  };
}

/** The JSON-RPC response of an answer in either framing the spec allows (SSE event or JSON body). */
function answerOf(res: { headers: Record<string, string>; text: string }): any {
  return res.headers['content-type']?.startsWith('text/event-stream')
    ? onlyMessage(res.text)
    : JSON.parse(res.text);
}

describe('raw requests of each era', () => {
  let app: TestApp;
  let user: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    user = await createTestUser(app, 'raw');
  });
  afterAll(async () => {
    await app.close();
  });

  test('2026-07-28: a tools/call with the envelope and its headers gets the tool result', async () => {
    const { headers, body } = modernToolCall('create_quiz', {
      title: 'Modern raw',
      questions: sampleQuestions(),
    });
    const res = await postMcp(app, { credential: user.apiKey, headers, body });
    expect(res.status).toBe(200);
    const answer = answerOf(res);
    expect(answer.id).toBe(1);
    expect(JSON.parse(answer.result.content[0].text)).toMatchObject({ title: 'Modern raw', status: 'draft' });
    expect(answer.result._meta['io.modelcontextprotocol/serverInfo']).toMatchObject({ name: 'quiz-service' });
  });

  test('2026-07-28: server/discover names the modern revision and the tools capability', async () => {
    const res = await postMcp(app, {
      credential: user.apiKey,
      headers: { 'MCP-Protocol-Version': MODERN, 'Mcp-Method': 'server/discover' },
      body: {
        jsonrpc: '2.0',
        id: 'd',
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': MODERN,
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
    });
    expect(res.status).toBe(200);
    const answer = answerOf(res);
    expect(answer.result.supportedVersions).toContain(MODERN);
    expect(answer.result.capabilities.tools).toBeDefined();
  });

  test('2026-07-28 without the Mcp-Method header: the SDK own -32020 passes through unchanged', async () => {
    const { body } = modernToolCall('list_quizzes', {});
    const res = await postMcp(app, {
      credential: user.apiKey,
      headers: { 'MCP-Protocol-Version': MODERN },
      body,
    });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.body.error.code).toBe(-32020);
  });

  test.each([
    ['the spec pair', ACCEPT_BOTH, 'sse'],
    ['*/*, as curl sends', '*/*', 'sse'],
    ['text/*', 'text/*', 'sse'],
    ['no Accept at all', null, 'sse'],
    ['application/json alone', 'application/json', 'json'],
  ])('2025 era with %s: answered as %s', async (_label, accept, framing) => {
    const res = await postMcp(app, {
      credential: user.apiKey,
      accept,
      body: toolCall('list_quizzes', {}, 5),
    });
    expect(res.status).toBe(200);
    if (framing === 'sse') {
      expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
      expect(onlyMessage(res.text).id).toBe(5);
    } else {
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(JSON.parse(res.text)).toMatchObject({
        jsonrpc: '2.0',
        id: 5,
        result: { content: [{ type: 'text' }] },
      });
    }
  });

  test('2025 era: an Accept that rules out JSON and SSE is a 406 problem', async () => {
    const res = await postMcp(app, {
      credential: user.apiKey,
      accept: 'text/html',
      body: toolCall('list_quizzes'),
    });
    expect(res.status).toBe(406);
    expectProblem(res, app.baseUrl, 'not_acceptable');
  });

  test.each(SUPPORTED_PROTOCOL_VERSIONS)(
    '2025 era, version %s: initialize, then a tool call with that header',
    async (version) => {
      const init = await postMcp(app, {
        credential: user.apiKey,
        body: {
          jsonrpc: '2.0',
          id: 0,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
        },
      });
      expect(init.status).toBe(200);
      expect(onlyMessage(init.text).result.protocolVersion).toBe(version);
      const call = await postMcp(app, {
        credential: user.apiKey,
        headers: { 'MCP-Protocol-Version': version },
        body: toolCall('list_quizzes', {}, 9),
      });
      expect(call.status).toBe(200);
      expect(onlyMessage(call.text).result.isError).toBeUndefined();
    },
  );

  test('an unknown tool is an in-band -32602 that lists the tools, in both eras', async () => {
    const legacy = await postMcp(app, { credential: user.apiKey, body: toolCall('list_quizes', {}, 4) });
    expect(legacy.status).toBe(200);
    expect(onlyMessage(legacy.text).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('list_quizzes'),
    });
    const { headers, body } = modernToolCall('list_quizes', {}, 4);
    const modern = await postMcp(app, { credential: user.apiKey, headers, body });
    expect(modern.status).toBe(200);
    expect(answerOf(modern).error).toMatchObject({
      code: -32602,
      message: expect.stringContaining('create_quiz'),
    });
  });

  test.each(['bad host', '[::1', 'x:99999', 'a b:80', ''])(
    'a malformed Host header (%j) is a 400 problem, not a 500',
    async (host) => {
      const { port } = app.server.address() as AddressInfo;
      const body = JSON.stringify(toolCall('list_quizzes'));
      const { reply } = await rawExchange(port, (socket) =>
        socket.end(
          `POST /api/mcp HTTP/1.1\r\nHost: ${host}\r\nAuthorization: Bearer ${user.apiKey}\r\n` +
            `Content-Type: application/json\r\nAccept: ${ACCEPT_BOTH}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
            `Connection: close\r\n\r\n${body}`,
        ),
      );
      expect(reply).toMatch(/^HTTP\/1\.1 400 /);
      expect(reply).toMatch(/content-type: application\/problem\+json/i);
      expect(reply).toMatch(/not a host name with an optional port/);
    },
  );
});

describeEachDatabase('200 concurrent tool calls in each era', (provider) => {
  let app: TestApp;
  let user: TestUser;
  const titles = Array.from({ length: 20 }, (_, i) => `Concurrent quiz ${i}`);

  beforeAll(async () => {
    app = await startTestApp({ provider, config: { rateLimit: { max: 10_000, windowSeconds: 60 } } });
    user = await createTestUser(app, 'many');
    for (const title of titles) {
      const res = await postMcp(app, {
        credential: user.apiKey,
        body: toolCall('create_quiz', {
          title,
          questions: [{ type: 'yes_no', text: `Question of ${title}`, points: 1 }],
        }),
      });
      expect(onlyMessage(res.text).result.isError).toBeUndefined();
    }
  });
  afterAll(async () => {
    await app.close();
  });

  test.each(['legacy', 'modern'] as const)('%s: every call gets its own answer', async (era) => {
    const calls = Array.from({ length: 200 }, (_, i) => {
      const title = titles[i % titles.length]!;
      const request =
        era === 'modern'
          ? modernToolCall('get_quiz_questions', { quiz_id: title }, i)
          : { headers: {}, body: toolCall('get_quiz_questions', { quiz_id: title }, i) };
      return fetch(`${app.baseUrl}/api/mcp`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${user.apiKey}`,
          'Content-Type': 'application/json',
          Accept: ACCEPT_BOTH,
          ...request.headers,
        },
        body: JSON.stringify(request.body),
      }).then(async (res) => ({
        i,
        title,
        status: res.status,
        answer: answerOf({
          headers: { 'content-type': res.headers.get('content-type') ?? '' },
          text: await res.text(),
        }),
      }));
    });
    const answers = await Promise.all(calls);
    for (const { i, title, status, answer } of answers) {
      expect(status).toBe(200);
      expect(answer.id).toBe(i);
      const quiz = JSON.parse(answer.result.content[0].text);
      expect(quiz.title).toBe(title);
      expect(quiz.questions[0].text).toBe(`Question of ${title}`);
    }
  });
});
