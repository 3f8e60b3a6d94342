// The Moodle XML, GIFT and QTI 3.0 exports, through the real doors: the signed links of get_quiz_links
// download the files, import_questions reads them back into new drafts, and every field the
// format holds comes back as it was, for every type; what a format cannot hold is named per
// question in the tool's note and on the quiz page. The same files download from the dashboard
// for the logged-in owner. On both databases.
import request from 'supertest';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { logIn, newAgent } from '../dashboard/dashboard-helpers';

// Texts with every character either format escapes, a second line, and TeX.
const TRICKY = 'Braces {a}, = and ~, # and : and \\ with <b>&amp;</b> "quotes"\nand a second line: \\(x^2\\)';

/** One question of every type, with scores only Moodle's grades and fractions hold. */
const everyType = () => [
  { type: 'yes_no', text: TRICKY, points: 3, correct_answer: 'no', explanation: 'Because {it} = so.' },
  {
    type: 'multiple_choice',
    text: 'Pick the best one',
    options: [
      { label: 'Best: {=}', score: 3 },
      { label: 'Half right ~', score: 1 },
      { label: '%Wrong', score: 0 },
      { label: 'Penalised #', score: -1 },
    ],
  },
  {
    type: 'multiple_select',
    text: 'Tick the primes',
    options: [
      { label: '2', score: 2 },
      { label: '3', score: 1 },
      { label: '4', score: -1 },
    ],
    explanation: 'Two and three.',
  },
  { type: 'short_text', text: 'Capital of France?', points: 2, accepted_answers: ['Paris', 'Paris: city'] },
  { type: 'number', text: 'Pi to two decimals', points: 4, correct_number: 3.14, tolerance: 0.005 },
  {
    type: 'ordering',
    text: 'Oldest first',
    items: [{ label: 'Rome' }, { label: 'Paris' }, { label: 'New York' }, { label: 'Brasília' }],
    points: 5,
  },
  {
    type: 'ordering',
    text: 'Smallest first',
    items: [{ label: '1' }, { label: '2' }, { label: '3' }],
    points_per_item: 2,
  },
  { type: 'scale', text: 'How sure are you?', scale_min: 0, scale_max: 10, scale_labels: ['Not', 'Very'] },
  {
    type: 'matching',
    text: 'Match {the} capitals',
    pairs: [
      { prompt: 'Canada', match: 'Ottawa' },
      { prompt: 'Italy & co', match: 'Rome <i>' },
      { prompt: 'Japan', match: 'Tokyo' },
    ],
    extra_matches: [{ label: 'Sydney' }],
    points_per_pair: 2,
  },
  {
    type: 'fill_in_blanks',
    text: '[[1]] is in {France}, on the [[2]] = river ~ #1.',
    blanks: [
      { accepted_answers: ['Paris', 'a}b~c#d\\e', '=x', '%50%y'], points: 2 },
      { options: ['Rhine', 'Seine', '%Loire'], correct_option: 1, points: 1 },
    ],
    explanation: 'Geography.',
  },
  { type: 'essay', text: 'Discuss {it}.', points: 4, min_words: 10, max_words: 200 },
  {
    type: 'grid',
    text: 'Which colours are on each flag?',
    items: [{ label: 'Italy & co' }, { label: 'Japan <b>' }],
    columns: ['Red', 'White = "blanc"', 'Green'],
    checkboxes: true,
    right_columns: [
      [0, 1, 2],
      [0, 1],
    ],
    points_per_item: 3,
  },
];

/** The same types as GIFT holds them: one point a question, weights as shares of it. */
const giftTypes = () => [
  { type: 'yes_no', text: TRICKY, points: 1, correct_answer: 'yes', explanation: 'Because {it} = so.' },
  {
    type: 'multiple_choice',
    text: 'Pick one: {a} or {b}',
    options: [
      { label: '%A', score: 0 },
      { label: 'B = right', score: 1 },
      { label: 'C', score: 0 },
    ],
  },
  {
    type: 'multiple_select',
    text: 'Tick the right ones',
    options: [
      { label: 'x', score: 1 },
      { label: 'y', score: 0 },
      { label: 'z', score: -1 },
    ],
  },
  { type: 'short_text', text: 'Colour of the sky?', points: 1, accepted_answers: ['blue', 'azure'] },
  { type: 'number', text: 'Negative two, roughly', points: 1, correct_number: -2, tolerance: 0.5 },
  { type: 'ordering', text: 'Order', items: [{ label: 'a' }, { label: 'b' }, { label: 'c' }] },
  { type: 'scale', text: 'Rate it', scale_min: 1, scale_max: 5 },
  {
    type: 'matching',
    text: 'Match: {them}',
    pairs: [
      { prompt: 'one = 1', match: 'un ~' },
      { prompt: 'two', match: 'deux' },
    ],
    extra_matches: [{ label: 'trois' }],
  },
  {
    type: 'fill_in_blanks',
    text: 'The cat sat on the [[1]] in {the} sun.',
    blanks: [{ options: ['mat', 'hat', '%bat'], correct_option: 0 }],
  },
  {
    type: 'fill_in_blanks',
    text: '[[1]]: the largest ocean.',
    blanks: [{ accepted_answers: ['Pacific', 'pacific ocean'] }],
  },
  { type: 'essay', text: 'Write about your holidays.', explanation: 'Any length.' },
  {
    type: 'grid',
    text: 'How was each part?',
    items: [{ label: 'Reading' }, { label: 'Exercises' }],
    columns: ['Easy', 'Hard'],
  },
];

/** A question as get_quiz_questions answers it, without what is the quiz's own (its id). */
const withoutIds = (questions: Array<Record<string, unknown>>) =>
  questions.map(({ question_id: _id, ...rest }) => rest);

/** supertest's parser for a body kept as bytes (a zip). */
const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

describeEachDatabase('Moodle XML, GIFT and QTI exports', (provider) => {
  let app: TestApp;
  let user: TestUser;
  let client: AnyClient;
  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));
  const pathOf = (url: string) => url.slice(app.baseUrl.length);

  beforeAll(async () => {
    app = await startTestApp({ provider });
    user = await createTestUser(app, 'exporter');
    client = await connectClient(app, user.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  /** Creates the quiz, downloads one export by its signed link, imports it; both quizzes' questions. */
  async function roundTrip(questions: object[], format: 'moodle_xml' | 'gift') {
    const quiz = await call('create_quiz', { title: `Round trip ${format}`, questions });
    const links = await call('get_quiz_links', { quiz_id: quiz.quiz_id });
    const file = await request(app.app).get(pathOf(links.exports[format])).buffer(true);
    expect(file.status).toBe(200);
    expect(file.headers['cache-control']).toBe('no-store');
    expect(file.headers['referrer-policy']).toBe('no-referrer');
    expect(file.headers['content-disposition']).toContain(`attachment; filename="${quiz.slug}.`);
    const text = file.text;
    const imported = await call('import_questions', { text, title: `Back from ${format}` });
    expect(imported.format).toBe(format);
    const before = await call('get_quiz_questions', { quiz_id: quiz.quiz_id });
    const after = await call('get_quiz_questions', { quiz_id: imported.quizzes[0].quiz_id });
    return { links, text, before: withoutIds(before.questions), after: withoutIds(after.questions) };
  }

  test('ours → Moodle XML → ours keeps every type but the scale and the grid whole, and says they are left out', async () => {
    const { links, text, before, after } = await roundTrip(everyType(), 'moodle_xml');
    expect(text).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<quiz>/);
    expect(text).toContain('<question type="ordering">');
    expect(text).toContain('<gradingtype>ABSOLUTE_POSITION</gradingtype>');
    expect(after).toEqual(before.filter((question) => !['scale', 'grid'].includes(question.type as string)));
    expect(links.note).toContain(
      'Moodle XML: left out, Moodle has no rating scale question: question 8; left out, Moodle has no grid question: question 12.',
    );
    expect(text).toContain('<question type="multianswer">');
    expect(text).toContain(
      '{2:SHORTANSWER:=Paris~=a\\}b\\~c\\#d\\\\e~=\\=x~=\\%50%y} is in {France}, on the {1:MULTICHOICE:Rhine~=Seine~\\%Loire}',
    );
    expect(text).toContain(
      '<subquestion format="plain_text"><text></text><answer><text>Sydney</text></answer>',
    );
  });

  test("an essay's rubric is named as lost to Moodle XML, its maximum kept; blanks worth 0 are named", async () => {
    const rubric = [
      {
        criterion: 'Thesis',
        levels: [
          { label: 'none', points: 0 },
          { label: 'clear', points: 3 },
        ],
      },
      {
        criterion: 'Style',
        levels: [
          { label: 'poor', points: 0 },
          { label: 'good', points: 2 },
        ],
      },
    ];
    const { links, text, after } = await roundTrip(
      [
        { type: 'essay', text: 'Argue.', rubric },
        {
          type: 'fill_in_blanks',
          text: 'A [[1]] b [[2]].',
          blanks: [{ accepted_answers: ['x'], points: 0 }, { accepted_answers: ['y'] }],
        },
      ],
      'moodle_xml',
    );
    expect(after[0]).toMatchObject({ type: 'essay', points: 5, rubric: [] });
    expect(text).toContain('Thesis: none (0), clear (3)');
    expect(links.note).toContain(
      'Moodle XML: loses its rubric (Moodle XML has none: its maximum is kept as the grade): question 1; loses a blank worth 0 points (Moodle counts an embedded answer as worth 1 at least): question 2.',
    );
    expect(links.note).toContain(
      'GIFT: loses points (GIFT has no grade: the question reads back as worth 1): question 1; loses its rubric (GIFT has none): question 1;',
    );
  });

  test('ours → GIFT → ours keeps every field GIFT holds; points, ordering and scale are named', async () => {
    const { links, text, before, after } = await roundTrip(giftTypes(), 'gift');
    expect(text).toContain('::Q1:: Braces \\{a\\}, \\= and \\~, \\# and \\: and \\\\ with');
    expect(after).toEqual(
      before.filter((question) => !['ordering', 'scale', 'grid'].includes(question.type as string)),
    );
    expect(links.note).toContain(
      'GIFT: left out, GIFT has no ordering question: question 6; left out, GIFT has no rating scale question: question 7; left out, GIFT has no grid question: question 12.',
    );
    expect(text).toContain('::Q9:: The cat sat on the {=mat ~hat ~%0%%bat} in \\{the\\} sun.');
    expect(text).toContain('{=one \\= 1 -> un \\~ =two -> deux = -> trois}');
    expect(text).toContain('::Q11:: Write about your holidays. { ####Any length.}');
    // More than one blank, or one that ends the text, is not a missing word.
    const blanks = await call('create_quiz', {
      title: 'Blanks',
      questions: [
        {
          type: 'fill_in_blanks',
          text: '[[1]] and [[2]].',
          blanks: [{ accepted_answers: ['a'] }, { accepted_answers: ['b'] }],
        },
        { type: 'fill_in_blanks', text: 'It ends with [[1]]', blanks: [{ accepted_answers: ['a'] }] },
      ],
    });
    const blanksNote = (await call('get_quiz_links', { quiz_id: blanks.quiz_id })).note as string;
    expect(blanksNote).toContain(
      'GIFT: left out, more than one blank (GIFT holds one missing word): question 1; left out, a blank at the end of the text (GIFT needs text after its missing word): question 2.',
    );
    // The Moodle quiz's points do not fit GIFT's single grade: each such question is named.
    const moodleQuiz = await call('create_quiz', { title: 'Points', questions: everyType() });
    const note = (await call('get_quiz_links', { quiz_id: moodleQuiz.quiz_id })).note as string;
    expect(note).toContain(
      'GIFT: loses points (GIFT has no grade: the question reads back as worth 1): questions 1, 2, 3, 4, 5',
    );
  });

  test('ours → QTI 3.0 package → ours: the signed link downloads a package that imports back', async () => {
    const quiz = await call('create_quiz', { title: 'Round trip qti', questions: everyType() });
    const links = await call('get_quiz_links', { quiz_id: quiz.quiz_id });
    expect(links.exports.qti).toMatch(
      new RegExp(`^${app.baseUrl}/dashboard/quizzes/${quiz.quiz_id}/export/qti\\.zip\\?sig=qti\\.`),
    );
    const file = await request(app.app).get(pathOf(links.exports.qti)).buffer(true).parse(binary);
    expect(file.status).toBe(200);
    expect(file.headers['content-type']).toBe('application/zip');
    expect(file.headers['cache-control']).toBe('no-store');
    expect(file.headers['referrer-policy']).toBe('no-referrer');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="${quiz.slug}-qti.zip"`);
    const zip = file.body as Buffer;
    expect(zip.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
    // Read back through the upload link and import_questions, as a teacher's other tool would send it.
    const posted = await request(app.app)
      .post(pathOf(links.upload.url))
      .attach('file', zip, { filename: 'quiz.zip', contentType: 'application/zip' });
    expect(posted.status).toBe(201);
    const imported = await call('import_questions', {
      upload_id: posted.body.upload_id,
      title: 'Back from qti',
    });
    expect(imported.format).toBe('qti');
    const before = withoutIds((await call('get_quiz_questions', { quiz_id: quiz.quiz_id })).questions);
    const after = await call('get_quiz_questions', { quiz_id: imported.quizzes[0].quiz_id });
    // What the note names as lost is all that differs: the order's points per item, the scale's
    // words, the essay's word limits; matching and blanks come back whole.
    expect(withoutIds(after.questions)).toEqual([
      ...before.slice(0, 6),
      { ...before[6], points: 6, points_per_item: null },
      { ...before[7], scale_labels: ['', ''] },
      ...before.slice(8, 10),
      { ...before[10], min_words: null, max_words: null },
      // The grid comes back whole: rows, columns, checkboxes, its key and points per row.
      before[11],
    ]);
    expect(before[11]).toMatchObject({
      type: 'grid',
      checkboxes: true,
      right_columns: [
        [0, 1, 2],
        [0, 1],
      ],
    });
    expect(links.note).toContain(
      'QTI 3.0 package: loses matching that ignores inner spaces and Unicode forms (QTI compares the text as typed, case aside): question 4;',
    );
    expect(links.note).toContain('loses points_per_item (');
    expect(links.note).toContain("): question 7; loses scale_labels (the ends' words): question 8;");
    expect(links.note).toContain('loses min_words and max_words (QTI has no word limits): question 11');
  });

  test('the quiz page offers the three exports with what each loses; the owner downloads them logged in', async () => {
    const quiz = await call('create_quiz', { title: 'On the dashboard', questions: everyType() });
    const agent = newAgent(app);
    await logIn(agent, user.email, user.password);
    const page = await agent.get(`/dashboard/quizzes/${quiz.quiz_id}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain('Export the questions');
    expect(page.text).toContain(
      `href="/dashboard/quizzes/${quiz.quiz_id}/export/moodle.xml" download>Moodle XML</a>`,
    );
    expect(page.text).toContain(
      `href="/dashboard/quizzes/${quiz.quiz_id}/export/gift.txt" download>GIFT</a>`,
    );
    expect(page.text).toContain('GIFT has no ordering question: questions 6, 7');
    expect(page.text).toContain(
      `href="/dashboard/quizzes/${quiz.quiz_id}/export/qti.zip" download>QTI 3.0 package</a>`,
    );
    expect(page.text).toContain('loses scale_labels (the ends&#39; words): question 8;');
    const zip = await agent
      .get(`/dashboard/quizzes/${quiz.quiz_id}/export/qti.zip`)
      .buffer(true)
      .parse(binary);
    expect(zip.status).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect((zip.body as Buffer).subarray(0, 2).toString('latin1')).toBe('PK');
    const xml = await agent.get(`/dashboard/quizzes/${quiz.quiz_id}/export/moodle.xml`).buffer(true);
    expect(xml.status).toBe(200);
    expect(xml.headers['content-type']).toContain('application/xml');
    expect(xml.text).toContain('<question type="truefalse">');
    // Without a session or a link: the login page, not the file.
    const anonymous = await request(app.app).get(`/dashboard/quizzes/${quiz.quiz_id}/export/gift.txt`);
    expect(anonymous.status).toBe(303);
    // A CSV link's signature does not open an export, nor another quiz's export link.
    const links = await call('get_quiz_links', { quiz_id: quiz.quiz_id });
    const csvSig = new URL(links.csv.url).searchParams.get('sig');
    const refused = await request(app.app).get(
      `/dashboard/quizzes/${quiz.quiz_id}/export/gift.txt?sig=${csvSig}`,
    );
    expect(refused.status).toBe(403);
    const giftAsQti = new URL(links.exports.gift).searchParams.get('sig');
    expect(
      (await request(app.app).get(`/dashboard/quizzes/${quiz.quiz_id}/export/qti.zip?sig=${giftAsQti}`))
        .status,
    ).toBe(403);
    const other = await call('create_quiz', { title: 'Other', questions: everyType() });
    const giftSig = new URL(links.exports.gift).searchParams.get('sig');
    expect(
      (await request(app.app).get(`/dashboard/quizzes/${other.quiz_id}/export/gift.txt?sig=${giftSig}`))
        .status,
    ).toBe(403);
  });
});
