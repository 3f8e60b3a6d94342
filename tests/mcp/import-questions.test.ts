// import_questions through the real door: a GIFT bank previewed, then imported; appended to a
// draft; a bank too big for one quiz split or refused with its count; hostile and unreadable text
// refused with a field error and nothing stored; a storage failure midway leaving nothing. On
// both databases and in both eras.
import { readFileSync } from 'node:fs';
import request from 'supertest';
import path from 'node:path';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import {
  callTool,
  connectClient,
  errorText,
  forEachEra,
  payload,
  type AnyClient,
} from '../helpers/mcp-clients';
import { reportFigure } from '../helpers/figures';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/import', name), 'utf8');

/** `count` Aiken questions, each with four options. */
const aikenBank = (count: number, text = (n: number) => `Question ${n}: which letter comes first?`) =>
  Array.from({ length: count }, (_, index) => `${text(index + 1)}\nA. A\nB. B\nC. C\nD. D\nANSWER: A\n`).join(
    '\n',
  );

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<quiz><question type="truefalse"><name><text>&lol3;</text></name>
<questiontext><text>&lol3;</text></questiontext>
<answer fraction="100"><text>true</text></answer><answer fraction="0"><text>false</text></answer></question></quiz>`;

const XXE = `<?xml version="1.0"?>
<!DOCTYPE quiz [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<quiz><question type="truefalse"><questiontext><text>&xxe;</text></questiontext>
<answer fraction="100"><text>true</text></answer></question></quiz>`;

describeEachDatabase('import_questions', (provider) => {
  let app: TestApp;

  beforeAll(async () => {
    app = await startTestApp({ provider });
  });
  afterAll(async () => {
    await app.close();
  });

  const quizCount = (ownerId: string) => app.database.prisma.quiz.count({ where: { ownerId } });

  forEachEra((era) => {
    let client: AnyClient;
    let ownerId: string;
    beforeAll(async () => {
      const user = await createTestUser(app, 'importer');
      ownerId = user.id;
      client = await era.connect(app, user.apiKey);
    });
    afterAll(async () => {
      await client.close();
    });
    const call = async (tool: string, args: Record<string, unknown>) =>
      payload(await callTool(client, tool, args));
    const refusal = async (args: Record<string, unknown>) =>
      errorText(await callTool(client, 'import_questions', args));

    test('the dry run names each text the import rewrote and how; a bank written plainly has no such field', async () => {
      const preview = await call('import_questions', {
        text: '::Q1::[html]Caf&eacute; au lait, &frac12; each?{T}\n\n::Q2::Plain?{F}',
        dry_run: true,
      });
      expect(preview.changed).toEqual({
        'its format marker [html] taken off': 1,
        'HTML character references decoded (&eacute; → é)': 1,
      });
      expect(preview.notes).toEqual([
        expect.objectContaining({
          n: 1,
          text: 'Café au lait, ½ each?',
          changed: ['its format marker [html] taken off', 'HTML character references decoded (&eacute; → é)'],
        }),
      ]);
      const plain = await call('import_questions', { text: '::Q1::Plain?{F}', dry_run: true });
      expect(plain).not.toHaveProperty('changed');
      expect(plain.notes).toEqual([]);
    });

    test('a GIFT bank: the dry run previews and stores nothing; the import stores what it previewed', async () => {
      const text = fixture('bank.gift');
      const preview = await call('import_questions', { text, dry_run: true });
      expect(preview).toMatchObject({
        dry_run: true,
        format: 'gift',
        question_count: 16,
        importable: 15,
        not_importable: 1,
        types: {
          multiple_choice: 3,
          yes_no: 3,
          multiple_select: 2,
          short_text: 1,
          number: 3,
          fill_in_blanks: 1,
          matching: 1,
          essay: 1,
        },
        points_per_grade: 100,
        quizzes: [],
      });
      const byN = new Map(preview.notes.map((note: { n: number }) => [note.n, note]));
      expect(byN.get(1)).toMatchObject({
        at: 'line 5',
        type: 'multiple_choice',
        lost: ['feedback per answer', 'its Moodle category ($course$/Geography/Capitals)'],
      });
      expect(byN.get(6)).toMatchObject({ regraded: ['33.333 → 33', '33.333 → 33', '33.333 → 33'] });
      // Nothing to say of it but the category its $CATEGORY: line gave.
      expect(byN.get(12)).toMatchObject({ lost: ['its Moodle category ($course$/Geography/Capitals)'] });
      expect(byN.get(12)).not.toHaveProperty('problems');
      expect(byN.get(12)).not.toHaveProperty('regraded');
      expect(byN.get(16)).toMatchObject({ type: null, problems: [expect.stringContaining('a description')] });
      expect(await quizCount(ownerId)).toBe(0);

      const refused = await refusal({ text, title: 'Geography' });
      expect(refused).toContain('skip_unusable: 1 of the 16 questions cannot be imported');
      expect(refused).toContain('send skip_unusable: true to import the other 15');
      expect(await quizCount(ownerId)).toBe(0);

      const done = await call('import_questions', { text, title: 'Geography', skip_unusable: true });
      expect(done.quizzes).toEqual([
        expect.objectContaining({ title: 'Geography', status: 'draft', question_count: 15 }),
      ]);
      const stored = await call('get_quiz_questions', { quiz_id: done.quizzes[0].quiz_id });
      expect(stored.questions.map((question: { type: string }) => question.type)).toEqual([
        'multiple_choice',
        'yes_no',
        'yes_no',
        'multiple_choice',
        'multiple_select',
        'multiple_select',
        'short_text',
        'number',
        'number',
        'number',
        'fill_in_blanks',
        'matching',
        'essay',
        'multiple_choice',
        'yes_no',
      ]);
      expect(stored.questions[0]).toMatchObject({
        text: 'What is the capital of France?',
        explanation: 'Paris has been the capital since 987.',
        options: [
          { label: 'Paris', score: 100 },
          { label: 'Lyon', score: 0 },
          { label: 'Marseille', score: 0 },
        ],
      });
      expect(stored.questions[8]).toMatchObject({ correct_number: 3, tolerance: 2, points: 100 });
    });

    test('appends to a draft, keeping the questions already there; a published quiz is refused', async () => {
      const quiz = await call('create_quiz', {
        title: 'Warm-up',
        questions: [{ type: 'yes_no', text: 'Ready?', correct_answer: 'yes' }],
      });
      const before = await call('get_quiz_questions', { quiz_id: quiz.quiz_id });
      const done = await call('import_questions', { text: fixture('bank.aiken.txt'), quiz_id: quiz.quiz_id });
      expect(done.quizzes).toEqual([expect.objectContaining({ quiz_id: quiz.quiz_id, question_count: 5 })]);
      const after = await call('get_quiz_questions', { quiz_id: quiz.quiz_id });
      expect(after.questions[0].question_id).toBe(before.questions[0].question_id);
      expect(after.questions.slice(1).map((question: { text: string }) => question.text)).toEqual([
        'Is this an Aiken question?',
        'What is 2 + 2?',
        'Which planet is known as the red planet?',
        'Which gas do plants take in?',
      ]);
      await call('publish_quiz', { quiz_id: quiz.quiz_id });
      expect(await refusal({ text: fixture('bank.aiken.txt'), quiz_id: quiz.quiz_id })).toContain(
        'quiz_id: "Warm-up" is published: import into a draft',
      );
      expect((await call('get_quiz_questions', { quiz_id: quiz.quiz_id })).questions).toHaveLength(5);
    });

    test('more than 100 questions: the preview offers to split, the import refuses with the count or splits', async () => {
      const text = aikenBank(250);
      const preview = await call('import_questions', { text, dry_run: true });
      expect(preview).toMatchObject({ importable: 250, quizzes_needed: 3 });
      expect(preview.message).toContain('send split: true with a title to make 3 quizzes');
      const counted = await quizCount(ownerId);
      expect(await refusal({ text, title: 'Letters' })).toContain(
        'split: the bank has 250 questions and a quiz takes at most 100: send split: true to make 3 quizzes',
      );
      expect(await quizCount(ownerId)).toBe(counted);
      const done = await call('import_questions', { text, title: 'Letters', split: true });
      expect(
        done.quizzes.map((quiz: { title: string; question_count: number }) => [
          quiz.title,
          quiz.question_count,
        ]),
      ).toEqual([
        ['Letters (1 of 3)', 100],
        ['Letters (2 of 3)', 100],
        ['Letters (3 of 3)', 50],
      ]);
      expect(await quizCount(ownerId)).toBe(counted + 3);
    });

    test('XXE and billion laughs are refused as a field error, and nothing is stored', async () => {
      const counted = await quizCount(ownerId);
      for (const text of [XXE, BILLION_LAUGHS]) {
        const refused = await refusal({ text, title: 'Hostile', dry_run: false });
        expect(refused).toContain('text: moodle_xml: line 2: the XML declares a DOCTYPE');
        expect(refused).toContain('remove the <!DOCTYPE ...> declaration');
      }
      // An entity used without any DOCTYPE is not expanded either.
      expect(
        await refusal({
          text: '<quiz><question type="essay"><name><text>&lol;</text></name></question></quiz>',
          title: 'X',
        }),
      ).toContain("undefined entity: only XML's own entities");
      expect(await quizCount(ownerId)).toBe(counted);
    });

    test('unreadable text: an unknown format, an unclosed brace, too much text, each says what to fix', async () => {
      const counted = await quizCount(ownerId);
      expect(
        await refusal({ text: 'Just some notes about the French revolution.', title: 'Notes' }),
      ).toContain('format: could not tell the format: send format, one of gift, aiken, moodle_xml, csv');
      expect(
        await refusal({ text: 'Q1 {=a ~b}\n\nQ2 is {=open ~never closed\n', title: 'Broken' }),
      ).toContain('text: gift: line 3: the answers open with { but never close: add the }');
      expect(await refusal({ text: 'x'.repeat(200_001), title: 'Big' })).toContain(
        'text is too long: at most 200000 characters (got 200001)',
      );
      expect(await refusal({ text: 'Q {=a ~b}', format: 'qti' })).toContain(
        'format must be one of gift, aiken, moodle_xml, csv',
      );
      expect(await quizCount(ownerId)).toBe(counted);
    });
  });

  test('the CSV template is served for download, and imports whole', async () => {
    const res = await request(app.app).get('/docs/import-template.csv');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="import-template.csv"');
    const client = await connectClient(app, (await createTestUser(app, 'template')).apiKey);
    const done = payload(
      await callTool(client, 'import_questions', { text: res.text, title: 'From the template' }),
    );
    expect(done).toMatchObject({ format: 'csv', importable: 6, not_importable: 0 });
    expect(done.quizzes).toEqual([expect.objectContaining({ question_count: 6 })]);
    await client.close();
  });

  test('a preview of 300 questions, every one with something to say, fits in 16 KB', async () => {
    const user = await createTestUser(app, 'preview');
    const client = await connectClient(app, user.apiKey);
    const text = Array.from(
      { length: 300 },
      (_, index) =>
        `::Q${index + 1}::Question number ${index + 1}, which asks something rather long to read in full? {\n` +
        '~%33.33333%One # a feedback\n~%33.33333%Two # another\n~%33.33333%Three # and one more\n~%-100%Four # wrong\n}',
    ).join('\n\n');
    const result = await callTool(client, 'import_questions', { text, dry_run: true });
    const answer = payload(result);
    const bytes = Buffer.byteLength(result.content[0]!.text!);
    reportFigure(`import_questions preview of 300 questions: ${bytes} bytes (page 1 of ${answer.pages})`);
    expect(answer).toMatchObject({ question_count: 300, importable: 300, regraded: 300, pages: 12 });
    expect(answer.notes).toHaveLength(25);
    expect(bytes).toBeLessThanOrEqual(16 * 1024);
    const last = payload(await callTool(client, 'import_questions', { text, dry_run: true, page: 12 }));
    expect(last.notes.map((note: { n: number }) => note.n)).toEqual(
      Array.from({ length: 25 }, (_, index) => 276 + index),
    );
    await client.close();
  });

  test('a storage failure midway through a split import leaves nothing stored', async () => {
    const user = await createTestUser(app, 'midway');
    const client = await connectClient(app, user.apiKey);
    const prisma = app.database.prisma;
    // A failure planted in the database itself: the 120th question (in the second quiz) cannot be written.
    if (provider === 'sqlite') {
      await prisma.$executeRawUnsafe(
        "CREATE TRIGGER fail_import BEFORE INSERT ON questions WHEN NEW.text = 'FAIL-HERE' BEGIN SELECT RAISE(ABORT, 'planted failure'); END",
      );
    } else {
      await prisma.$executeRawUnsafe(
        "CREATE FUNCTION fail_import() RETURNS trigger AS $$ BEGIN IF NEW.text = 'FAIL-HERE' THEN RAISE EXCEPTION 'planted failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql",
      );
      await prisma.$executeRawUnsafe(
        'CREATE TRIGGER fail_import BEFORE INSERT ON questions FOR EACH ROW EXECUTE FUNCTION fail_import()',
      );
    }
    try {
      const text = aikenBank(150, (n) => (n === 120 ? 'FAIL-HERE' : `Question ${n}?`));
      const result = await callTool(client, 'import_questions', { text, title: 'Half', split: true });
      expect(errorText(result)).toMatch(/request id/i);
      expect(await quizCount(user.id)).toBe(0);
      expect(await prisma.question.count({ where: { quiz: { ownerId: user.id } } })).toBe(0);
    } finally {
      await prisma.$executeRawUnsafe(
        'DROP TRIGGER fail_import' + (provider === 'sqlite' ? '' : ' ON questions'),
      );
      if (provider !== 'sqlite') await prisma.$executeRawUnsafe('DROP FUNCTION fail_import()');
    }
    // The same bank without the planted failure goes in whole.
    const done = payload(
      await callTool(client, 'import_questions', { text: aikenBank(150), title: 'Whole', split: true }),
    );
    expect(done.quizzes.map((quiz: { question_count: number }) => quiz.question_count)).toEqual([100, 50]);
    await client.close();
  });
});
