// Pictures in Moodle XML, both ways, through the real doors: a bank's <file> pictures go through the
// same decoder and store as create_quiz's (nothing stored on a dry run, a file that is no picture
// listed with its question, the same picture stored once), and a quiz with pictures exported as
// Moodle XML comes back with the same pictures, alt texts and sizes. On both databases.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import sharp from 'sharp';
import { callTool, connectClient, errorText, payload, type AnyClient } from '../helpers/mcp-clients';
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/import', name), 'utf8');

const solidPng = async (width: number, height: number, background: string) =>
  (
    await sharp({ create: { width, height, channels: 3, background } })
      .png()
      .toBuffer()
  ).toString('base64');

describeEachDatabase('pictures in Moodle XML', (provider) => {
  let app: TestApp;
  let client: AnyClient;
  let ownerId: string;
  const call = async (tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));
  const blobs = () => app.database.prisma.imageBlob.count();

  beforeAll(async () => {
    app = await startTestApp({ provider });
    const user = await createTestUser(app, 'pictures');
    ownerId = user.id;
    client = await connectClient(app, user.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('a bank with pictures: the dry run decodes and stores nothing; the import stores each picture once', async () => {
    const text = fixture('bank.moodle.xml');
    const before = await blobs();
    const preview = await call('import_questions', { text, dry_run: true });
    expect(await blobs()).toBe(before);
    const byN = new Map(preview.notes.map((note: { n: number }) => [note.n, note]));
    // The question's and the answer's pictures are kept: only the missing alt text is named.
    expect(byN.get(1)).toMatchObject({ type: 'multiple_choice' });
    expect(preview.lost['alt text of answer 1\'s picture (given "Picture")']).toBe(1);
    expect(preview.lost.images).toBeUndefined();
    // A file that is not a picture: the question is listed with it, not imported without it.
    expect(byN.get(10)).toMatchObject({
      type: null,
      problems: [
        expect.stringMatching(
          /^<question> 11 \(line \d+\): the picture "fake.png" is not a PNG, JPEG, WebP or GIF picture/,
        ),
      ],
    });

    const done = await call('import_questions', { text, title: 'Italy', skip_unusable: true });
    const stored = await call('get_quiz_questions', { quiz_id: done.quizzes[0].quiz_id });
    const italy = stored.questions[0];
    expect(italy.image).toEqual({
      url: expect.stringMatching(/\/images\/[0-9a-f]{64}\.png$/),
      alt: 'Map of Italy',
      width: 4,
      height: 3,
    });
    expect(italy.options[0].image).toEqual({ url: expect.any(String), alt: 'Picture', width: 2, height: 2 });
    expect(italy.options[1].image).toBeUndefined();
    expect(await blobs()).toBe(before + 2);
    const served = await request(app.app).get(new URL(italy.image.url).pathname);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    // The same file again: the same pictures, stored once.
    await call('import_questions', { text, title: 'Italy again', skip_unusable: true });
    expect(await blobs()).toBe(before + 2);
  });

  test("ours → Moodle XML → ours keeps the question's and the options' pictures, alt texts and sizes", async () => {
    const quiz = await call('create_quiz', {
      title: 'Flags',
      questions: [
        {
          type: 'multiple_choice',
          text: 'Which flag is <red> & "plain"?\nLook closely.',
          image: { alt: 'Two flags, side by side', data: await solidPng(30, 20, '#c22') },
          options: [
            { label: 'Red', score: 1, image: { alt: 'A red flag', data: await solidPng(12, 8, '#d11') } },
            { label: 'Blue', score: 0 },
          ],
        },
        {
          type: 'yes_no',
          text: 'Is this green?',
          correct_answer: 'yes',
          image: { alt: 'Green "square"', data: await solidPng(10, 10, '#2a2') },
        },
      ],
    });
    const links = await call('get_quiz_links', { quiz_id: quiz.quiz_id });
    expect(links.note).not.toContain('Moodle XML: loses images');
    const file = await request(app.app).get(links.exports.moodle_xml.slice(app.baseUrl.length)).buffer(true);
    expect(file.status).toBe(200);
    expect(file.text).toMatch(
      /<questiontext format="html"><text>&lt;p&gt;Which flag is &amp;lt;red&amp;gt; &amp;amp; &amp;quot;plain&amp;quot;\?&lt;br&gt;Look closely\.&lt;\/p&gt;&lt;p&gt;&lt;img src=&quot;@@PLUGINFILE@@\/[0-9a-f]{64}\.png&quot; alt=&quot;Two flags, side by side&quot; width=&quot;30&quot; height=&quot;20&quot;&gt;&lt;\/p&gt;<\/text><file name="[0-9a-f]{64}\.png" path="\/" encoding="base64">iVBOR/,
    );
    const blobsBefore = await blobs();
    const imported = await call('import_questions', { text: file.text, title: 'Flags again' });
    // Only the category our export writes is named: a quiz has no categories.
    expect(imported.notes.map((note: { lost?: string[] }) => note.lost)).toEqual(
      imported.notes.map(() => ['its Moodle category ($course$/top/Flags)']),
    );
    expect(imported.notes.length).toBeGreaterThan(0);
    // Our own pictures come back as themselves: nothing new is stored.
    expect(await blobs()).toBe(blobsBefore);
    const strip = (questions: Array<Record<string, unknown>>) =>
      questions.map(({ question_id: _id, ...rest }) => rest);
    const before = await call('get_quiz_questions', { quiz_id: quiz.quiz_id });
    const after = await call('get_quiz_questions', { quiz_id: imported.quizzes[0].quiz_id });
    expect(strip(after.questions)).toEqual(strip(before.questions));
    expect(after.questions[0].image).toMatchObject({ alt: 'Two flags, side by side', width: 30, height: 20 });
  });

  test('pictures past the quota store nothing, and the refusal says so', async () => {
    const small = await startTestApp({
      provider,
      config: {
        images: { quizQuotaBytes: 100, accountQuotaBytes: 200, allowLoopback: false, fetchTimeoutMs: 5_000 },
      },
    });
    try {
      const user = await createTestUser(small, 'quota');
      const other = await connectClient(small, user.apiKey);
      const result = await callTool(other, 'import_questions', {
        text: fixture('bank.moodle.xml'),
        title: 'Over',
        skip_unusable: true,
      });
      expect(result.isError).toBe(true);
      expect(errorText(result)).toContain("the quiz's pictures would take");
      expect(await small.database.prisma.quiz.count({ where: { ownerId: user.id } })).toBe(0);
      expect(await small.database.prisma.imageBlob.count()).toBe(0);
      await other.close();
    } finally {
      await small.close();
    }
    expect(ownerId).toBeTruthy();
  });
});
