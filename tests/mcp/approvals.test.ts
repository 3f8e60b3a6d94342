// Approvals the teacher gives in the client (ask_person: true), through the real door: the v2
// client in the 2026-07-28 era shows the teacher the grades in a form (approve all, some, none,
// cancel); a URL-mode-only client is sent to the grading page; a 2025 client that declared URL
// mode gets -32042; an API key and any other client get the page's link. An approval cannot be
// made up: forged, replayed, expired, foreign and unasked-for answers are refused, nothing changed.
import {
  Client as ClientV2,
  StreamableHTTPClientTransport as TransportV2,
} from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import request from 'supertest';
import { z } from 'zod';
import { createLogger } from '../../src/logger';
import { movableClock } from '../helpers/clock';
import { memoryLog } from '../helpers/memory-log';
import { clearPrefix, connectRedis, describeWithRedis, uniquePrefix, type TestRedis } from '../helpers/redis';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { connectAnyClient, errorText, payload, type ToolResult } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  startTwoInstances,
  type TwoInstances,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { connectApp, loggedInAgent, registerPublicClient } from '../oauth/oauth-helpers';

type Elicit = { mode?: string; message: string; requestedSchema?: any; url?: string };
type Reply = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

const ESSAY = { type: 'essay', text: 'Explain photosynthesis.', points: 5 };
const ANY = z.looseObject({});

let app: TestApp;

/** A teacher with an OAuth token of a client registered as `name`, and a quiz of essays answered `count` times. */
async function teacher(name = 'Classroom Assistant') {
  const { agent, user } = await loggedInAgent(app, 'approver');
  const registered = await registerPublicClient(app, { client_name: name });
  const { tokens } = await connectApp(app, agent, { client: registered });
  return { agent, user, token: tokens.access_token };
}

/** The v2 client pinned to 2026-07-28, declaring `elicitation` as given, answering with `reply`. */
async function modernClient(
  credential: string,
  elicitation: Record<string, unknown> | undefined,
  reply: (params: Elicit) => Reply = () => ({ action: 'cancel' }),
  baseUrl = app.baseUrl,
) {
  const client = new ClientV2(
    { name: 'approval-tests', version: '1.0.0' },
    {
      capabilities: (elicitation ? { elicitation } : {}) as any,
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  const asked: Elicit[] = [];
  if (elicitation)
    client.setRequestHandler('elicitation/create', async (req) => {
      const params = req.params as unknown as Elicit;
      asked.push(params);
      return reply(params) as any;
    });
  await client.connect(
    new TransportV2(new URL(`${baseUrl}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${credential}` } },
    }),
  );
  expect(client.getProtocolEra()).toBe('modern');
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  /** One round by hand: the input-required result itself, or a retry carrying what we choose. */
  const raw = (params: Record<string, unknown>) =>
    client.request({ method: 'tools/call', params } as any, ANY, {
      allowInputRequired: true,
    } as any) as Promise<Record<string, any>>;
  return { client, asked, call, raw };
}

async function essayQuiz(credential: string, answers: string[]) {
  const { call, client } = await modernClient(credential, undefined);
  const quiz = payload(await call('create_quiz', { title: 'Essays to approve', questions: [ESSAY] }));
  payload(await call('publish_quiz', { quiz_id: quiz.quiz_id }));
  for (const text of answers)
    await request(app.app)
      .post(`/api/quizzes/${quiz.slug}/responses`)
      .send({ respondent: { name: 'R' }, answers: [{ question_id: quiz.questions[0].question_id, text }] })
      .expect(201);
  const page = payload(await call('get_answers_to_grade', { quiz_id: quiz.quiz_id }));
  await client.close();
  return { quizId: quiz.quiz_id as string, answerIds: page.answers.map((a: any) => a.answer_id as string) };
}

const gradesFor = (answerIds: string[]) =>
  answerIds.map((answer_id, i) => ({ answer_id, points: i + 2, feedback: `Feedback ${i + 1}` }));

async function states(answerIds: string[]) {
  const grades = await app.database.repos.responses.answerGrades(answerIds);
  const byId = new Map(grades.map((g) => [g.answerId, g]));
  return answerIds.map((id) => byId.get(id));
}

describeEachDatabase('approvals in the client', (provider) => {
  const log = memoryLog();
  beforeAll(async () => {
    app = await startTestApp({ provider, logger: createLogger('trace', log.stream) });
  });
  afterAll(() => app.close());

  describe('grade_answers with ask_person in the 2026-07-28 era, form elicitation', () => {
    test('approve all: the teacher sees each grade and feedback; all final, recorded as client_form with the client name', async () => {
      const { token, agent } = await teacher('Classroom Assistant');
      const { quizId, answerIds } = await essayQuiz(token, ['Light to sugar.', 'Plants eat sun.']);
      const { call, asked } = await modernClient(token, { form: {} }, (params) => ({
        action: 'accept',
        content: Object.fromEntries(Object.keys(params.requestedSchema.properties).map((k) => [k, true])),
      }));
      const answer = payload(await call('grade_answers', { grades: gradesFor(answerIds), ask_person: true }));
      expect(asked).toHaveLength(1);
      const fields = Object.values(asked[0]!.requestedSchema.properties) as any[];
      expect(fields.map((f) => f.title)).toEqual(['Q1: 2/5', 'Q1: 3/5']);
      expect(fields[0].description).toContain('Light to sugar.');
      expect(fields[0].description).toContain('Feedback 1');
      expect(answer.approval).toEqual({ asked: 'client_form', outcome: 'approved', approved: 2 });
      expect(answer.grades.map((g: any) => g.stored)).toEqual(['final', 'final']);
      expect(answer.grading_url).toBeUndefined();
      const stored = await states(answerIds);
      expect(stored.map((g) => [g?.state, g?.approvedVia, g?.approvedClient, g?.approvedBy])).toEqual([
        ['final', 'client_form', 'Classroom Assistant', 'teacher'],
        ['final', 'client_form', 'Classroom Assistant', 'teacher'],
      ]);
      // The web shows both: where it was approved, and the client's registered name.
      const responseId = answer.grades[0].response_id;
      const page = await agent.get(
        `/dashboard/quizzes/${quizId}/responses/${responseId}/answers/${answerIds[0]}/override`,
      );
      expect(page.status).toBe(200);
      expect(page.text).toMatch(
        /Approved by the teacher in <bdi>Classroom Assistant<\/bdi> \(approved_via:\s+client_form\)/,
      );
    });
  });

  describe('grade_answers with ask_person: some, none, and the other clients', () => {
    test('approve some: only the ticked grades become final; the others stay proposals with the link', async () => {
      const { token } = await teacher();
      const { answerIds } = await essayQuiz(token, ['One.', 'Two.', 'Three.']);
      const { call } = await modernClient(token, {}, () => ({
        action: 'accept',
        content: { a1: true, a2: false, a3: true },
      }));
      const answer = payload(await call('grade_answers', { grades: gradesFor(answerIds), ask_person: true }));
      expect(answer.grades.map((g: any) => g.stored)).toEqual(['final', 'proposed', 'final']);
      expect(answer.approval).toEqual({ asked: 'client_form', outcome: 'approved', approved: 2 });
      expect(answer.grading_url).toMatch(/\/dashboard\/quizzes\/.+\/grading$/);
      expect((await states(answerIds)).map((g) => g?.state)).toEqual(['final', 'proposed', 'final']);
    });

    test.each(['decline', 'cancel'] as const)(
      '%s: every grade stays a proposal, with the link',
      async (action) => {
        const { token } = await teacher();
        const { answerIds } = await essayQuiz(token, ['One.', 'Two.']);
        const { call, asked } = await modernClient(token, { form: {} }, () => ({ action }));
        const answer = payload(
          await call('grade_answers', { grades: gradesFor(answerIds), ask_person: true }),
        );
        expect(asked).toHaveLength(1);
        expect(answer.approval).toEqual({
          asked: 'client_form',
          outcome: action === 'decline' ? 'declined' : 'cancelled',
          approved: 0,
        });
        expect(answer.grades.map((g: any) => g.stored)).toEqual(['proposed', 'proposed']);
        expect(answer.grading_url).toContain('/grading');
        expect((await states(answerIds)).map((g) => [g?.state, g?.approvedVia])).toEqual([
          ['proposed', null],
          ['proposed', null],
        ]);
      },
    );

    test('without ask_person nothing is asked: proposals are stored, with the link', async () => {
      const { token } = await teacher();
      const { answerIds } = await essayQuiz(token, ['One.']);
      const { call, asked } = await modernClient(token, { form: {} }, () => ({
        action: 'accept',
        content: { a1: true },
      }));
      const answer = payload(await call('grade_answers', { grades: gradesFor(answerIds) }));
      expect(asked).toHaveLength(0);
      expect(answer.grades[0].stored).toBe('proposed');
      expect(answer.approval).toBeUndefined();
      expect(answer.grading_url).toContain('/grading');
    });

    test('a client that declares URL mode only is sent to the grading page; nothing becomes final', async () => {
      const { token } = await teacher();
      const { quizId, answerIds } = await essayQuiz(token, ['One.']);
      const { call, asked } = await modernClient(token, { url: {} }, () => ({ action: 'accept' }));
      const answer = payload(await call('grade_answers', { grades: gradesFor(answerIds), ask_person: true }));
      expect(asked).toHaveLength(1);
      expect(asked[0]!.mode).toBe('url');
      expect(asked[0]!.url).toBe(`${app.baseUrl}/dashboard/quizzes/${quizId}/grading`);
      expect(answer.approval).toEqual({ asked: 'client_url', outcome: 'sent', approved: 0 });
      expect((await states(answerIds))[0]?.state).toBe('proposed');
      // The address grants nothing by itself: without the teacher's web session it leads to the log-in.
      const page = await request(app.app).get(new URL(asked[0]!.url!).pathname);
      expect(page.status).toBe(303);
      expect(page.headers.location).toContain('/login');
    });

    test('an API key never gets the form: the link in the answer', async () => {
      const user: TestUser = await createTestUser(app, 'key-approver');
      const { answerIds } = await essayQuiz(user.apiKey, ['One.']);
      const { call, asked } = await modernClient(user.apiKey, { form: {} }, () => ({
        action: 'accept',
        content: { a1: true },
      }));
      const answer = payload(await call('grade_answers', { grades: gradesFor(answerIds), ask_person: true }));
      expect(asked).toHaveLength(0);
      expect(answer.approval).toEqual({ asked: 'link', outcome: 'not_asked', approved: 0 });
      expect(answer.grading_url).toContain('/grading');
      expect((await states(answerIds))[0]?.state).toBe('proposed');
    });

    test('the 2025 era: a client that declared URL mode gets -32042 with the page; any other gets the link', async () => {
      const { token } = await teacher();
      const { quizId, answerIds } = await essayQuiz(token, ['One.', 'Two.']);
      const url = new URL(`${app.baseUrl}/api/mcp`);
      const requestInit = { headers: { Authorization: `Bearer ${token}` } };
      const plain = await connectAnyClient('v1 (2025)', app.baseUrl, token);
      const linked = payload(
        await plain.callTool('grade_answers', { grades: gradesFor(answerIds).slice(0, 1), ask_person: true }),
      );
      expect(linked.approval).toEqual({ asked: 'link', outcome: 'not_asked', approved: 0 });
      expect(linked.grading_url).toBe(`${app.baseUrl}/dashboard/quizzes/${quizId}/grading`);
      await plain.close();

      const v1 = new ClientV1(
        { name: 'url-client', version: '1' },
        { capabilities: { elicitation: { url: {} } } as any },
      );
      await v1.connect(new TransportV1(url, { requestInit }));
      const refused = await v1
        .callTool({ name: 'grade_answers', arguments: { grades: gradesFor(answerIds), ask_person: true } })
        .then(
          () => undefined,
          (error: { code?: number; data?: any }) => error,
        );
      expect(refused?.code).toBe(-32042);
      expect(refused?.data.elicitations[0]).toMatchObject({
        mode: 'url',
        url: `${app.baseUrl}/dashboard/quizzes/${quizId}/grading`,
      });
      // The proposals were stored; nothing is final.
      expect((await states(answerIds)).map((g) => g?.state)).toEqual(['proposed', 'proposed']);
      await v1.close();
    });
  });

  describe('an approval cannot be made up', () => {
    /** Round one by hand: the state and form the server asked with. */
    async function asked(credential: string, answerIds: string[]) {
      const modern = await modernClient(credential, { form: {} });
      const first = await modern.raw({
        name: 'grade_answers',
        arguments: { grades: gradesFor(answerIds), ask_person: true },
      });
      expect(first.resultType).toBe('input_required');
      expect(typeof first.requestState).toBe('string');
      expect(Object.keys(first.inputRequests)).toEqual(['approve']);
      return { ...modern, state: first.requestState as string };
    }
    const retry = (
      answerIds: string[],
      requestState: string | undefined,
      content: Record<string, unknown>,
    ) => ({
      name: 'grade_answers',
      arguments: { grades: gradesFor(answerIds), ask_person: true },
      ...(requestState === undefined ? {} : { requestState }),
      inputResponses: { approve: { action: 'accept', content } },
    });
    const refusal = (result: Record<string, any>) => errorText(result as ToolResult);

    test('a forged state (edited, or made up) is refused and changes nothing', async () => {
      const { token } = await teacher();
      const { answerIds } = await essayQuiz(token, ['One.']);
      const { raw, state } = await asked(token, answerIds);
      const [prefix, body, mac] = state.split('.');
      const decoded = JSON.parse(Buffer.from(body!, 'base64url').toString());
      decoded.p.answers = ['someone-else'];
      const edited = `${prefix}.${Buffer.from(JSON.stringify(decoded)).toString('base64url')}.${mac}`;
      for (const forged of [edited, 'v1.e30.AAAA', 'anything']) {
        expect(refusal(await raw(retry(answerIds, forged, { a1: true })))).toContain(
          'not a state this server made',
        );
      }
      expect((await states(answerIds))[0]?.state).toBe('proposed');
    });

    test('a state is used once: the replay of a declined approval as an acceptance is refused', async () => {
      const { token } = await teacher();
      const { answerIds } = await essayQuiz(token, ['One.']);
      const { raw, state } = await asked(token, answerIds);
      const declined = await raw({
        name: 'grade_answers',
        arguments: { grades: gradesFor(answerIds), ask_person: true },
        requestState: state,
        inputResponses: { approve: { action: 'decline' } },
      });
      expect(declined.structuredContent.approval.outcome).toBe('declined');
      expect(refusal(await raw(retry(answerIds, state, { a1: true })))).toContain('already used');
      // Never logged, even at trace level: its signature appears in no line.
      expect(log.lines().length).toBeGreaterThan(0);
      expect(JSON.stringify(log.lines())).not.toContain(state.split('.')[2]);
      expect((await states(answerIds))[0]?.state).toBe('proposed');
    });

    test('an expired state is refused (ten minutes)', async () => {
      const { token } = await teacher();
      const { answerIds } = await essayQuiz(token, ['One.']);
      const { raw, state } = await asked(token, answerIds);
      const clock = movableClock();
      try {
        clock.advance(10 * 60 * 1000 + 5_000);
        expect(refusal(await raw(retry(answerIds, state, { a1: true })))).toContain('expired');
      } finally {
        clock.restore();
      }
      expect((await states(answerIds))[0]?.state).toBe('proposed');
    });

    test("another credential's state is refused, even the same teacher's other token", async () => {
      const { token, agent } = await teacher();
      const { answerIds } = await essayQuiz(token, ['One.']);
      const { state } = await asked(token, answerIds);
      const other = (await connectApp(app, agent)).tokens.access_token;
      const stranger = (await teacher()).token;
      for (const credential of [other, stranger]) {
        const { raw } = await modernClient(credential, { form: {} });
        expect(refusal(await raw(retry(answerIds, state, { a1: true })))).toContain('another credential');
      }
      expect((await states(answerIds))[0]?.state).toBe('proposed');
    });

    test('an acceptance the server never asked for (no state) is refused, and stores nothing', async () => {
      const { token } = await teacher();
      const { answerIds } = await essayQuiz(token, ['One.']);
      const { raw } = await modernClient(token, { form: {} });
      expect(refusal(await raw(retry(answerIds, undefined, { a1: true })))).toContain('did not ask');
      expect((await states(answerIds))[0]).toBeUndefined();
    });

    test('grades changed after they were shown: the approval is refused whole', async () => {
      const { token } = await teacher();
      const { answerIds } = await essayQuiz(token, ['One.']);
      const { raw, state, call } = await asked(token, answerIds);
      payload(
        await call('grade_answers', { grades: [{ answer_id: answerIds[0], points: 5, feedback: 'Other' }] }),
      );
      expect(refusal(await raw(retry(answerIds, state, { a1: true })))).toContain('changed since');
      const [grade] = await states(answerIds);
      expect([grade?.state, grade?.points]).toEqual(['proposed', 5]);
    });
  });

  test('the marks: of simultaneous claims of one key one wins; an expired mark no longer holds it', async () => {
    const marks = app.database.repos.oauth;
    const key = `used:contract-${provider}-${Date.now()}`;
    const now = new Date();
    const later = new Date(now.getTime() + 60_000);
    const claims = await Promise.all(Array.from({ length: 5 }, () => marks.claimMark(key, later, now)));
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await marks.hasMark(key, now)).toBe(true);
    const afterExpiry = new Date(later.getTime() + 1);
    expect(await marks.hasMark(key, afterExpiry)).toBe(false);
    expect(await marks.claimMark(key, new Date(afterExpiry.getTime() + 60_000), afterExpiry)).toBe(true);
  });

  describe('the same mechanism confirms a delete, and an edit of a published quiz', () => {
    async function published(credential: string) {
      const { call, client } = await modernClient(credential, undefined);
      const quiz = payload(await call('create_quiz', { title: 'To delete or edit', questions: [ESSAY] }));
      payload(await call('publish_quiz', { quiz_id: quiz.quiz_id }));
      await client.close();
      return quiz.quiz_id as string;
    }

    test('delete_quiz: yes deletes; no and cancel delete nothing; without ask_person, the isError as today', async () => {
      const { token } = await teacher();
      for (const [reply, gone] of [
        [{ action: 'accept', content: { confirm: false } }, false],
        [{ action: 'cancel' }, false],
        [{ action: 'accept', content: { confirm: true } }, true],
      ] as Array<[Reply, boolean]>) {
        const quizId = await published(token);
        const { call, asked } = await modernClient(token, { form: {} }, () => reply);
        expect(errorText(await call('delete_quiz', { quiz_id: quizId }))).toContain('confirm: true');
        expect(asked).toHaveLength(0);
        const result = await call('delete_quiz', { quiz_id: quizId, ask_person: true });
        expect(asked).toHaveLength(1);
        expect(asked[0]!.message).toContain('To delete or edit');
        if (gone) expect(payload(result).deleted).toBe(true);
        else expect(errorText(result)).toContain('nothing was deleted');
        const still = await call('get_quiz_settings', { quiz_id: quizId });
        expect(!!still.isError).toBe(gone);
      }
    });

    test('delete_quiz with ask_person to a client without form elicitation, or an API key: the isError as today', async () => {
      const { token } = await teacher();
      const user = await createTestUser(app, 'key-deleter');
      for (const [credential, elicitation] of [
        [token, undefined],
        [token, { url: {} }],
        [user.apiKey, { form: {} }],
      ] as const) {
        const quizId = await published(credential);
        const { call, asked } = await modernClient(credential, elicitation, () => ({
          action: 'accept',
          content: { confirm: true },
        }));
        expect(errorText(await call('delete_quiz', { quiz_id: quizId, ask_person: true }))).toContain(
          'confirm: true',
        );
        expect(asked).toHaveLength(0);
        expect((await call('get_quiz_settings', { quiz_id: quizId })).isError).toBeFalsy();
      }
    });

    test("update_quiz of a published quiz: the teacher's yes applies exactly the edit asked; a state is not another tool's", async () => {
      const { token } = await teacher();
      const quizId = await published(token);
      const { call, asked, raw } = await modernClient(token, { form: {} }, () => ({
        action: 'accept',
        content: { confirm: true },
      }));
      const edited = payload(
        await call('update_quiz', { quiz_id: quizId, title: 'Renamed', ask_person: true }),
      );
      expect(asked).toHaveLength(1);
      expect(asked[0]!.message).toContain('is published');
      expect(edited.title).toBe('Renamed');

      // Round one by hand, then a retry that changes the arguments: refused, nothing changed.
      const first = await raw({
        name: 'update_quiz',
        arguments: { quiz_id: quizId, title: 'Again', ask_person: true },
      });
      expect(first.resultType).toBe('input_required');
      const swapped = await raw({
        name: 'update_quiz',
        arguments: { quiz_id: quizId, title: 'Something else', ask_person: true },
        requestState: first.requestState,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      });
      expect(errorText(swapped as ToolResult)).toContain('arguments changed');
      // An update's state does not delete.
      const second = await raw({
        name: 'update_quiz',
        arguments: { quiz_id: quizId, title: 'Again', ask_person: true },
      });
      const crossed = await raw({
        name: 'delete_quiz',
        arguments: { quiz_id: quizId, ask_person: true },
        requestState: second.requestState,
        inputResponses: { confirm: { action: 'accept', content: { confirm: true } } },
      });
      expect(errorText(crossed as ToolResult)).toContain('answers another question');
      expect(payload(await call('get_quiz_settings', { quiz_id: quizId })).title).toBe('Renamed');
    });
  });
});

/** Declines on one instance, then replays the state as an acceptance on the other: refused. */
async function replayAcross(instances: TwoInstances) {
  app = instances.one;
  const { token } = await teacher();
  const { answerIds } = await essayQuiz(token, ['One.']);
  const one = await modernClient(token, { form: {} });
  const two = await modernClient(token, { form: {} }, undefined, instances.two.baseUrl);
  const args = { grades: gradesFor(answerIds), ask_person: true };
  const first = await one.raw({ name: 'grade_answers', arguments: args });
  const declined = await one.raw({
    name: 'grade_answers',
    arguments: args,
    requestState: first.requestState,
    inputResponses: { approve: { action: 'decline' } },
  });
  expect(declined.structuredContent.approval.outcome).toBe('declined');
  const replayed = await two.raw({
    name: 'grade_answers',
    arguments: args,
    requestState: first.requestState,
    inputResponses: { approve: { action: 'accept', content: { a1: true } } },
  });
  expect(errorText(replayed as ToolResult)).toContain('already used');
  expect((await states(answerIds))[0]?.state).toBe('proposed');
  await Promise.all([one.client.close(), two.client.close()]);
  return first.requestState as string;
}

/** The mark a state leaves once used (its payload is signed, not secret). */
const usedMark = (state: string) =>
  `used:${JSON.parse(Buffer.from(state.split('.')[1]!, 'base64url').toString()).p.id}`;

describe('a state is used once across instances', () => {
  test('through the database', async () => {
    const database: TestDatabase = await createTestDatabase('sqlite');
    const instances = await startTwoInstances(database);
    try {
      const mark = usedMark(await replayAcross(instances));
      expect(await database.repos.oauth.hasMark(mark, new Date())).toBe(true);
    } finally {
      await instances.close();
      await database.drop();
    }
  });

  describeWithRedis('with Redis', () => {
    let redis: TestRedis[];
    const prefix = uniquePrefix();
    beforeAll(async () => {
      redis = await Promise.all([connectRedis(), connectRedis()]);
    });
    afterAll(async () => {
      await clearPrefix(redis[0]!, prefix);
      await Promise.all(redis.map((client) => client.close()));
    });

    test('through Redis, the database holding no mark', async () => {
      const database: TestDatabase = await createTestDatabase('sqlite');
      const instances = await startTwoInstances(database, {
        config: { redisKeyPrefix: prefix },
        redis: [redis[0], redis[1]],
      });
      try {
        const mark = usedMark(await replayAcross(instances));
        expect(await redis[0]!.exists(`${prefix}approvals:${mark}`)).toBe(1);
        expect(await database.repos.oauth.hasMark(mark, new Date())).toBe(false);
      } finally {
        await instances.close();
        await database.drop();
      }
    });
  });
});
