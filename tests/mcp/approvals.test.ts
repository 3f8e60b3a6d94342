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
import { movableClock } from '../helpers/clock';
import { connectAnyClient, errorText, payload, type ToolResult } from '../helpers/mcp-clients';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import { connectApp, loggedInAgent, registerPublicClient } from '../oauth/oauth-helpers';

type Elicit = { mode?: string; message: string; requestedSchema?: any; url?: string };
type Reply = { action: 'accept' | 'decline' | 'cancel'; content?: Record<string, unknown> };

const ESSAY = { type: 'essay', text: 'Explain photosynthesis.', points: 5 };
const ANY = z.looseObject({});

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

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
) {
  const client = new ClientV2(
    { name: 'approval-tests', version: '1.0.0' },
    {
      capabilities: elicitation ? { elicitation } : {},
      versionNegotiation: { mode: { pin: '2026-07-28' } },
    },
  );
  const asked: Elicit[] = [];
  if (elicitation)
    client.setRequestHandler('elicitation/create', async (req: { params: Elicit }) => {
      asked.push(req.params);
      return reply(req.params);
    });
  await client.connect(
    new TransportV2(new URL(`${app.baseUrl}/api/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${credential}` } },
    }),
  );
  expect(client.getProtocolEra()).toBe('modern');
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args })) as ToolResult;
  /** One round by hand: the input-required result itself, or a retry carrying what we choose. */
  const raw = (params: Record<string, unknown>) =>
    client.request({ method: 'tools/call', params } as any, ANY, { allowInputRequired: true } as any) as Promise<
      Record<string, any>
    >;
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

describe('grade_answers with ask_person in the 2026-07-28 era, form elicitation', () => {
  test('approve all: the teacher sees each grade and feedback; all final, recorded as client_form with the client name', async () => {
    const { token } = await teacher('Classroom Assistant');
    const { answerIds } = await essayQuiz(token, ['Light to sugar.', 'Plants eat sun.']);
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
  });
});
