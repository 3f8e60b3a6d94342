// Every route and every tool, driven with a corpus of bad input: NUL bytes, lone surrogates,
// overlong strings, deep JSON, wrong types, bad percent-encoding, corrupt gzip, huge headers,
// duplicate parameters. Whatever comes in, the answer is the client's error (4xx, or a tool
// result that says what to fix), never a 5xx and never our "internal error" text. Limits are
// raised so that the requests reach validation rather than 429. On SQLite, and on PostgreSQL.
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import type { Provider } from '../../src/db/database';
import { csrfFrom, logIn, newAgent, type Agent } from '../dashboard/dashboard-helpers';
import {
  ACCEPT_BOTH,
  createTestUser,
  describeEachDatabase,
  raisedLimits,
  sampleQuestions,
  sseMessages,
  startTestApp,
  toolCall,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';

/** Nested arrays `depth` deep, as JSON text (built as text: no stack is needed to make it). */
const deepJsonText = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
/** Nested objects `depth` deep, as JSON text. */
const deepObjectText = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const deepValue = (depth: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i += 1) value = { nested: value };
  return value;
};

/** Bad text: what a string field may receive. */
const BAD_STRINGS = [
  '',
  '   ',
  '\u0000',
  'before\u0000after',
  '\ud800',
  'lone \udfff surrogate',
  'x'.repeat(70_000),
  '%ff',
  '%00',
  '../../../../etc/passwd',
  "'; DROP TABLE quizzes; --",
  '<script>alert(1)</script>',
  '\u202eevil',
  '🙂'.repeat(3_000),
  'ＡＢＣ',
];

/** Cursors of the right form whose id no row can have: NUL, lone surrogates, overlong, wrong types. */
const cursorOf = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const FORGED_CURSORS = [
  cursorOf([1_700_000_000_000, 'a\u0000b']),
  cursorOf([1_700_000_000_000, '\ud800']),
  cursorOf([1_700_000_000_000, 'lone \udfff']),
  cursorOf([1_700_000_000_000, 'x'.repeat(300)]),
  cursorOf([1_700_000_000_000, "' OR 1=1 --"]),
  cursorOf([8.64e15 + 1, 'abc']),
  cursorOf([1_700_000_000_000, { id: 'abc' }]),
  cursorOf('[1700000000000,"abc"'),
  'A'.repeat(400),
];

/** Bad values of any type, for any argument. */
const BAD_VALUES: unknown[] = [
  ...BAD_STRINGS,
  null,
  true,
  0,
  -1,
  1.5,
  2 ** 53,
  -(2 ** 53),
  1e308,
  [],
  [null],
  [[[[[]]]]],
  {},
  JSON.parse('{"__proto__":{"admin":true},"constructor":{"prototype":{}}}'),
  deepValue(200),
];

/** What a tool says when it failed on our side (its HTTP status is still 200). */
const INTERNAL = /because of an internal error|cannot reach its database/;

interface Finding {
  what: string;
  status: number;
  text: string;
}

describeEachDatabase('fuzz: bad input never answers 5xx', (provider: Provider) => {
  let app: TestApp;
  let owner: TestUser;
  let agent: Agent;
  let csrf: string;
  let quizId: string;
  let slug: string;
  let responseId: string;
  let keyId: string;
  const findings: Finding[] = [];
  /** Tool calls answered by the tool itself (HTTP 200, a result), not refused at the door. */
  let toolAnswers = 0;

  async function expectClientError(
    what: string,
    test: request.Test | Promise<request.Response>,
    tool = false,
  ): Promise<void> {
    let res: request.Response;
    try {
      res = await test;
    } catch (error) {
      // Node refused to send it (e.g. an invalid header character): nothing reached the service.
      if (error instanceof TypeError) return;
      throw error;
    }
    const text = res.text ?? '';
    if (tool && res.status === 200 && text.includes('"result"')) toolAnswers += 1;
    if (res.status >= 500 || (tool && INTERNAL.test(text))) {
      findings.push({ what, status: res.status, text: text.slice(0, 300) });
    }
  }

  const mcp = (body: unknown, headers: Record<string, string> = {}) =>
    request(app.app)
      .post('/api/mcp')
      .set('Accept', ACCEPT_BOTH)
      .set('Authorization', `Bearer ${owner.apiKey}`)
      .set(headers)
      .send(body as object);

  beforeAll(async () => {
    app = await startTestApp({ provider, config: raisedLimits() });
    owner = await createTestUser(app, 'fuzz-owner');
    agent = newAgent(app);
    expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
    csrf = csrfFrom((await agent.get('/settings/security/api-keys')).text);

    const created = sseMessages(
      (await mcp(toolCall('create_quiz', { title: 'Fuzz target', questions: sampleQuestions() }))).text,
    )[0].result.structuredContent;
    quizId = created.quiz_id;
    slug = created.slug;
    await mcp(toolCall('publish_quiz', { quiz_id: quizId }));
    const questions = sseMessages((await mcp(toolCall('get_quiz_questions', { quiz_id: quizId }))).text)[0]
      .result.structuredContent.questions;
    const submitted = await request(app.app)
      .post(`/api/quizzes/${slug}/responses`)
      .send({
        respondent: { name: 'Fuzz' },
        answers: [
          { question_id: questions[0].question_id, answer: 'yes' },
          { question_id: questions[1].question_id, option_index: 0 },
        ],
      });
    responseId = submitted.body.response_id;
    keyId = (await app.database.prisma.apiKey.findFirstOrThrow({ where: { userId: owner.id } })).id;
  });
  afterAll(async () => {
    await app.close();
  });

  test('every tool, with a bad value in each argument and for the arguments as a whole', async () => {
    const listed = sseMessages(
      (await mcp({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} })).text,
    )[0].result.tools as Array<{ name: string; inputSchema: { properties?: Record<string, unknown> } }>;
    expect(listed.length).toBeGreaterThanOrEqual(8);
    // A valid call of each tool, that the bad value then spoils one field at a time. Nothing here
    // confirms a deletion: the target quiz must survive the run.
    // delete_quiz aims at a decoy: `confirm: true` is among the values, and would delete it.
    const decoy = sseMessages(
      (await mcp(toolCall('create_quiz', { title: 'Decoy', questions: sampleQuestions() }))).text,
    )[0].result.structuredContent.quiz_id as string;
    const base: Record<string, Record<string, unknown>> = {
      delete_quiz: { quiz_id: decoy },
      create_quiz: { title: 'Fuzzed', questions: sampleQuestions() },
      update_quiz: { quiz_id: quizId, title: 'Renamed' },
      list_quizzes: {},
    };
    let calls = 0;
    for (const tool of listed) {
      const valid = base[tool.name] ?? { quiz_id: quizId };
      for (const field of Object.keys(tool.inputSchema.properties ?? {})) {
        for (const bad of BAD_VALUES) {
          calls += 1;
          await expectClientError(
            `${tool.name}.${field} = ${JSON.stringify(bad)?.slice(0, 40)}`,
            mcp(toolCall(tool.name, { ...valid, [field]: bad })),
            true,
          );
        }
      }
      for (const args of [null, [], 'text', 42, deepValue(500), { unknown_field: 1 }]) {
        calls += 1;
        await expectClientError(
          `${tool.name} arguments = ${JSON.stringify(args)?.slice(0, 40)}`,
          mcp({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: tool.name, arguments: args } }),
          true,
        );
      }
    }
    // Inside a question and an option, where most of the text lives.
    for (const bad of BAD_VALUES) {
      for (const question of [
        { type: 'yes_no', text: bad, points: 1 },
        { type: 'yes_no', text: 'Fine?', points: bad },
        { type: bad, text: 'Fine?', points: 1 },
        { type: 'multiple_choice', text: 'Pick', options: bad },
        {
          type: 'multiple_choice',
          text: 'Pick',
          options: [
            { label: bad, score: 1 },
            { label: 'B', score: 0 },
          ],
        },
        {
          type: 'multiple_choice',
          text: 'Pick',
          options: [
            { label: 'A', score: bad },
            { label: 'B', score: 0 },
          ],
        },
      ]) {
        calls += 1;
        await expectClientError(
          `create_quiz question ${JSON.stringify(question).slice(0, 60)}`,
          mcp(toolCall('create_quiz', { title: 'Q', questions: [question] })),
          true,
        );
      }
      calls += 1;
      await expectClientError(
        `update_quiz settings.pass_mark_percent = ${String(bad).slice(0, 30)}`,
        mcp(toolCall('update_quiz', { quiz_id: quizId, settings: { pass_mark_percent: bad } })),
        true,
      );
    }
    expect(calls).toBeGreaterThan(500);
    // The corpus reached the tools' validation, not just the endpoint's door.
    expect(toolAnswers).toBeGreaterThan(calls * 0.9);
    expect(findings).toEqual([]);
    // The run deleted nothing it was not asked to.
    expect(await app.database.prisma.quiz.count({ where: { id: quizId } })).toBe(1);
  }, 180_000);

  test('forged cursors: a clear refusal from every tool and page that pages, never a 5xx', async () => {
    for (const cursor of FORGED_CURSORS) {
      for (const [tool, args] of [
        ['list_quizzes', { cursor }],
        ['get_results', { quiz_id: quizId, cursor }],
      ] as const) {
        const res = await mcp(toolCall(tool, args));
        const result = sseMessages(res.text)[0].result;
        expect({ tool, cursor, isError: result.isError }).toEqual({ tool, cursor, isError: true });
        expect(result.content[0].text).toMatch(/cursor: not a cursor this tool gave out/);
      }
      for (const path of [
        `/dashboard/quizzes?after=${cursor}`,
        `/dashboard/quizzes/${quizId}/results/responses?after=${cursor}`,
      ]) {
        const res = await agent.get(path);
        expect({ path, status: res.status }).toEqual({ path, status: 400 });
      }
    }
  });

  test('the MCP endpoint itself: broken JSON-RPC, deep JSON, junk headers', async () => {
    const raw = (body: string, headers: Record<string, string> = {}) =>
      request(app.app)
        .post('/api/mcp')
        .set('Accept', ACCEPT_BOTH)
        .set('Authorization', `Bearer ${owner.apiKey}`)
        .set('Content-Type', 'application/json')
        .set(headers)
        .send(body);
    const bodies = [
      '{"jsonrpc":',
      deepJsonText(100_000),
      `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":${deepJsonText(5_000)}}`,
      // Nesting inside params and inside a tool's arguments, where the message itself is well formed.
      `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"x":${deepObjectText(5_000)}}}`,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_quizzes","arguments":{"cursor":${deepObjectText(5_000)}}}}`,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"create_quiz","arguments":{"title":"T","questions":[${deepJsonText(100_000)}]}}}`,
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_quizzes","arguments":{},"_meta":${deepObjectText(100_000)}}}`,
      '"a string"',
      'null',
      '[]',
      '[{"jsonrpc":"2.0","id":1,"method":"tools/list"}]',
      '{"jsonrpc":"2.0","id":{"x":1},"method":"tools/list"}',
      '{"jsonrpc":"2.0","id":1,"method":"\\u0000"}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"\\ud800"}}',
      '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"list_quizzes","arguments":{"cursor":"\\u0000"}}}',
      '\ufeff{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
      'x'.repeat(2_000_000),
    ];
    for (const body of bodies) await expectClientError(`mcp body ${body.slice(0, 40)}`, raw(body), true);
    // The nested bodies again as the 2026-07-28 era sends them.
    const modern = {
      'MCP-Protocol-Version': '2026-07-28',
      'Mcp-Method': 'tools/call',
      'Mcp-Name': 'list_quizzes',
    };
    for (const body of bodies.filter((text) => text.length > 10_000)) {
      await expectClientError(`mcp 2026-07-28 body ${body.slice(0, 40)}`, raw(body, modern), true);
    }
    const headerSets: Array<Record<string, string>> = [
      { 'MCP-Protocol-Version': 'junk' },
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'junk' },
      { 'MCP-Protocol-Version': '2026-07-28', 'Mcp-Method': 'tools/call', 'Mcp-Name': '%ff' },
      { Accept: 'junk/junk' },
      { 'Content-Type': 'application/json; charset=utf-16' },
      { 'Content-Encoding': 'gzip' },
      { Authorization: `Bearer ${'x'.repeat(10_000)}` },
      { Authorization: 'Basic %%%' },
      { Origin: 'null' },
      { 'X-Forwarded-For': '%ff, ::::, 999.1.1.1' },
    ];
    for (const headers of headerSets) {
      await expectClientError(
        `mcp headers ${JSON.stringify(headers).slice(0, 60)}`,
        raw('{"jsonrpc":"2.0","id":1,"method":"tools/list"}', headers),
      );
    }
    expect(findings).toEqual([]);
  }, 60_000);

  test('every route, with bad paths, query strings, bodies and headers', async () => {
    const routes: Array<[method: 'GET' | 'POST', path: string]> = [
      ['GET', '/'],
      ['GET', '/healthz'],
      ['GET', '/readyz'],
      ['GET', '/metrics'],
      ['GET', '/openapi.json'],
      ['GET', '/en/docs/api-reference'],
      ['GET', '/assets/:name'],
      ['GET', '/.well-known/oauth-protected-resource/api/mcp'],
      ['GET', '/.well-known/oauth-authorization-server'],
      ['GET', '/.well-known/openid-configuration'],
      ['GET', '/oauth/authorize'],
      ['POST', '/oauth/authorize'],
      ['POST', '/oauth/token'],
      ['POST', '/oauth/register'],
      ['POST', '/oauth/revoke'],
      ['GET', '/q/:slug'],
      ['POST', '/q/:slug'],
      ['GET', '/q/:slug/r/:responseId'],
      ['POST', '/api/quizzes/:slug/responses'],
      ['GET', '/signup'],
      ['POST', '/signup'],
      ['GET', '/login'],
      ['POST', '/login'],
      ['GET', '/logout'],
      ['POST', '/logout'],
      ['GET', '/dashboard'],
      ['GET', '/dashboard/quizzes/:quizId'],
      ['GET', '/dashboard/quizzes/:quizId/responses.csv'],
      ['GET', '/dashboard/quizzes/:quizId/results/summary'],
      ['GET', '/dashboard/quizzes/:quizId/results/items'],
      ['GET', '/dashboard/quizzes/:quizId/results/responses'],
      ['GET', '/dashboard/quizzes/:quizId/responses/:responseId'],
      ['GET', '/dashboard/quizzes/:quizId/responses/:responseId/delete'],
      ['POST', '/dashboard/quizzes/:quizId/responses/:responseId/delete'],
      ['GET', '/settings'],
      ['GET', '/settings/security/api-keys'],
      ['POST', '/settings/security/api-keys'],
      ['POST', '/settings/security/api-keys/:keyId/revoke'],
      ['GET', '/settings/connected-apps'],
      ['POST', '/settings/connected-apps/:appId/revoke'],
    ];
    const real: Record<string, string> = {
      name: 'style.css',
      slug,
      responseId,
      quizId,
      keyId,
      appId: 'no-such-app',
    };
    const badSegments = [
      '%ff',
      '%00',
      '%C0%AF',
      '..%2F..%2Fetc',
      'x'.repeat(5_000),
      '%E2%80%AE',
      "'",
      '%ud800',
    ];
    const fill = (path: string, bad?: string) =>
      path.replace(/:(\w+)/g, (_m, name: string) => bad ?? real[name] ?? 'x');
    const queries = [
      '?returnTo=%ff',
      '?returnTo=//evil.example&returnTo=/x',
      '?returnTo[]=x',
      '?after=%00&after=x',
      '?responses=not-a-cursor',
      '?after=not-a-cursor',
      '?order[]=flags',
      '?responses[x]=1',
      '?cursor=\u0000',
      `?${'a'.repeat(8_000)}=1`,
      '?client_id=%ff&redirect_uri=javascript:alert(1)&response_type=code&scope=%00',
      '?client_id=https://[::1]/x&response_type=code&code_challenge=x&code_challenge_method=S256',
      '?%=%&&&==',
    ];
    const bodies: Array<[contentType: string, body: string | Buffer, extra?: Record<string, string>]> = [
      ['application/json', '{"a":'],
      ['application/json', deepJsonText(100_000)],
      ['application/json', '"just a string"'],
      ['application/json', 'null'],
      [
        'application/json',
        '{"respondent":{"name":"\\u0000"},"answers":[{"question_id":"\\ud800","option_index":1e400}]}',
      ],
      ['application/json', '\ufeff{}'],
      ['application/json', 'x'.repeat(2_000_000)],
      ['application/json', gzipSync('{"a":1}').subarray(0, 10), { 'Content-Encoding': 'gzip' }],
      ['application/json', 'not gzip at all', { 'Content-Encoding': 'gzip' }],
      ['application/json', '{}', { 'Content-Encoding': 'br, snappy' }],
      ['application/json; charset=utf-16', '{}'],
      [
        'application/x-www-form-urlencoded',
        'email=%ff&password=%00&returnTo=%2F%2Fevil&name=a&name=b&_csrf=CSRF',
      ],
      ['application/x-www-form-urlencoded', 'a[b][c][d][e][f][g]=1&_csrf=CSRF&email[]=x&password[x]=y'],
      ['application/x-www-form-urlencoded', `${'field=x&'.repeat(2_000)}_csrf=CSRF`],
      ['application/x-www-form-urlencoded', 'name=%00&email=%ED%A0%80&_csrf=CSRF'],
      ['application/x-www-form-urlencoded', `name=${'x'.repeat(100_000)}&_csrf=CSRF`],
      ['text/plain', 'hello'],
      [
        'multipart/form-data; boundary=x',
        '--x\r\nContent-Disposition: form-data; name="a"\r\n\r\n1\r\n--x--',
      ],
    ];
    const headerSets: Array<Record<string, string>> = [
      { Cookie: `quiz_session=${'x'.repeat(20_000)}` },
      { Cookie: 'quiz_session=%ff; quiz_csrf=%00' },
      { Authorization: 'Bearer \u00ff\u00fe' },
      { 'Accept-Language': 'x'.repeat(5_000) },
      { Accept: '*/*;q=junk' },
      { Host: 'evil.example' },
      { 'If-None-Match': '"x"' },
      { Range: 'bytes=99999999-' },
    ];

    let sent = 0;
    const send = (method: 'GET' | 'POST', path: string, who: Agent | request.Agent) =>
      method === 'GET' ? who.get(path) : who.post(path);
    for (const [method, template] of routes) {
      // As the owner (past log-in and CSRF, so that validation is reached) and as a stranger.
      for (const who of [agent, request.agent(app.app)]) {
        for (const bad of badSegments.filter(() => template.includes(':'))) {
          sent += 1;
          await expectClientError(
            `${method} ${fill(template, bad).slice(0, 80)}`,
            send(method, fill(template, bad), who),
          );
        }
        for (const query of queries) {
          sent += 1;
          await expectClientError(
            `${method} ${template}${query.slice(0, 60)}`,
            send(method, fill(template) + query, who),
          );
        }
        for (const headers of headerSets) {
          sent += 1;
          await expectClientError(
            `${method} ${template} ${JSON.stringify(headers).slice(0, 60)}`,
            send(method, fill(template), who).set(headers),
          );
        }
        if (method !== 'POST') continue;
        for (const [contentType, body, extra] of bodies) {
          sent += 1;
          const payload = typeof body === 'string' ? body.replace(/CSRF/g, csrf) : body;
          await expectClientError(
            `POST ${template} ${contentType} ${String(body).slice(0, 40)}`,
            send(method, fill(template), who)
              .set('Content-Type', contentType)
              .set(extra ?? {})
              .send(payload),
          );
        }
      }
    }
    expect(sent).toBeGreaterThan(1_000);
    expect(findings).toEqual([]);
  }, 240_000);
});
