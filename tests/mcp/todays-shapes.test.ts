// The versioning rule, held: the request shapes callers sent before the newer question types and
// settings still work, and every field their answers carried is still there with the same type.
// The shapes (field paths and JSON types, not values) are committed in fixtures/todays-shapes.json;
// fields may be added, never removed or retyped. UPDATE_SHAPES=1 rewrites the file, which should
// only ever gain lines.
import fs from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { callTool, forEachEra, payload, type AnyClient } from '../helpers/mcp-clients';

const FIXTURE = path.join(__dirname, 'fixtures', 'todays-shapes.json');

type Shapes = Record<string, string[]>;

/** The tools of tool set 1.12.0; a tool added later adds its own call and name. */
const TODAYS_TOOLS = [
  'create_quiz',
  'get_quiz_questions',
  'update_quiz',
  'edit_questions',
  'publish_quiz',
  'close_quiz',
  'reopen_quiz',
  'duplicate_quiz',
  'list_quizzes',
  'get_quiz_settings',
  'get_quiz_links',
  'get_results',
  'import_questions',
  'delete_quiz',
];

/** Every field path of a JSON value with the JSON types seen there ("a.b[].c": ["string", "null"]). */
function shapesOf(value: unknown, at: string, into: Shapes): Shapes {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  const seen = (into[at] ??= []);
  if (!seen.includes(type)) seen.push(type);
  if (Array.isArray(value)) for (const item of value) shapesOf(item, `${at}[]`, into);
  else if (value && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) shapesOf(item, `${at}.${key}`, into);
  }
  return into;
}

/** Today's requests, as an assistant or a script sent them, and what each answered. */
async function todaysAnswers(app: TestApp, client: AnyClient): Promise<Record<string, unknown>> {
  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));
  const created = await call('create_quiz', {
    title: 'Shapes',
    description: 'What today looks like.',
    questions: [
      { type: 'yes_no', text: 'Is the sky blue?', points: 2 },
      {
        type: 'yes_no',
        text: 'Is Milan the capital?',
        points: 1,
        correct_answer: 'no',
        explanation: 'Rome is.',
      },
      {
        type: 'multiple_choice',
        text: 'Capital of Italy?',
        options: [
          { label: 'Rome', score: 2 },
          { label: 'Milan', score: 0 },
        ],
      },
    ],
    settings: { pass_mark_percent: 50, collect_email: false, show_correct_answers: 'after_submit' },
  });
  const ids: string[] = created.questions.map((q: { question_id: string }) => q.question_id);
  const read = await call('get_quiz_questions', { quiz_id: created.quiz_id });
  const updated = await call('update_quiz', {
    quiz_id: created.quiz_id,
    title: 'Shapes, kept',
    // Sent back as read, less the null explanations (which this version's input could not take).
    questions: read.questions.map(({ explanation, ...q }: Record<string, unknown>) => ({
      ...q,
      ...(explanation === null ? {} : { explanation }),
      text: `${String(q.text)} `,
    })),
  });
  const published = await call('publish_quiz', { quiz_id: created.quiz_id });
  const submitted = await request(app.app)
    .post(`/api/quizzes/${created.slug}/responses`)
    .send({
      respondent: { name: 'Ana' },
      answers: [
        { question_id: ids[0], answer: 'yes' },
        { question_id: ids[1], answer: 'no' },
        { question_id: ids[2], option_index: 0 },
      ],
    });
  expect(submitted.status).toBe(201);
  const attempt = await request(app.app).post(`/api/quizzes/${created.slug}/attempts`).send({});
  expect(attempt.status).toBe(201);
  const links = await call('get_quiz_links', { quiz_id: created.quiz_id });
  const closed = await call('close_quiz', { quiz_id: created.quiz_id });
  const reopened = await call('reopen_quiz', { quiz_id: created.quiz_id });
  const copy = await call('duplicate_quiz', { quiz_id: created.quiz_id });
  const copied = await call('get_quiz_questions', { quiz_id: copy.quiz_id });
  const edited = await call('edit_questions', {
    quiz_id: copy.quiz_id,
    operations: [
      { op: 'update', question_id: copied.questions[0].question_id, text: 'Is the sky blue today?' },
      { op: 'add', type: 'yes_no', text: 'Is water wet?', points: 1 },
    ],
  });
  const bank = '::Sky:: Is the sky blue? {TRUE}\n\n::Rome:: Capital of Italy? {=Rome ~Milan}\n';
  const previewed = await call('import_questions', {
    text: bank,
    format: 'gift',
    title: 'Bank',
    dry_run: true,
  });
  const imported = await call('import_questions', { text: bank, format: 'gift', title: 'Bank' });
  return {
    attempt: attempt.body,
    get_quiz_links: links,
    close_quiz: closed,
    reopen_quiz: reopened,
    duplicate_quiz: copy,
    edit_questions: edited,
    import_questions_preview: previewed,
    import_questions: imported,
    create_quiz: created,
    get_quiz_questions: read,
    update_quiz: updated,
    publish_quiz: published,
    submission: submitted.body,
    list_quizzes: await call('list_quizzes', {}),
    get_quiz_settings: await call('get_quiz_settings', { quiz_id: created.quiz_id }),
    get_results: await call('get_results', { quiz_id: created.quiz_id, limit: 20 }),
    delete_quiz: await call('delete_quiz', { quiz_id: created.quiz_id, confirm: true }),
  };
}

describe("today's request and answer shapes", () => {
  forEachEra((era) => {
    let app: TestApp;
    let client: AnyClient;
    beforeAll(async () => {
      app = await startTestApp();
      client = await era.connect(app, (await createTestUser(app, 'shapes')).apiKey, {
        toolsets: 'all',
      });
    });
    afterAll(async () => {
      await client.close();
      await app.close();
    });

    test('every field an answer carried is still there, with the same type', async () => {
      const now = shapesOf(await todaysAnswers(app, client), '', {});
      if (process.env.UPDATE_SHAPES === '1') {
        fs.writeFileSync(FIXTURE, `${JSON.stringify(now, null, 1)}\n`);
      }
      const committed = JSON.parse(fs.readFileSync(FIXTURE, 'utf8')) as Shapes;
      const lost = Object.keys(committed).filter((field) => !(field in now));
      const retyped = Object.entries(committed)
        .filter(([field, types]) => field in now && types.some((type) => !now[field]!.includes(type)))
        .map(([field, types]) => `${field}: was ${types.join('|')}, now ${now[field]!.join('|')}`);
      // Every tool of today answered above, besides the submission and the attempt.
      const listed = (await client.listTools()).tools.map((tool) => tool.name);
      expect(TODAYS_TOOLS.filter((tool) => !listed.includes(tool))).toEqual([]);
      expect(
        TODAYS_TOOLS.filter((tool) => !Object.keys(committed).some((f) => f.startsWith(`.${tool}.`))),
      ).toEqual([]);
      expect(lost).toEqual([]);
      expect(retyped).toEqual([]);
      expect(Object.keys(committed).length).toBeGreaterThan(150);
    });
  });
});
