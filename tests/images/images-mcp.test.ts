// Pictures in questions through the MCP tools, on both databases: sent as data or by address,
// answered as our own address with alt text and size, served by content hash, kept on an edit
// that leaves them out, gone once no question uses them, and every hostile picture refused with
// a clear error and nothing stored.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { decodeImage } from '../../src/domain/images/decode-image';
import { callTool, connectClient, errorText, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { HTML_NAMED_PNG, noisePng, pngDeclaring, solidJpeg, solidPng, SVG } from './fixtures';

const b64 = (bytes: Buffer) => bytes.toString('base64');

/** A picture host on loopback (allowed by the test config, as webhooks' tests do). */
async function pictureHost(png: Buffer) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/pic.png') res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    else if (req.url === '/page.png') res.writeHead(200, { 'content-type': 'image/png' }).end(HTML_NAMED_PNG);
    else if (req.url === '/to-metadata')
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data' }).end();
    else if (req.url === '/to-private') res.writeHead(301, { location: 'https://10.0.0.7/pic.png' }).end();
    else if (req.url === '/huge.png') {
      // 20 MB that starts as a PNG would: refused from its length, never read whole.
      const huge = Buffer.alloc(20 * 1024 * 1024);
      png.copy(huge, 0, 0, 64);
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(huge.length) }).end(huge);
    } else if (req.url === '/loop') res.writeHead(302, { location: '/loop' }).end();
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describeEachDatabase('images in questions over MCP', (provider) => {
  let app: TestApp;
  let user: TestUser;
  let client: AnyClient;
  let host: Awaited<ReturnType<typeof pictureHost>>;
  let png: Buffer;

  beforeAll(async () => {
    png = await solidPng(2400, 1200, '#2a6');
    host = await pictureHost(png);
    app = await startTestApp({
      provider,
      config: {
        images: {
          quizQuotaBytes: 20 * 1024 * 1024,
          accountQuotaBytes: 200 * 1024 * 1024,
          allowLoopback: true,
          fetchTimeoutMs: 5_000,
        },
      },
    });
    user = await createTestUser(app);
    client = await connectClient(app, user.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
    await host.close();
  });

  const call = (tool: string, args: Record<string, unknown>) => callTool(client, tool, args);
  const blobCount = () => app.database.prisma.imageBlob.count();
  const pathOf = (url: string) => new URL(url).pathname;

  test('a question and two options carry pictures; answers show our address, alt text and size; the picture is served by hash', async () => {
    const jpeg = await solidJpeg(300, 200);
    const option = await solidPng(64, 64, '#fc0');
    const created = payload(
      await call('create_quiz', {
        title: 'Flags',
        questions: [
          {
            type: 'multiple_choice',
            text: 'Which flag is this?',
            image: { alt: 'A green flag', url: `${host.origin}/pic.png` },
            options: [
              { label: 'Green', score: 1, image: { alt: 'Green square', data: b64(option) } },
              { label: 'Blue', image: { alt: 'Blue photo', data: `data:image/jpeg;base64,${b64(jpeg)}` } },
              { label: 'Red' },
            ],
          },
        ],
      }),
    );
    const question = created.questions[0];
    expect(question.image).toEqual({
      url: expect.stringMatching(new RegExp(`^${app.baseUrl}/images/[0-9a-f]{64}\\.png$`)),
      alt: 'A green flag',
      width: 1600,
      height: 800,
    });
    expect(question.options[0].image).toMatchObject({ alt: 'Green square', width: 64, height: 64 });
    expect(question.options[1].image).toMatchObject({ alt: 'Blue photo', width: 300, height: 200 });
    expect(question.options[1].image.url).toMatch(/\.jpg$/);
    expect(question.options[2].image).toBeUndefined();

    const read = payload(await call('get_quiz_questions', { quiz_id: created.quiz_id }));
    expect(read.questions[0].image).toEqual(question.image);
    const respondent = payload(
      await call('get_quiz_questions', { quiz_id: created.quiz_id, view: 'respondent' }),
    );
    expect(respondent.questions[0].image).toEqual(question.image);
    expect(respondent.questions[0].options[1].image).toEqual(question.options[1].image);

    const served = await request(app.app).get(pathOf(question.image.url)).buffer(true);
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await decodeImage(served.body as Buffer)).width).toBe(1600);
    const jpegServed = await request(app.app).get(pathOf(question.options[1].image.url));
    expect(jpegServed.headers['content-type']).toBe('image/jpeg');
    expect((served.body as Buffer).includes(Buffer.from('Private Person'))).toBe(false);
  });

  test('the same address sent again is not fetched again; the same picture is stored once', async () => {
    const before = host.hits.filter((hit) => hit === '/pic.png').length;
    const blobs = await blobCount();
    const again = payload(
      await call('create_quiz', {
        title: 'Flags again',
        questions: [
          { type: 'yes_no', text: 'Green?', image: { alt: 'Same flag', url: `${host.origin}/pic.png` } },
          { type: 'yes_no', text: 'Still green?', image: { alt: 'Same flag as data', data: b64(png) } },
        ],
      }),
    );
    expect(host.hits.filter((hit) => hit === '/pic.png').length).toBe(before);
    expect(again.questions[0].image.url).toBe(again.questions[1].image.url);
    expect(await blobCount()).toBe(blobs);
  });

  test('an edit that leaves a picture out keeps it; null removes it, and a picture no question uses is gone', async () => {
    const own = await solidPng(50, 40, '#123456');
    const created = payload(
      await call('create_quiz', {
        title: 'Shapes',
        questions: [
          { type: 'yes_no', text: 'A rectangle?', image: { alt: 'Dark rectangle', data: b64(own) } },
        ],
      }),
    );
    const { url } = created.questions[0].image;
    const kept = payload(
      await call('update_quiz', {
        quiz_id: created.quiz_id,
        questions: [{ question_id: created.questions[0].question_id, type: 'yes_no', text: 'A box?' }],
      }),
    );
    expect(kept.questions[0].image.url).toBe(url);
    // Sent back as read: our own address is taken without fetching.
    const back = payload(
      await call('edit_questions', {
        quiz_id: created.quiz_id,
        operations: [
          {
            op: 'update',
            question_id: kept.questions[0].question_id,
            image: { ...kept.questions[0].image, alt: 'Box' },
          },
        ],
      }),
    );
    expect(back.version_raised).toBe(false);
    const reread = payload(await call('get_quiz_questions', { quiz_id: created.quiz_id }));
    expect(reread.questions[0].image).toMatchObject({ url, alt: 'Box' });
    expect((await request(app.app).get(pathOf(url))).status).toBe(200);
    payload(
      await call('edit_questions', {
        quiz_id: created.quiz_id,
        operations: [{ op: 'update', question_id: kept.questions[0].question_id, image: null }],
      }),
    );
    expect((await request(app.app).get(pathOf(url))).status).toBe(404);
  });

  test('delete_quiz deletes its pictures, but not one another quiz still uses', async () => {
    const mine = await solidPng(30, 30, '#abcdef');
    const shared = await solidPng(31, 31, '#fedcba');
    const first = payload(
      await call('create_quiz', {
        title: 'To delete',
        questions: [
          { type: 'yes_no', text: 'One?', image: { alt: 'Own', data: b64(mine) } },
          { type: 'yes_no', text: 'Two?', image: { alt: 'Shared', data: b64(shared) } },
        ],
      }),
    );
    const second = payload(
      await call('create_quiz', {
        title: 'Keeps one',
        questions: [
          { type: 'yes_no', text: 'Two?', image: { alt: 'Shared', url: first.questions[1].image.url } },
        ],
      }),
    );
    expect(second.questions[0].image.url).toBe(first.questions[1].image.url);
    payload(await call('delete_quiz', { quiz_id: first.quiz_id, confirm: true }));
    expect((await request(app.app).get(pathOf(first.questions[0].image.url))).status).toBe(404);
    expect((await request(app.app).get(pathOf(first.questions[1].image.url))).status).toBe(200);
  });

  describe('hostile pictures are refused with a clear error, and nothing is stored', () => {
    const refused = async (image: Record<string, unknown>, message: RegExp) => {
      const blobs = await blobCount();
      const quizzes = await app.database.prisma.quiz.count();
      const result = await call('create_quiz', {
        title: 'Hostile',
        questions: [{ type: 'yes_no', text: 'Safe?', image: { alt: 'Something', ...image } }],
      });
      expect(result.isError).toBe(true);
      expect(errorText(result)).toMatch(/questions\[0\]\.image/);
      expect(errorText(result)).toMatch(message);
      expect(await blobCount()).toBe(blobs);
      expect(await app.database.prisma.quiz.count()).toBe(quizzes);
    };

    test('an HTML file named .png, as data and by address', async () => {
      await refused({ data: b64(HTML_NAMED_PNG) }, /not a PNG, JPEG, WebP or GIF/);
      await refused({ url: `${host.origin}/page.png` }, /not a PNG, JPEG, WebP or GIF/);
    });
    test('an SVG', async () => {
      await refused({ data: b64(SVG) }, /SVG is not taken/);
    });
    test('a 20 MB picture by address; more than 512 KB as data', async () => {
      await refused({ url: `${host.origin}/huge.png` }, /20971520 bytes: a picture may be at most 2 MB/);
      const big = await noisePng(500);
      await refused({ data: b64(big.subarray(0, 600 * 1024)) }, /512 KB/);
    });
    test('a tiny PNG declaring 50,000 × 50,000 pixels', async () => {
      await refused({ data: b64(await pngDeclaring(50_000, 50_000)) }, /50000 × 50000 pixels/);
    });
    test('an image_url at a private address, or redirecting to one', async () => {
      await refused({ url: 'https://10.0.0.7/pic.png' }, /10\.0\.0\.7.*not a public address/);
      await refused({ url: 'https://169.254.169.254/latest/meta-data' }, /not a public address/);
      await refused(
        { url: `${host.origin}/to-metadata` },
        /redirects to an address that.*169\.254\.169\.254/,
      );
      await refused({ url: `${host.origin}/to-private` }, /redirects to an address that.*10\.0\.0\.7/);
      await refused({ url: 'ftp://example.com/pic.png' }, /https:\/\//);
    });
    test('neither url nor data', async () => {
      await refused({}, /needs the picture: url .*, data .* or upload_id/);
    });
  });
});

describeEachDatabase('image quotas', (provider) => {
  let app: TestApp;
  let client: AnyClient;

  beforeAll(async () => {
    app = await startTestApp({
      provider,
      config: {
        images: {
          quizQuotaBytes: 6_000,
          accountQuotaBytes: 9_000,
          allowLoopback: false,
          fetchTimeoutMs: 5_000,
        },
      },
    });
    const user = await createTestUser(app);
    client = await connectClient(app, user.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });

  test('an upload past the quiz quota, then past the account quota, stores nothing', async () => {
    const noise = async (side: number) => (await noisePng(side)).toString('base64');
    const a = await noise(40); // about 4.8 KB each once stored
    const b = await noise(41);
    const blobs = () => app.database.prisma.imageBlob.count();
    const over = await callTool(client, 'create_quiz', {
      title: 'Too many pictures',
      questions: [
        { type: 'yes_no', text: 'A?', image: { alt: 'a', data: a } },
        { type: 'yes_no', text: 'B?', image: { alt: 'b', data: b } },
      ],
    });
    expect(over.isError).toBe(true);
    expect(errorText(over)).toMatch(
      /questions: the quiz's pictures would take 1\d KB, past its quota of 6 KB/,
    );
    expect(await blobs()).toBe(0);
    const first = payload(
      await callTool(client, 'create_quiz', {
        title: 'One picture',
        questions: [{ type: 'yes_no', text: 'A?', image: { alt: 'a', data: a } }],
      }),
    );
    expect(first.questions[0].image).toBeDefined();
    const second = await callTool(client, 'create_quiz', {
      title: 'Another picture',
      questions: [{ type: 'yes_no', text: 'B?', image: { alt: 'b', data: b } }],
    });
    expect(second.isError).toBe(true);
    expect(errorText(second)).toMatch(
      /your quizzes' pictures would take 1\d KB, past the account's quota of 9 KB/,
    );
    expect(await blobs()).toBe(1);
  });
});
