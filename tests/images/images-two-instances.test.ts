// Two instances on one PostgreSQL database, as behind a load balancer: a picture sent through the
// upload link of one (upload_id) is served by the other, byte for byte; a hostile upload stores
// no picture.
import request from 'supertest';
import { callTool, errorText, payload, type AnyClient } from '../helpers/mcp-clients';
import { startTwoInstances, type TwoInstances } from '../helpers/test-app';
import { createTestDatabase, describeWithPostgres, type TestDatabase } from '../helpers/test-database';
import { HTML_NAMED_PNG, noisePng, solidPng } from './fixtures';

describeWithPostgres('pictures on two instances [postgresql]', () => {
  let database: TestDatabase;
  let instances: TwoInstances;

  beforeAll(async () => {
    database = await createTestDatabase('postgresql');
    instances = await startTwoInstances(database);
  });
  afterAll(async () => {
    await instances.close();
    await database.drop();
  });

  const call = async (client: AnyClient, tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));
  const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

  async function upload(bytes: Buffer, filename: string, contentType: string): Promise<string> {
    const draft = await call(instances.viaOne, 'create_quiz', { title: `Upload ${filename}` });
    const links = await call(instances.viaOne, 'get_quiz_links', { quiz_id: draft.quiz_id });
    const posted = await request(instances.one.app)
      .post(pathOf(links.upload.url))
      .attach('file', bytes, { filename, contentType });
    expect(posted.status).toBe(201);
    return posted.body.upload_id as string;
  }

  test('a picture uploaded through one instance is served by the other', async () => {
    const png = await solidPng(800, 600, '#5a5');
    const uploadId = await upload(png, 'diagram.png', 'image/png');
    const quiz = await call(instances.viaTwo, 'create_quiz', {
      title: 'Diagram',
      questions: [
        {
          type: 'yes_no',
          text: 'Is the square green?',
          image: { alt: 'A green square', upload_id: uploadId },
        },
      ],
    });
    const { url } = quiz.questions[0].image;
    const fromOne = await request(instances.one.app).get(new URL(url).pathname).buffer(true);
    const fromTwo = await request(instances.two.app).get(new URL(url).pathname).buffer(true);
    expect(fromOne.status).toBe(200);
    expect(fromTwo.status).toBe(200);
    expect(fromTwo.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(fromOne.body as Buffer, fromTwo.body as Buffer)).toBe(0);
  });

  test('an HTML file or a 3 MB picture sent through the upload link is refused as a picture, and none is stored', async () => {
    const blobs = await database.prisma.imageBlob.count();
    for (const [bytes, name, message] of [
      [HTML_NAMED_PNG, 'photo.png', /not a PNG, JPEG, WebP or GIF/],
      [await noisePng(1100), 'big.png', /at most 2\.0 MB/],
    ] as const) {
      const uploadId = await upload(bytes, name, 'image/png');
      const result = await callTool(instances.viaOne, 'create_quiz', {
        title: 'Hostile upload',
        questions: [{ type: 'yes_no', text: 'Safe?', image: { alt: 'Anything', upload_id: uploadId } }],
      });
      expect(result.isError).toBe(true);
      expect(errorText(result)).toMatch(/questions\[0\]\.image\.upload_id/);
      expect(errorText(result)).toMatch(message);
    }
    expect(await database.prisma.imageBlob.count()).toBe(blobs);
  });
});
