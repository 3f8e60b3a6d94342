// Ours → QTI 3.0 → ours through the real doors, for the types and fields the earlier round trip
// (export-round-trip.test.ts) leaves to this one: matching, fill-in-the-blanks (typed and chosen),
// essays (points, and a rubric) and pictures on a question and on its options. The signed link
// downloads the package; the upload link and import_questions read it back, a dry run storing
// nothing; every field comes back, the pictures as the same stored pictures. On both databases.
import request from 'supertest';
import { callTool, connectClient, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { solidPng } from '../images/fixtures';

/** supertest's parser for a body kept as bytes (a zip). */
const binary = (res: request.Response, done: (error: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (chunk: Buffer) => chunks.push(chunk));
  res.on('end', () => done(null, Buffer.concat(chunks)));
};

/** A question as get_quiz_questions answers it, without its id. */
const withoutIds = (questions: Array<Record<string, unknown>>) =>
  questions.map(({ question_id: _id, ...rest }) => rest);

describeEachDatabase('ours → QTI 3.0 → ours, every field', (provider) => {
  let app: TestApp;
  let user: TestUser;
  let client: AnyClient;
  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));
  const pathOf = (url: string) => url.slice(app.baseUrl.length);

  beforeAll(async () => {
    app = await startTestApp({ provider });
    user = await createTestUser(app, 'qti-exporter');
    client = await connectClient(app, user.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('matching, blanks, essays and pictures come back as they were', async () => {
    const picture = async (width: number, height: number, colour: string) =>
      (await solidPng(width, height, colour)).toString('base64');
    const questions = [
      {
        type: 'multiple_choice',
        text: 'Which flag is Japan’s?',
        image: { alt: 'Flags & "banners"', data: await picture(40, 30, '#336') },
        options: [
          {
            label: 'This one',
            score: 2,
            image: { alt: 'A red disc on white', data: await picture(20, 20, '#c00') },
          },
          { label: 'That one', score: 0, image: { alt: 'Stripes', data: await picture(20, 10, '#0c0') } },
          { label: 'Neither', score: 0 },
        ],
      },
      {
        type: 'matching',
        text: 'Match each country with its capital.',
        pairs: [
          { prompt: 'France', match: 'Paris' },
          { prompt: 'Spain', match: 'Madrid' },
          { prompt: 'Monaco', match: 'Monaco' },
        ],
        extra_matches: [{ label: 'Lyon' }],
        points_per_pair: 2,
      },
      {
        type: 'fill_in_blanks',
        text: 'Water is [[1]] and [[2]].\nIts formula: [[3]] <sub>.',
        blanks: [
          { accepted_answers: ['hydrogen', 'H'], points: 2 },
          { options: ['oxygen', 'nitrogen', 'carbon'], correct_option: 0, points: 1 },
          { accepted_answers: ['H2O'], points: 3 },
        ],
        explanation: 'H₂O.',
      },
      { type: 'essay', text: 'Describe your holiday.', points: 7 },
      {
        type: 'essay',
        text: 'For or against homework?',
        rubric: [
          {
            criterion: 'Argument',
            levels: [
              { label: 'Missing', points: 0 },
              { label: 'Clear (with reasons)', points: 4 },
            ],
          },
          {
            criterion: 'Spelling',
            levels: [
              { label: 'Some slips', points: 1 },
              { label: 'None', points: 2 },
            ],
          },
        ],
      },
    ];
    const quiz = await call('create_quiz', { title: 'Round trip qti, every field', questions });
    const links = await call('get_quiz_links', { quiz_id: quiz.quiz_id });
    expect(links.note).toContain(
      'QTI 3.0 package: loses matching of typed blanks that ignores inner spaces and Unicode forms',
    );
    expect(links.note).not.toContain('picture');
    const file = await request(app.app).get(pathOf(links.exports.qti)).buffer(true).parse(binary);
    expect(file.status).toBe(200);
    const posted = await request(app.app)
      .post(pathOf(links.upload.url))
      .attach('file', file.body as Buffer, { filename: 'quiz.zip', contentType: 'application/zip' });
    expect(posted.status).toBe(201);

    const counts = async () => ({
      quizzes: await app.database.prisma.quiz.count(),
      blobs: await app.database.prisma.imageBlob.count(),
    });
    const before = await counts();
    const preview = await call('import_questions', { upload_id: posted.body.upload_id, dry_run: true });
    expect(preview).toMatchObject({ format: 'qti', question_count: 5, importable: 5, not_importable: 0 });
    expect(await counts()).toEqual(before);

    const imported = await call('import_questions', { upload_id: posted.body.upload_id, title: 'Back' });
    const original = await call('get_quiz_questions', { quiz_id: quiz.quiz_id });
    const back = await call('get_quiz_questions', { quiz_id: imported.quizzes[0].quiz_id });
    // The pictures are the stored ones (same content, same address), so no new blob is stored.
    expect(withoutIds(back.questions)).toEqual(withoutIds(original.questions));
    expect(back.questions[0].image).toMatchObject({ alt: 'Flags & "banners"', width: 40, height: 30 });
    expect(await counts()).toEqual({ quizzes: before.quizzes + 1, blobs: before.blobs });
  });
});
