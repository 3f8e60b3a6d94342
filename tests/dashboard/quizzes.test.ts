// The quizzes list, a quiz page, its results' sections and a respondent's page, and the CSV export: through the real app,
// with quizzes made over MCP (the SDK client) and responses from the domain's submitResponse.
import request from 'supertest';
import { exportResponses } from '../../src/domain/quizzes/export-responses';
import { submitResponse } from '../../src/domain/taking/submit-response';
import { createTestUser, startTestApp, type TestApp, type TestUser } from '../helpers/test-app';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import { logIn, newAgent, signUp, squash, type Agent } from './dashboard-helpers';
import { parseCsv } from './parse-csv';

let app: TestApp;
let owner: TestUser;
let client: AnyClient;
let agent: Agent;
const deps = () => app.deps;

const XSS_TITLE = 'Capitals <script>alert(1)</script>';
const QUESTIONS = [
  { type: 'yes_no', text: 'Is Rome in <Italy>?', points: 2 },
  {
    type: 'multiple_choice',
    text: 'Pick a formula',
    options: [
      { label: '=1+1', score: 3 },
      { label: 'Plain, "quoted"', score: 0 },
      { label: 'Minus', score: -1 },
    ],
  },
];

interface QuizRecord {
  quiz_id: string;
  slug: string;
  questions: Array<{ question_id: string }>;
}

async function makeQuiz(title: string, options: { publish?: boolean; settings?: object } = {}) {
  const quiz = payload(
    await callTool(client, 'create_quiz', { title, questions: QUESTIONS, settings: options.settings }),
  );
  if (options.publish) payload(await callTool(client, 'publish_quiz', { quiz_id: quiz.quiz_id }));
  return payload<QuizRecord>(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
}

/** Submits, then spreads submitted_at one second apart so "oldest first" is unambiguous. */
async function respond(
  slug: string,
  answers: Array<{ name: string; email?: string; yes: boolean; option: number }>,
) {
  const quiz = payload(await callTool(client, 'get_quiz_questions', { quiz_id: slug }));
  const start = Date.now() - 3_600_000;
  for (const [index, answer] of answers.entries()) {
    const saved = await submitResponse(deps(), slug, {
      respondent: { name: answer.name, email: answer.email ?? 'someone@example.com' },
      answers: [
        { question_id: quiz.questions[0].question_id, answer: answer.yes ? 'yes' : 'no' },
        { question_id: quiz.questions[1].question_id, option_index: answer.option },
      ],
    });
    await app.database.prisma.response.update({
      where: { id: saved.response_id },
      data: { submittedAt: new Date(start + index * 1000) },
    });
  }
}

let main: QuizRecord;
let draft: QuizRecord;

beforeAll(async () => {
  app = await startTestApp();
  owner = await createTestUser(app, 'owner');
  client = await connectClient(app, owner.apiKey);
  agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
  main = await makeQuiz(XSS_TITLE, {
    publish: true,
    settings: { collect_email: true, pass_mark_percent: 50 },
  });
  draft = await makeQuiz('Just a draft');
  await respond(main.slug, [
    { name: 'Ada', email: 'ada@example.com', yes: true, option: 0 },
    { name: '=HYPERLINK("http://evil.example","click")', yes: false, option: 2 },
    { name: '+1+1', yes: true, option: 1 },
    { name: '-2', yes: false, option: 0 },
    { name: '@SUM(A1)', yes: true, option: 0 },
    { name: '<b>bold</b>', yes: false, option: 1 },
  ]);
});
afterAll(async () => {
  await client.close();
  await app.close();
});

describe('quizzes list', () => {
  test('status, question and response counts, public link; titles escaped', async () => {
    const res = await agent.get('/dashboard');
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const text = squash(res.text);
    expect(text).toContain('Capitals &lt;script&gt;alert(1)&lt;/script&gt;');
    expect(text).not.toContain('<script>alert(1)</script>');
    expect(text).toContain('2 questions · 6 responses');
    expect(text).toContain('<span class="badge published">Published</span>');
    expect(text).toContain('<span class="badge draft">Draft</span>');
    expect(text).toContain(`<a href="${app.baseUrl}/q/${main.slug}">${app.baseUrl}/q/${main.slug}</a>`);
    expect(text).toContain('Not public yet');
    expect(text).toContain(`href="/dashboard/quizzes/${draft.quiz_id}"`);
  });

  test('a new user sees how to get started', async () => {
    const fresh = newAgent(app);
    await signUp(fresh);
    const res = await fresh.get('/dashboard');
    expect(res.text).toContain('You have no quizzes yet.');
    expect(res.text).toContain('href="/settings/security/api-keys"');
  });

  test('a mangled page link is a 400 page, not an error', async () => {
    const res = await agent.get('/dashboard/quizzes?after=garbage');
    expect(res.status).toBe(400);
    expect(res.text).toContain('That page link is not valid');
  });
});

describe('quiz page and results sections', () => {
  const results = (quizId: string, section: string) => `/dashboard/quizzes/${quizId}/results/${section}`;

  test('the quiz page: title, settings and the summary, with links to every results section', async () => {
    const res = await agent.get(`/dashboard/quizzes/${main.quiz_id}`);
    expect(res.status).toBe(200);
    const text = squash(res.text);
    expect(text).toContain(
      '<h1>Capitals &lt;script&gt;alert(1)&lt;/script&gt; <span class="badge published">',
    );
    expect(text).not.toMatch(/<script>alert|<b>bold|<Italy>/);
    expect(text).toMatch(/<dt>Responses<\/dt><dd>6<\/dd>/);
    expect(text).toMatch(/<dt>Ask for email<\/dt><dd>Yes<\/dd>/);
    expect(text).toMatch(/<dt>Pass mark<\/dt><dd>50%<\/dd>/);
    for (const section of ['summary', 'questions', 'items', 'responses']) {
      expect(text).toContain(`href="${results(main.quiz_id, section)}"`);
    }
    expect(text).toContain(`href="/dashboard/quizzes/${main.quiz_id}/responses.csv"`);
    // No section is the current one here, and the sections' content is not read for this page.
    expect(text).not.toContain('aria-current="page">Summary');
    expect(text).not.toMatch(/answers-chart|histogram|facility-chart/);
    expect(text).not.toContain('ada@example.com');
  });

  test('each section at its own address, marked current in the section links, all escaped', async () => {
    const pages: Record<string, string> = {};
    for (const [section, name] of [
      ['summary', 'Summary'],
      ['questions', 'Questions'],
      ['items', 'Item analysis'],
      ['responses', 'Responses'],
    ] as const) {
      const res = await agent.get(results(main.quiz_id, section));
      expect({ section, status: res.status }).toEqual({ section, status: 200 });
      const text = squash(res.text);
      expect(text).toContain(`<a href="${results(main.quiz_id, section)}" aria-current="page">${name}</a>`);
      expect(text.match(/aria-current="page">/g)).toHaveLength(2); // the main menu's and the section's
      expect(text).not.toMatch(/<script>alert|<b>bold|<Italy>/);
      pages[section] = text;
    }
    // Summary: the figures, and the histogram with its pass mark.
    expect(pages.summary).toMatch(/<dt>Responses<\/dt><dd>6<\/dd>/);
    expect(pages.summary).toContain(
      'Scores of 6 responses: -1: 1, 0: 1, 1: 0, 2: 1, 3: 1, 4: 0, 5: 2. 3 passed the 50% mark.',
    );
    expect(pages.summary).not.toContain('answers-chart');
    // Questions: each answer's count, and the same numbers drawn. yes: 3 of 6; "=1+1" 3, "Minus" 1.
    expect(pages.questions).toContain('Is Rome in &lt;Italy&gt;?');
    expect(pages.questions).toMatch(
      /<th scope="row"><bdi>Yes<\/bdi><\/th><td class="num">2 pts<\/td><td class="num">3 \(50%\)<\/td>/,
    );
    expect(pages.questions).toMatch(
      /<th scope="row"><bdi>=1\+1<\/bdi><\/th><td class="num">3 pts<\/td><td class="num">3 \(50%\)<\/td>/,
    );
    expect(pages.questions).toMatch(
      /<th scope="row"><bdi>Minus<\/bdi><\/th><td class="num">-1 pts<\/td><td class="num">1 \(17%\)<\/td>/,
    );
    expect(pages.questions).toContain(
      'aria-label="Answers to “Pick a formula”: =1+1 3 (50%), Plain, &quot;quoted&quot; 2 (33%), Minus 1 (17%)"',
    );
    expect(pages.questions).not.toContain('ada@example.com');
    // Item analysis: the table, each cell labelled for the phone's stacked rows.
    expect(pages.items).toContain('<table class="data-table item-analysis">');
    expect(pages.items).toContain('data-label="Facility"');
    // Responses: each respondent linked to their own page, escaped.
    expect(pages.responses).toContain('ada@example.com');
    expect(pages.responses).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(pages.responses!.match(/href="\/dashboard\/quizzes\/[^/"]+\/responses\/[^/"]+"/g)).toHaveLength(6);
    expect(pages.responses).not.toMatch(/answers-chart|histogram|facility-chart/);
  });

  test('the old addresses still lead there: the results, the responses pages and the item order', async () => {
    const bare = await agent.get(`/dashboard/quizzes/${main.quiz_id}/results`);
    expect(bare.status).toBe(302);
    expect(bare.headers.location).toBe(results(main.quiz_id, 'summary'));
    const paged = await agent.get(`/dashboard/quizzes/${main.quiz_id}?responses=abc`);
    expect(paged.status).toBe(301);
    expect(paged.headers.location).toBe(`${results(main.quiz_id, 'responses')}?after=abc`);
    const items = await agent.get(`/dashboard/quizzes/${main.quiz_id}?items=flags`);
    expect(items.status).toBe(301);
    expect(items.headers.location).toBe(`${results(main.quiz_id, 'items')}?order=flags`);
  });

  test('responses are paged 20 at a time, newest first', async () => {
    const quiz = await makeQuiz('Busy quiz', { publish: true });
    await respond(
      quiz.slug,
      Array.from({ length: 23 }, (_, i) => ({ name: `Person ${i + 1}`, yes: true, option: 0 })),
    );
    const rows = (page: string) => page.match(/<th scope="row" data-label="Respondent">/g)?.length ?? 0;
    const first = await agent.get(results(quiz.quiz_id, 'responses'));
    expect(rows(first.text)).toBe(20);
    expect(first.text).toContain('Person 23');
    expect(first.text).not.toContain('Person 3<');
    const older = /href="([^"]+\/results\/responses\?after=[^"]+)">Older responses/.exec(first.text)![1]!;
    const second = await agent.get(older);
    expect(rows(second.text)).toBe(3);
    expect(second.text).toContain('Person 1<');
    expect(second.text).toContain('Newest responses');
    expect(second.text).not.toContain('Older responses');
    expect((await agent.get(`${results(quiz.quiz_id, 'responses')}?after=bogus`)).status).toBe(400);
  });

  test('a page per respondent: each answer marked, points, metadata, and the next and previous in the list', async () => {
    const list = await agent.get(results(main.quiz_id, 'responses'));
    const ids = [...list.text.matchAll(/href="\/dashboard\/quizzes\/[^/"]+\/responses\/([^/"]+)"/g)].map(
      (match) => match[1]!,
    );
    expect(ids).toHaveLength(6);
    // Newest first: "<b>bold</b>" answered no and "Plain" (0 of 5), Ada (the oldest) yes and "=1+1".
    const newest = squash((await agent.get(`/dashboard/quizzes/${main.quiz_id}/responses/${ids[0]}`)).text);
    expect(newest).toContain('<h1><bdi>&lt;b&gt;bold&lt;/b&gt;</bdi></h1>');
    expect(newest).not.toContain('rel="prev"');
    expect(newest).toContain(`href="/dashboard/quizzes/${main.quiz_id}/responses/${ids[1]}" rel="next"`);
    expect(newest).toContain('<span aria-hidden="true">✗</span> Wrong');
    expect(newest).toMatch(/Answer:<\/span><bdi class="review-answer">No<\/bdi>/);
    expect(newest).toMatch(/Points:<\/span> 0 of 2/);
    expect(newest).toMatch(/Right answer:<\/span ?><bdi ?>Yes<\/bdi/);
    expect(newest).toMatch(/<dt>Score<\/dt><dd>0 of 5 \(0%\)<\/dd>/);
    expect(newest).toMatch(/<dt>Result<\/dt><dd>Not passed<\/dd>/);
    expect(newest).toContain(`href="/dashboard/quizzes/${main.quiz_id}/responses/${ids[0]}/delete"`);

    const oldest = squash((await agent.get(`/dashboard/quizzes/${main.quiz_id}/responses/${ids[5]}`)).text);
    expect(oldest).toContain('<h1><bdi>Ada</bdi></h1>');
    expect(oldest).toContain('ada@example.com');
    expect(oldest).toContain(`href="/dashboard/quizzes/${main.quiz_id}/responses/${ids[4]}" rel="prev"`);
    expect(oldest).not.toContain('rel="next"');
    expect(oldest.match(/<span aria-hidden="true">✓<\/span> Right/g)).toHaveLength(2);
    expect(oldest).toMatch(/<dt>Score<\/dt><dd>5 of 5 \(100%\)<\/dd>/);

    // A middle one links both ways; an unknown id is "not found".
    const middle = await agent.get(`/dashboard/quizzes/${main.quiz_id}/responses/${ids[2]}`);
    expect(middle.text).toContain(`/responses/${ids[1]}" rel="prev"`);
    expect(middle.text).toContain(`/responses/${ids[3]}" rel="next"`);
    expect((await agent.get(`/dashboard/quizzes/${main.quiz_id}/responses/nope`)).status).toBe(404);
    expect((await agent.get(`/dashboard/quizzes/${draft.quiz_id}/responses/${ids[0]}`)).status).toBe(404);
  });

  test('a draft without responses says so', async () => {
    const res = await agent.get(`/dashboard/quizzes/${draft.quiz_id}`);
    expect(res.status).toBe(200);
    expect(res.text).toContain('Draft: only you can see it');
    expect(res.text).toContain('No responses yet.');
    const responses = await agent.get(results(draft.quiz_id, 'responses'));
    expect(responses.text).toContain('No responses yet.');
  });

  test('a draft shows the full key and each explanation, and no chart before the first answer', async () => {
    const quiz = payload(
      await callTool(client, 'create_quiz', {
        title: 'Every key',
        questions: [
          {
            type: 'yes_no',
            text: 'Is the Sun a star?',
            correct_answer: 'yes',
            explanation: 'A G-type star.',
          },
          {
            type: 'multiple_choice',
            text: 'Largest planet?',
            options: [
              { label: 'Jupiter', score: 2 },
              { label: 'Mars', score: 0 },
            ],
          },
          {
            type: 'multiple_select',
            text: 'Gas giants?',
            options: [
              { label: 'Saturn', score: 1 },
              { label: 'Venus', score: -1 },
              { label: 'Neptune', score: 1 },
            ],
          },
          { type: 'short_text', text: 'Our star?', accepted_answers: ['Sun', 'Sol'], points: 3 },
          { type: 'number', text: 'Planets?', correct_number: 8, tolerance: 0.5, explanation: 'Pluto left.' },
        ],
      }),
    );
    const text = squash((await agent.get(`/dashboard/quizzes/${quiz.quiz_id}`).expect(200)).text);
    expect(text).toContain('<dt>Right answer</dt><dd>Yes, 1 point</dd>');
    expect(text).toContain('<dt>Explanation</dt><dd dir="auto">A G-type star.</dd>');
    expect(text).toMatch(/<li><bdi>Jupiter<\/bdi>: 2 points ?<span class="key-right">✓ right<\/span><\/li>/);
    expect(text).toMatch(/<li><bdi>Mars<\/bdi>: 0 points ?<\/li>/);
    expect(text).toMatch(/<bdi>Saturn<\/bdi>: 1 point ?<span class="key-right">✓ right/);
    expect(text).toMatch(/<li><bdi>Venus<\/bdi>: -1 point ?<\/li>/);
    expect(text).toMatch(
      /<dt>Accepted answers<\/dt><dd><bdi>Sun<\/bdi>, <bdi>Sol<\/bdi> ?\(3 points\)<\/dd>/,
    );
    expect(text).toContain('<dt>Right number</dt><dd>8, give or take 0.5 (1 point)</dd>');
    expect(text).toContain('<dd dir="auto">Pluto left.</dd>');
    expect(text.match(/not answered yet/g)).toHaveLength(5);
    expect(text).not.toContain('chart-figure');
    expect(text).not.toContain('<svg');
  });
});

describe('object access', () => {
  test("another user gets the same 404 page for someone's quiz page and CSV as for a missing one", async () => {
    const intruder = newAgent(app);
    await signUp(intruder);
    for (const path of [
      `/dashboard/quizzes/${main.quiz_id}`,
      `/dashboard/quizzes/${main.quiz_id}/results/summary`,
      `/dashboard/quizzes/${main.quiz_id}/results/questions`,
      `/dashboard/quizzes/${main.quiz_id}/results/items`,
      `/dashboard/quizzes/${main.quiz_id}/results/responses`,
      `/dashboard/quizzes/${main.quiz_id}/responses.csv`,
      '/dashboard/quizzes/c000000000000000000000000',
      '/dashboard/quizzes/c000000000000000000000000/responses.csv',
    ]) {
      const res = await intruder.get(path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.text).not.toContain('Capitals');
      expect(res.text).not.toContain('Ada');
    }
  });

  test('a URL names a quiz by its id only (not its slug or title), even for the owner', async () => {
    expect((await agent.get(`/dashboard/quizzes/${main.slug}`)).status).toBe(404);
    expect((await agent.get(`/dashboard/quizzes/${encodeURIComponent('Just a draft')}`)).status).toBe(404);
  });

  test('logged out, the CSV is not served', async () => {
    const res = await request(app.app).get(`/dashboard/quizzes/${main.quiz_id}/responses.csv`);
    expect(res.status).toBe(303);
    expect(res.headers.location).toMatch(/^\/login\?returnTo=/);
  });
});

describe('CSV export', () => {
  test('attachment, one row per response oldest first, quoted, formulas neutralised', async () => {
    const res = await agent.get(`/dashboard/quizzes/${main.quiz_id}/responses.csv`).buffer(true);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="${main.slug}-responses.csv"`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text.startsWith('\uFEFF')).toBe(true);
    const rows = parseCsv(res.text.slice(1));
    expect(rows[0]).toEqual([
      'submitted_at',
      'name',
      'email',
      'score',
      'max_score',
      'percent',
      'passed',
      'Q1. Is Rome in <Italy>?',
      'Q2. Pick a formula',
      // Added at the end, so the columns before keep their places.
      'grading_status',
      'Q1 points',
      'Q1 grade',
      'Q1 comment',
      'Q2 points',
      'Q2 grade',
      'Q2 comment',
    ]);
    expect(rows).toHaveLength(7);
    expect(rows[1]).toEqual([
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      'Ada',
      'ada@example.com',
      '5',
      '5',
      '100',
      'true',
      'yes',
      "'=1+1",
      'final',
      '2',
      'auto',
      '',
      '3',
      'auto',
      '',
    ]);
    expect(rows[2]!.slice(1, 9)).toEqual([
      `'=HYPERLINK("http://evil.example","click")`,
      'someone@example.com',
      '-1',
      '5',
      '-20',
      'false',
      'no',
      'Minus',
    ]);
    expect(rows[3]!.slice(1, 2)).toEqual(["'+1+1"]);
    expect(rows[3]![8]).toBe('Plain, "quoted"');
    expect(rows[4]![1]).toBe("'-2");
    expect(rows[5]![1]).toBe("'@SUM(A1)");
    expect(rows[6]![1]).toBe('<b>bold</b>');
    // Raw text: the quote-containing cell is RFC 4180 quoted, lines end in CRLF.
    expect(res.text).toContain(`"'=HYPERLINK(""http://evil.example"",""click"")"`);
    expect(res.text).toContain('"Plain, ""quoted"""');
    expect(res.text.split('\r\n')).toHaveLength(8);
  });

  test('after the questions are replaced, earlier answers keep their own column', async () => {
    const quiz = await makeQuiz('Edited later', { publish: true });
    await respond(quiz.slug, [{ name: 'Before', yes: true, option: 0 }]);
    payload(
      await callTool(client, 'update_quiz', {
        quiz_id: quiz.quiz_id,
        confirm_edit_published: true,
        questions: [{ type: 'yes_no', text: 'A brand new question', points: 1 }],
      }),
    );
    const fresh = payload(await callTool(client, 'get_quiz_questions', { quiz_id: quiz.quiz_id }));
    await submitResponse(deps(), quiz.slug, {
      respondent: { name: 'After' },
      answers: [{ question_id: fresh.questions[0].question_id, answer: 'no' }],
    });
    const rows = parseCsv(
      (await agent.get(`/dashboard/quizzes/${quiz.quiz_id}/responses.csv`)).text.slice(1),
    );
    expect(rows[0]!.slice(7, 10)).toEqual([
      'Q1. A brand new question',
      'Is Rome in <Italy>? (earlier version)',
      'Pick a formula (earlier version)',
    ]);
    expect(rows[1]!.slice(7, 10)).toEqual(['', 'yes', "'=1+1"]);
    expect(rows[2]!.slice(7, 10)).toEqual(['no', '', '']);
    // Each earlier question's points, state and comment go under its own name.
    expect(rows[0]!.slice(10, 14)).toEqual(['grading_status', 'Q1 points', 'Q1 grade', 'Q1 comment']);
    expect(rows[0]![14]).toBe('Is Rome in <Italy>? (earlier version) points');
    expect(rows[2]!.slice(10, 14)).toEqual(['final', '0', 'auto', '']);
    expect(rows[1]!.slice(11, 14)).toEqual(['', '', '']);
  });

  test('the export reads responses a batch at a time and keeps the order across batches', async () => {
    const whole = await exportResponses(deps(), owner.id, main.quiz_id);
    const paged = await exportResponses(deps(), owner.id, main.quiz_id, { batchSize: 2 });
    const collect = async (source: typeof whole) => {
      const out = [];
      for await (const row of source.rows()) out.push(row);
      return out;
    };
    const all = await collect(whole);
    expect(all).toHaveLength(6);
    expect(await collect(paged)).toEqual(all);
  });
});
