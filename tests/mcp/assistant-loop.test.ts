// A teacher's whole loop through the v2 client in the 2026-07-28 era, connected with the default
// tool list plus `grading` (scripts/assistant-loop.ts, which `npm run bench:assistant` prints):
// its assistant part within its calls and its bytes, and nothing lost on the way. Every response,
// answer and grade is the same after the key fix except the points the fix changes, the CSV keeps
// a row per response, and next year's copy holds every question.
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { CLASS_SIZE, loopReport, playLoop, type LoopResult } from '../../scripts/assistant-loop';
import { reportFigure } from '../helpers/figures';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import { connectApp, loggedInAgent, registerPublicClient } from '../oauth/oauth-helpers';

/** The loop's assistant part: at most this many tool calls... */
const LOOP_CALLS_MAX = 6;
/** ...returning at most this much text to the model. */
const LOOP_RETURNED_MAX_BYTES = 25 * 1024;

let app: TestApp;
let user: TestUser;
let reader: AnyClient;
let result: LoopResult;
let beforeFix: any;
/** What the client showed the teacher in approvals: the client's, never handed to the model. */
let shown = 0;

/** Every response with its answers, by response id: what must survive the fix. */
async function everything(quizId: string) {
  const results = payload(await callTool(reader, 'get_results', { quiz_id: quizId, limit: 100 }));
  return new Map<string, any>(results.responses.map((response: any) => [response.response_id, response]));
}

beforeAll(async () => {
  app = await startTestApp();
  // The teacher connects an assistant with OAuth, as a chat client does; its registered name is
  // what an approval in the client records.
  const signedIn = await loggedInAgent(app, 'loop');
  user = signedIn.user;
  const registered = await registerPublicClient(app, { client_name: 'Classroom Assistant' });
  const { tokens } = await connectApp(app, signedIn.agent, { client: registered });
  reader = await connectClient(app, user.apiKey);
  const client = new Client(
    { name: 'assistant-loop', version: '1.0.0' },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: { pin: '2026-07-28' } } },
  );
  // The teacher reads the grades and feedback the client shows, and approves them all.
  client.setRequestHandler('elicitation/create', async (req) => {
    const params = req.params as { requestedSchema?: { properties?: Record<string, unknown> } };
    shown += Buffer.byteLength(JSON.stringify(params));
    const fields = Object.keys(params.requestedSchema?.properties ?? {});
    return { action: 'accept', content: Object.fromEntries(fields.map((field) => [field, true])) } as any;
  });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${app.baseUrl}/api/mcp?toolsets=grading`), {
      requestInit: { headers: { Authorization: `Bearer ${tokens.access_token}` } },
    }),
  );
  try {
    result = await playLoop(client, {
      baseUrl: app.baseUrl,
      shownToTeacher: () => shown,
      beforeFix: async (quiz) => {
        beforeFix = await everything(quiz.quiz_id);
      },
    });
  } finally {
    await client.close();
  }
  reportFigure(`assistant loop\n${loopReport(result)}`);
}, 120_000);

afterAll(async () => {
  await reader?.close();
  await app?.close();
});

test(`the assistant's part takes at most ${LOOP_CALLS_MAX} calls and ${LOOP_RETURNED_MAX_BYTES} bytes of text`, () => {
  const calls = result.steps.reduce((sum, step) => sum + step.calls, 0);
  const returned = result.steps.reduce((sum, step) => sum + step.returned, 0);
  expect({ calls, within: calls <= LOOP_CALLS_MAX }).toEqual({ calls, within: true });
  expect({ returned, within: returned <= LOOP_RETURNED_MAX_BYTES }).toEqual({ returned, within: true });
  // Every step used the lean arguments: none fell back to another call.
  expect(result.steps.flatMap((step) => step.notes)).toEqual([]);
});

test('nothing is lost: every response and answer is the same after the fix but the points it changes', async () => {
  const after = await everything(result.quiz.quiz_id);
  expect(after.size).toBe(CLASS_SIZE);
  expect([...after.keys()].sort()).toEqual([...beforeFix.keys()].sort());
  const fixed = result.quiz.question_ids[2];
  for (const [id, was] of beforeFix as Map<string, any>) {
    const now = after.get(id);
    expect(now.respondent).toEqual(was.respondent);
    expect(now.submitted_at).toBe(was.submitted_at);
    for (const [i, answer] of was.answers.entries()) {
      const { points, ...rest } = answer;
      const { points: nowPoints, ...nowRest } = now.answers[i];
      // The reworded question keeps its answers; only the fixed key's points may move.
      expect(nowRest).toEqual(rest);
      if (answer.question_id !== fixed) expect(nowPoints).toBe(points);
    }
  }
  // The fix moved the points of those who chose the Calvin cycle.
  const moved = [...after.values()].filter(
    (response) =>
      response.answers.find((a: any) => a.question_id === fixed).points !==
      beforeFix.get(response.response_id).answers.find((a: any) => a.question_id === fixed).points,
  );
  expect(moved.length).toBeGreaterThan(0);
});

test('the teacher approved every grade in the client: each essay is final, and the model made none final alone', async () => {
  expect(shown).toBeGreaterThan(0);
  const essay = result.quiz.question_ids[9];
  const states = [...beforeFix.values()].map(
    (response: any) => response.answers.find((a: any) => a.question_id === essay).grade_state,
  );
  expect(states).toHaveLength(30);
  expect(new Set(states)).toEqual(new Set(['final']));
});

test("the CSV keeps a row per response, and next year's copy holds every question while the original is closed", async () => {
  expect(result.csv_rows).toBe(CLASS_SIZE);
  const copy = payload(await callTool(reader, 'get_quiz_questions', { quiz_id: result.copy_quiz_id }));
  expect(copy.questions).toHaveLength(10);
  const settings = payload(await callTool(reader, 'get_quiz_settings', { quiz_id: result.quiz.quiz_id }));
  expect(settings.is_open).toBe(false);
});
