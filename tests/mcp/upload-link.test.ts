// The upload link of get_quiz_links, through the real doors: the link from the tool, one POST of
// the file (multipart field "file", or the raw bytes), its {upload_id} taken by import_questions
// on another instance of the same database; refused when expired, revoked or forged; a credential
// without quizzes:write gets no link; hostile and oversized files get a clear 4xx and leave no
// quiz behind. On both databases.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import request from 'supertest';
import { UPLOAD_BYTES_MAX, UPLOAD_LIFETIME_MS } from '../../src/domain/uploads/uploads';
import { purgeExpired } from '../../src/domain/purge-expired';
import { writeZip, ZIP_LIMITS } from '../../src/domain/import/zip';
import { movableClock, type MovableClock } from '../helpers/clock';
import { callTool, connectClient, errorText, payload, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTwoInstances,
  type TwoInstances,
} from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { connectApp, loggedInAgent } from '../oauth/oauth-helpers';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/import', name));
const MINUTE = 60_000;

const XXE = `<?xml version="1.0"?>
<!DOCTYPE quiz [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<quiz><question type="truefalse"><questiontext><text>&xxe;</text></questiontext>
<answer fraction="100"><text>true</text></answer></question></quiz>`;

const BILLION_LAUGHS = `<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
]>
<quiz><question type="truefalse"><questiontext><text>&lol2;</text></questiontext>
<answer fraction="100"><text>true</text></answer></question></quiz>`;

const QTI_ITEM = readFileSync(path.join(__dirname, '../fixtures/import/qti3-package/items/capital.xml'));
const manifest = (href: string) =>
  `<?xml version="1.0"?><manifest xmlns="http://www.imsglobal.org/xsd/qti/qtiv3p0/imscp_v1p1" identifier="m"><resources><resource identifier="i" type="imsqti_item_xmlv3p0" href="${href}"/></resources></manifest>`;

/** A package whose one item inflates far past the reader's bound. */
const bomb = () =>
  writeZip([
    { path: 'imsmanifest.xml', bytes: manifest('item.xml') },
    { path: 'item.xml', bytes: Buffer.alloc(ZIP_LIMITS.entryBytesMax * 4) },
  ]);

/** A package naming a path out of itself (written with a name of the same length, then changed). */
async function traversal(): Promise<Buffer> {
  const zip = await writeZip([
    { path: 'imsmanifest.xml', bytes: manifest('aa/evil.xml') },
    { path: 'aa/evil.xml', bytes: QTI_ITEM },
  ]);
  return Buffer.from(zip.toString('latin1').replaceAll('aa/evil.xml', '../evil.xml'), 'latin1');
}

describeEachDatabase('the upload link', (provider) => {
  let database: TestDatabase;
  let instances: TwoInstances;
  let clock: MovableClock;
  let quizId: string;
  let uploadUrl: string;

  const one = () => instances.one;
  const call = async (client: AnyClient, tool: string, args: Record<string, unknown>) =>
    payload(await callTool(client, tool, args));
  const pathOf = (url: string) => url.slice(one().baseUrl.length);
  const uploads = () => database.prisma.upload.count();
  const quizzes = () => database.prisma.quiz.count({ where: { ownerId: instances.user.id } });

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    instances = await startTwoInstances(database);
    const quiz = await call(instances.viaOne, 'create_quiz', {
      title: 'Where uploads start',
      questions: [{ type: 'yes_no', text: 'Ready?' }],
    });
    quizId = quiz.quiz_id;
  });
  afterAll(async () => {
    await instances.close();
    await database.drop();
  });
  beforeEach(async () => {
    clock = movableClock();
    uploadUrl = (await call(instances.viaOne, 'get_quiz_links', { quiz_id: quizId })).upload.url;
  });
  afterEach(() => clock.restore());

  test('a Moodle XML file posted as multipart is imported by its upload_id on the other instance', async () => {
    const links = await call(instances.viaOne, 'get_quiz_links', { quiz_id: quizId });
    expect(links.upload.url).toMatch(
      new RegExp(`^${one().baseUrl}/dashboard/quizzes/${quizId}/upload\\?sig=upload\\.`),
    );
    expect(Date.parse(links.upload.expires_at) - Date.now()).toBeLessThanOrEqual(60 * MINUTE);
    const posted = await request(one().app)
      .post(pathOf(links.upload.url))
      .attach('file', fixture('bank.moodle.xml'), { filename: 'bank.xml', contentType: 'text/xml' });
    expect(posted.status).toBe(201);
    expect(posted.headers['cache-control']).toBe('no-store');
    expect(posted.headers['referrer-policy']).toBe('no-referrer');
    expect(posted.body).toEqual({
      upload_id: expect.stringMatching(/^upl_/),
      content_type: 'text/xml',
      size: fixture('bank.moodle.xml').length,
      expires_at: expect.any(String),
    });

    const pasted = await call(instances.viaTwo, 'import_questions', {
      text: fixture('bank.moodle.xml').toString('utf8'),
      dry_run: true,
    });
    const uploaded = await call(instances.viaTwo, 'import_questions', {
      upload_id: posted.body.upload_id,
      dry_run: true,
    });
    expect(uploaded).toEqual(pasted);
    expect(uploaded).toMatchObject({ format: 'moodle_xml', importable: expect.any(Number) });

    const done = await call(instances.viaTwo, 'import_questions', {
      upload_id: posted.body.upload_id,
      title: 'From Moodle',
      skip_unusable: true,
    });
    expect(done.quizzes).toEqual([
      expect.objectContaining({ title: 'From Moodle', question_count: uploaded.importable }),
    ]);
  });

  test('the raw bytes with their content type work as well; either text or upload_id, not both', async () => {
    const posted = await request(one().app)
      .post(pathOf(uploadUrl))
      .set('Content-Type', 'text/plain; charset=utf-8')
      .send(fixture('bank.gift'));
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ content_type: 'text/plain' });
    const preview = await call(instances.viaOne, 'import_questions', {
      upload_id: posted.body.upload_id,
      dry_run: true,
    });
    expect(preview).toMatchObject({ format: 'gift', question_count: 16 });
    expect(
      errorText(
        await callTool(instances.viaOne, 'import_questions', {
          upload_id: posted.body.upload_id,
          text: 'Q {T}',
          dry_run: true,
        }),
      ),
    ).toContain('upload_id: send either text (pasted) or upload_id (an uploaded file), not both');
    expect(
      errorText(await callTool(instances.viaOne, 'import_questions', { title: 'Nothing', dry_run: true })),
    ).toContain('text: is required: paste the bank, or send upload_id');
  });

  test('refused when forged, for another purpose, expired or revoked; nothing is stored', async () => {
    const before = await uploads();
    const links = await call(instances.viaOne, 'get_quiz_links', { quiz_id: quizId });
    const send = (url: string) =>
      request(one().app).post(url).set('Content-Type', 'text/plain').send('Q {T}');
    for (const url of [
      `/dashboard/quizzes/${quizId}/upload`,
      `/dashboard/quizzes/${quizId}/upload?sig=${new URL(links.csv.url).searchParams.get('sig')}`,
      pathOf(links.upload.url).replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')),
    ]) {
      const refused = await send(url);
      expect([url, refused.status]).toEqual([url, 403]);
      expect(refused.headers['content-type']).toContain('application/problem+json');
      expect(refused.body).toMatchObject({ code: 'link_refused', detail: expect.stringContaining('Ask') });
    }
    clock.advance(61 * MINUTE);
    const expired = await send(pathOf(links.upload.url));
    expect(expired.status).toBe(403);
    expect(expired.body.detail).toContain('This link has expired');
    expect(await uploads()).toBe(before);
  });

  test('a QTI package uploaded as a zip is read by the package reader and imported', async () => {
    const zip = await writeZip([
      { path: 'imsmanifest.xml', bytes: manifest('items/capital.xml') },
      { path: 'items/capital.xml', bytes: QTI_ITEM },
    ]);
    const posted = await request(one().app)
      .post(pathOf(uploadUrl))
      .attach('file', zip, { filename: 'bank.zip', contentType: 'application/zip' });
    expect(posted.status).toBe(201);
    const preview = await call(instances.viaTwo, 'import_questions', {
      upload_id: posted.body.upload_id,
      dry_run: true,
    });
    expect(preview).toMatchObject({ format: 'qti', question_count: 1, importable: 1 });
    const done = await call(instances.viaTwo, 'import_questions', {
      upload_id: posted.body.upload_id,
      title: 'From QTI',
    });
    expect(done.quizzes).toEqual([expect.objectContaining({ title: 'From QTI', question_count: 1 })]);
  });

  test('a credential without quizzes:write gets no upload link', async () => {
    const { agent, user } = await loggedInAgent(one(), 'reader');
    const { tokens } = await connectApp(one(), agent, { scope: 'quizzes:read' });
    const owner = await connectClient(one(), user.apiKey);
    const reader = await connectClient(one(), tokens.access_token);
    try {
      const quiz = await call(owner, 'create_quiz', {
        title: 'Read only',
        questions: [{ type: 'yes_no', text: 'Ok?' }],
      });
      expect((await call(owner, 'get_quiz_links', { quiz_id: quiz.quiz_id })).upload).not.toBeNull();
      const links = await call(reader, 'get_quiz_links', { quiz_id: quiz.quiz_id });
      expect(links.upload).toBeNull();
      expect(links.csv.url).toContain('sig=csv.');
    } finally {
      await reader.close();
      await owner.close();
    }
  });

  test('a 50 MB file, an empty body and a multipart body without the file get a clear 4xx', async () => {
    const before = await uploads();
    const huge = Buffer.alloc(50 * 1024 * 1024, 'a');
    const raw = await request(one().app)
      .post(pathOf(uploadUrl))
      .set('Content-Type', 'application/xml')
      .send(huge);
    expect(raw.status).toBe(413);
    expect(raw.body.detail).toContain(`larger than ${UPLOAD_BYTES_MAX} bytes`);
    const multipart = await request(one().app)
      .post(pathOf(uploadUrl))
      .attach('file', huge, { filename: 'huge.xml', contentType: 'text/xml' });
    expect(multipart.status).toBe(413);
    const empty = await request(one().app).post(pathOf(uploadUrl)).set('Content-Type', 'text/plain');
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toContain('The body is empty');
    const wrongField = await request(one().app)
      .post(pathOf(uploadUrl))
      .attach('bank', Buffer.from('Q {T}'), { filename: 'q.gift', contentType: 'text/plain' });
    expect(wrongField.status).toBe(400);
    expect(wrongField.body.detail).toContain('No file in field "file"');
    expect(await uploads()).toBe(before);
  });

  test('XXE, billion laughs, an unclosed brace, binary bytes, a truncated zip, a zip bomb and a ../ path are refused by the import, which stores nothing', async () => {
    const counted = await quizzes();
    const cases: Array<[Buffer, string, string]> = [
      [Buffer.from(XXE), 'text/xml', 'the XML declares a DOCTYPE'],
      [Buffer.from(BILLION_LAUGHS), 'text/xml', 'the XML declares a DOCTYPE'],
      [
        Buffer.from('::Q1:: What is 2+2? {=4 ~5\n\n::Q2:: Next {T}'),
        'text/plain',
        'the answers open with { but never close',
      ],
      [Buffer.from([0xff, 0x00, 0x81, 0x80, 0xc3]), 'application/octet-stream', 'is not text in UTF-8'],
      [
        Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(40)]),
        'application/zip',
        'QTI package: the zip file is damaged or cut short',
      ],
      [await bomb(), 'application/zip', 'this looks like a zip bomb'],
      [await traversal(), 'application/zip', 'a path outside the package: refused'],
    ];
    for (const [bytes, contentType, expected] of cases) {
      const posted = await request(one().app)
        .post(pathOf(uploadUrl))
        .attach('file', bytes, { filename: 'hostile', contentType });
      expect(posted.status).toBe(201);
      const refused = errorText(
        await callTool(instances.viaTwo, 'import_questions', {
          upload_id: posted.body.upload_id,
          title: 'Hostile',
        }),
      );
      expect([contentType, refused]).toEqual([contentType, expect.stringContaining(expected)]);
      expect(refused).toContain('nothing was changed');
      expect(refused).toContain('- upload_id: ');
    }
    expect(await quizzes()).toBe(counted);
  });

  test("another owner's upload_id and an expired one are not found; the purge removes expired uploads", async () => {
    const posted = await request(one().app)
      .post(pathOf(uploadUrl))
      .set('Content-Type', 'text/plain')
      .send('Is the sky blue? {T}');
    const id = posted.body.upload_id as string;
    const stranger = await createTestUser(database, 'stranger');
    const other = await connectClient(one(), stranger.apiKey);
    try {
      expect(
        errorText(await callTool(other, 'import_questions', { upload_id: id, dry_run: true })),
      ).toContain(`upload_id: no upload "${id}" of yours`);
    } finally {
      await other.close();
    }
    clock.advance(UPLOAD_LIFETIME_MS + MINUTE);
    expect(
      errorText(await callTool(instances.viaOne, 'import_questions', { upload_id: id, dry_run: true })),
    ).toContain('send the file again through a new upload link');
    expect(await database.prisma.upload.count({ where: { id } })).toBe(1);
    const purged = await purgeExpired(database.repos, new Date());
    expect(purged.uploads).toBeGreaterThanOrEqual(1);
    expect(await database.prisma.upload.count({ where: { id } })).toBe(0);
  });
});
