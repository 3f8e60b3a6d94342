// QTI packages through the real doors: a QTI 3.0 package POSTed to the upload link of
// get_quiz_links, previewed and imported by import_questions with its upload_id, the quiz read
// back from the database; a zip bomb, a path out of the package and a cut zip get a clear error
// naming upload_id and leave no quiz and no question behind. On both databases.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { writeZip, ZIP_LIMITS } from '../../src/domain/import/zip';
import { callTool, connectClient, errorText, payload, type AnyClient } from '../helpers/mcp-clients';
import { zipFixtureFolder } from '../helpers/qti-packages';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';

const FIXTURES = path.join(__dirname, '../fixtures/import');
const MANIFEST = `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="m"><resources><resource identifier="i" type="imsqti_item_xmlv3p0" href="aa/item.xml"/></resources></manifest>`;

describeEachDatabase('QTI packages through the upload link', (provider) => {
  let database: TestDatabase;
  let app: TestApp;
  let client: AnyClient;
  let userId: string;
  let quizId: string;

  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));
  const upload = async (bytes: Buffer, filename = 'package.zip', contentType = 'application/zip') => {
    const links = await call('get_quiz_links', { quiz_id: quizId });
    const posted = await request(app.app)
      .post(links.upload.url.slice(app.baseUrl.length))
      .attach('file', bytes, { filename, contentType });
    expect(posted.status).toBe(201);
    return posted.body.upload_id as string;
  };
  const counts = async () => ({
    quizzes: await database.prisma.quiz.count({ where: { ownerId: userId } }),
    questions: await database.prisma.question.count(),
  });

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    app = await startTestApp({ database });
    const user = await createTestUser(database);
    userId = user.id;
    client = await connectClient(app, user.apiKey);
    quizId = (
      await call('create_quiz', {
        title: 'Where uploads start',
        questions: [{ type: 'yes_no', text: 'Ready?' }],
      })
    ).quiz_id;
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  test('a QTI 3.0 package is previewed, then imported into a draft quiz with the types it previewed', async () => {
    const uploadId = await upload(await zipFixtureFolder('qti3-package'));
    const preview = await call('import_questions', { upload_id: uploadId, dry_run: true });
    expect(preview).toMatchObject({
      dry_run: true,
      format: 'qti',
      question_count: 13,
      importable: 12,
      not_importable: 1,
      points_per_grade: 100,
      quizzes: [],
    });
    expect(preview.notes.map((note: { at: string }) => note.at)).toContain('items/hotspot.xml');

    const before = await counts();
    const done = await call('import_questions', {
      upload_id: uploadId,
      title: 'From QTI',
      skip_unusable: true,
    });
    expect(done.quizzes).toEqual([expect.objectContaining({ title: 'From QTI', question_count: 12 })]);
    const stored = await database.prisma.question.findMany({
      where: { quizId: done.quizzes[0].quiz_id },
      orderBy: { position: 'asc' },
    });
    expect(stored.map((question) => question.type)).toEqual([
      'yes_no',
      'multiple_choice',
      'multiple_select',
      'multiple_select',
      'fill_in_blanks',
      'number',
      'number',
      'ordering',
      'scale',
      'matching',
      'essay',
      'fill_in_blanks',
    ]);
    expect(await counts()).toEqual({ quizzes: before.quizzes + 1, questions: before.questions + 12 });

    const read = await call('get_quiz_questions', { quiz_id: done.quizzes[0].quiz_id });
    expect(read.questions[5]).toMatchObject({
      type: 'number',
      correct_number: 3.14,
      tolerance: 0.005,
      points: 300,
      explanation: 'Pi is about 3.14159.',
    });
    expect(read.questions[9]).toMatchObject({
      type: 'matching',
      pairs: [
        { prompt: 'France', match: 'Paris' },
        { prompt: 'Italy', match: 'Rome' },
      ],
      points_per_pair: 50,
    });
  });

  test('one QTI item uploaded as a plain .xml file is read as QTI, 3.0 and 2.1 alike, and imported', async () => {
    const item3 = readFileSync(path.join(FIXTURES, 'qti3-package/items/capital.xml'));
    const item21 = readFileSync(path.join(FIXTURES, 'qti21-package/choice.xml'));
    const preview = async (bytes: Buffer) =>
      call('import_questions', {
        upload_id: await upload(bytes, 'item.xml', 'application/xml'),
        dry_run: true,
      });
    const three = await preview(item3);
    expect(three).toMatchObject({ format: 'qti', question_count: 1, importable: 1 });
    expect(three.types).toEqual({ multiple_choice: 1 });
    // Its picture is another file, which a lone item does not carry; the question is kept.
    expect(await preview(item21)).toMatchObject({ format: 'qti', question_count: 1, importable: 1 });

    const done = await call('import_questions', {
      upload_id: await upload(item3, 'capital.xml', 'text/xml'),
      title: 'One QTI item',
    });
    const read = await call('get_quiz_questions', { quiz_id: done.quizzes[0].quiz_id });
    expect(read.questions).toEqual([
      expect.objectContaining({
        type: 'multiple_choice',
        text: 'What is the capital of France?\n\nChoose one.',
      }),
    ]);
  });

  test('a QTI test uploaded alone names each item it lists as in another file, with what to send', async () => {
    const test = readFileSync(path.join(FIXTURES, 'qti3-package/assessment-test.xml'));
    const uploadId = await upload(test, 'assessment-test.xml', 'application/xml');
    const preview = await call('import_questions', { upload_id: uploadId, dry_run: true });
    expect(preview).toMatchObject({ format: 'qti', question_count: 13, importable: 0 });
    expect(preview.notes[1].problems).toEqual([
      'the test "bank" names "items/capital.xml", which is in another file: upload the whole QTI package (the zip with imsmanifest.xml, the test and its items)',
    ]);
    const before = await counts();
    const refused = errorText(
      await callTool(client, 'import_questions', { upload_id: uploadId, title: 'Only a test' }),
    );
    expect(refused).toContain('none of the 13 questions can be imported');
    expect(await counts()).toEqual(before);
  });

  test('a zip bomb, a path out of the package and a cut zip are refused, and nothing is stored', async () => {
    const bomb = await writeZip([
      { path: 'imsmanifest.xml', bytes: MANIFEST },
      { path: 'aa/item.xml', bytes: Buffer.alloc(ZIP_LIMITS.entryBytesMax * 4) },
    ]);
    const traversal = Buffer.from(
      (
        await writeZip([
          { path: 'imsmanifest.xml', bytes: MANIFEST },
          { path: 'aa/item.xml', bytes: '<x/>' },
        ])
      )
        .toString('latin1')
        .replaceAll('aa/item.xml', '../item.xml'),
      'latin1',
    );
    const whole = await zipFixtureFolder('qti21-package');
    const cases: Array<[string, Buffer, string]> = [
      ['bomb', bomb, 'this looks like a zip bomb, and nothing was read'],
      ['traversal', traversal, 'the zip names "../item.xml", a path outside the package'],
      ['cut', whole.subarray(0, whole.length - 200), 'the zip file is damaged or cut short'],
    ];
    const before = await counts();
    for (const [name, bytes, expected] of cases) {
      const uploadId = await upload(bytes);
      for (const args of [{ dry_run: true }, { title: 'Hostile' }]) {
        const refused = errorText(
          await callTool(client, 'import_questions', { upload_id: uploadId, ...args }),
        );
        expect([name, refused]).toEqual([name, expect.stringContaining(`- upload_id: QTI package: `)]);
        expect([name, refused]).toEqual([name, expect.stringContaining(expected)]);
      }
    }
    expect(await counts()).toEqual(before);
  });
});
