// Importing questions on the dashboard, through the real doors: the form takes a file (multipart,
// busboy) or pasted text, the preview of the stored upload is a table, and the confirmation
// imports by the upload's id, all or nothing. CSRF, another owner's quiz, a 50 MB file and every
// hostile file are refused with a clear 4xx page that stores nothing. On both databases.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { publishQuiz } from '../../src/domain/quizzes/publish-quiz';
import { UPLOAD_BYTES_MAX } from '../../src/domain/uploads/uploads';
import {
  BILLION_LAUGHS,
  GIFT_UNCLOSED,
  XXE,
  zipBomb,
  zipTraversal,
  zipTruncated,
} from '../helpers/hostile-banks';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';
import { createTestDatabase, type TestDatabase } from '../helpers/test-database';
import { csrfFrom, errorSummaryText, logIn, newAgent, squash, type Agent } from './dashboard-helpers';

const fixture = (name: string) => readFileSync(path.join(__dirname, '../fixtures/import', name));

/** A GIFT bank of `count` true/false questions. */
const giftBank = (count: number) =>
  Array.from({ length: count }, (_, index) => `::Q${index + 1}:: Statement ${index + 1} holds. {T}`).join(
    '\n\n',
  );

describeEachDatabase('importing questions on the dashboard', (provider) => {
  let database: TestDatabase;
  let app: TestApp;
  let owner: TestUser;
  let agent: Agent;

  const counts = async () => ({
    uploads: await database.prisma.upload.count(),
    quizzes: await database.prisma.quiz.count(),
    questions: await database.prisma.question.count(),
  });

  /** The form's page and its CSRF token. */
  async function formToken(path = '/dashboard/quizzes/import'): Promise<string> {
    const page = await agent.get(path);
    expect(page.status).toBe(200);
    return csrfFrom(page.text);
  }

  /** Posts the import form with a file (or none) and its other fields. */
  function postForm(
    path: string,
    fields: Record<string, string>,
    file?: { bytes: Buffer; name: string; type: string },
  ) {
    let req = agent.post(path);
    for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
    return file
      ? req.attach('file', file.bytes, { filename: file.name, contentType: file.type })
      : req.attach('file', Buffer.alloc(0), { filename: '', contentType: 'application/octet-stream' });
  }

  beforeAll(async () => {
    database = await createTestDatabase(provider);
    app = await startTestApp({ database });
    owner = await createTestUser(database, 'importer');
    agent = newAgent(app);
    expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
  });
  afterAll(async () => {
    await app.close();
    await database.drop();
  });

  test('a Moodle XML file is previewed as a table, then imported by its upload id into a new draft', async () => {
    const list = await agent.get('/dashboard/quizzes');
    expect(list.text).toContain('href="/dashboard/quizzes/import">Import questions</a>');
    const before = await counts();
    const posted = await postForm(
      '/dashboard/quizzes/import',
      { _csrf: await formToken(), title: 'From Moodle', format: '' },
      { bytes: fixture('bank.moodle.xml'), name: 'bank.xml', type: 'text/xml' },
    );
    expect(posted.status).toBe(303);
    expect(posted.headers.location).toMatch(
      /^\/dashboard\/quizzes\/import\/preview\?upload=upl_[\w-]+&title=From\+Moodle$/,
    );
    // Kept server-side once read whole; nothing else yet.
    expect(await counts()).toEqual({ ...before, uploads: before.uploads + 1 });

    const preview = await agent.get(posted.headers.location!);
    expect(preview.status).toBe(200);
    const page = squash(preview.text);
    expect(page).toContain('<h1>Check the import</h1>');
    expect(page).toContain('<dt>Format</dt><dd>Moodle XML</dd>');
    // The scoring rule's link leads to the reference's section on it, not a 404.
    const rule = /<a href="([^"]+)">scoring rule<\/a>/.exec(preview.text)![1]!;
    const reference = await agent.get(rule.split('#')[0]!);
    expect(reference.status).toBe(200);
    expect(reference.text).toContain(`id="${rule.split('#')[1]}"`);
    expect(page).toContain('<table class="data-table">');
    for (const column of [
      'Question',
      'Where',
      'Becomes',
      'What is lost',
      'Cannot be read',
      'Scores changed',
    ]) {
      expect(page).toMatch(new RegExp(`<th scope="col" ?> ?${column} ?</th>`));
    }
    // The first question loses its formatting and penalty, said in its row with the element it came from.
    expect(page).toMatch(/<th scope="row" data-label="Question">1\. What is the capital of Italy\?/);
    expect(page).toContain('penalty per try');
    const importable = Number(/<dt>Can be imported<\/dt><dd>(\d+)/.exec(page)![1]);
    const unusable = Number(/<dt>Cannot be imported<\/dt><dd>(\d+)/.exec(page)![1]);
    expect(importable).toBeGreaterThan(0);

    const upload = /name="upload" value="(upl_[\w-]+)"/.exec(page)![1]!;
    const confirmed = await agent
      .post('/dashboard/quizzes/import/confirm')
      .type('form')
      .send({
        _csrf: csrfFrom(preview.text),
        upload,
        format: '',
        title: 'From Moodle',
        ...(unusable > 0 ? { skip_unusable: 'on' } : {}),
      });
    expect(confirmed.status).toBe(303);
    const quizId = /^\/dashboard\/quizzes\/([\w-]+)$/.exec(confirmed.headers.location!)![1]!;
    const quiz = await agent.get(confirmed.headers.location!);
    expect(squash(quiz.text)).toContain(`Imported ${importable} question`);
    expect(await database.prisma.question.count({ where: { quizId } })).toBe(importable);
    expect(await database.prisma.quiz.findUnique({ where: { id: quizId } })).toMatchObject({
      title: 'From Moodle',
      status: 'draft',
      ownerId: owner.id,
    });
  });

  test('the preview says which texts the import rewrote, and how, before anything is stored', async () => {
    const text = [
      '::Q1::[html]<p>Is Qu&eacute;bec in Canada?</p>{T}',
      '::Q2::[plain]Is a square a rectangle?{T}',
      '::Q3::Is ice cold?{T}',
    ].join('\n\n');
    const before = await counts();
    const posted = await postForm('/dashboard/quizzes/import', {
      _csrf: await formToken(),
      title: 'Rewritten',
      text,
      format: 'gift',
    });
    expect(posted.status).toBe(303);
    const page = squash((await agent.get(posted.headers.location!)).text);
    expect(page).toContain(
      '<dt>Texts rewritten</dt><dd>its format marker [html] taken off: 1 question; HTML character references decoded (&amp;eacute; → é): 1 question; HTML read as plain text (paragraphs and line breaks kept as new lines): 1 question; its format marker [plain] taken off: 1 question</dd>',
    );
    // Each rewritten question is listed with its own changes; the third imports as written.
    expect(page).toContain('1. Is Québec in Canada?');
    expect(page).toContain('2. Is a square a rectangle?');
    expect(page).not.toContain('3. Is ice cold?');
    expect(page).toContain('1 other question imports as it is.');
    expect(await counts()).toEqual({ ...before, uploads: before.uploads + 1 });
  });

  test('pasted GIFT text is added to a draft from its page; a published quiz is refused', async () => {
    const draft = await createQuiz(app.deps, owner.id, {
      title: 'A draft to add to',
      questions: [{ type: 'yes_no', text: 'Already here?' }],
    });
    const quizPage = await agent.get(`/dashboard/quizzes/${draft.quiz_id}`);
    expect(quizPage.text).toContain(`href="/dashboard/quizzes/${draft.quiz_id}/import">Import questions</a>`);
    const base = `/dashboard/quizzes/${draft.quiz_id}/import`;
    const posted = await postForm(base, { _csrf: await formToken(base), text: giftBank(3), format: 'gift' });
    expect(posted.status).toBe(303);
    const preview = await agent.get(posted.headers.location!);
    expect(squash(preview.text)).toContain('<dt>Can be imported</dt><dd>3 (3 yes_no)</dd>');
    expect(squash(preview.text)).toContain('Every question imports as it is.');
    const upload = /name="upload" value="(upl_[\w-]+)"/.exec(preview.text)![1]!;
    const confirmed = await agent
      .post(`${base}/confirm`)
      .type('form')
      .send({ _csrf: csrfFrom(preview.text), upload, format: 'gift' });
    expect(confirmed.status).toBe(303);
    expect(confirmed.headers.location).toBe(`/dashboard/quizzes/${draft.quiz_id}`);
    expect(await database.prisma.question.count({ where: { quizId: draft.quiz_id } })).toBe(4);

    // Published: the page offers no import, and the form refuses, storing nothing.
    await publishQuiz(app.deps, owner.id, draft.quiz_id);
    expect((await agent.get(`/dashboard/quizzes/${draft.quiz_id}`)).text).not.toContain(`${base}"`);
    const before = await counts();
    const refused = await postForm(base, { _csrf: await formToken(base), text: giftBank(1) });
    expect(refused.status).toBe(400);
    expect(errorSummaryText(refused.text)).toContain(
      '“A draft to add to” is published: questions are added to drafts only.',
    );
    expect(await counts()).toEqual(before);
  });

  test('past 100 questions: a new quiz is offered a split, a draft is refused with the count', async () => {
    const posted = await postForm('/dashboard/quizzes/import', {
      _csrf: await formToken(),
      title: 'Big bank',
      text: giftBank(150),
    });
    expect(posted.status).toBe(303);
    const preview = await agent.get(posted.headers.location!);
    expect(squash(preview.text)).toContain('Split them into 2 quizzes');
    // Ticked already, as the button promises all 150: the first press imports them.
    expect(/<input[^>]*\bid="split"[^>]*>/.exec(preview.text)?.[0]).toMatch(/\bchecked\b/);
    const upload = /name="upload" value="(upl_[\w-]+)"/.exec(preview.text)![1]!;
    const before = await counts();
    // With the split unticked: the preview again, the box named in the summary, nothing stored.
    const unsplit = await agent
      .post('/dashboard/quizzes/import/confirm')
      .type('form')
      .send({ _csrf: csrfFrom(preview.text), upload, title: 'Big bank' });
    expect(unsplit.status).toBe(422);
    expect(errorSummaryText(unsplit.text)).toContain('tick “Split them into 2 quizzes”');
    expect(await counts()).toEqual(before);
    const split = await agent
      .post('/dashboard/quizzes/import/confirm')
      .type('form')
      .send({ _csrf: csrfFrom(preview.text), upload, title: 'Big bank', split: 'on' });
    expect(split.status).toBe(303);
    expect(await database.prisma.quiz.count({ where: { title: { startsWith: 'Big bank (' } } })).toBe(2);

    const draft = await createQuiz(app.deps, owner.id, {
      title: 'Nearly full',
      questions: [{ type: 'yes_no', text: 'One?' }],
    });
    const base = `/dashboard/quizzes/${draft.quiz_id}/import`;
    const appended = await postForm(base, { _csrf: await formToken(base), text: giftBank(100) });
    const refused = await agent.get(appended.headers.location!);
    expect(squash(refused.text)).toContain('“Nearly full” has 1 question, and 100 more would make 101');
    expect(refused.text).not.toContain('/confirm"');
  });

  test('CSRF: the form and the confirmation are refused without the token, and nothing is stored', async () => {
    const before = await counts();
    const noToken = await postForm(
      '/dashboard/quizzes/import',
      { title: 'No token' },
      { bytes: fixture('bank.gift'), name: 'bank.gift', type: 'text/plain' },
    );
    expect(noToken.status).toBe(403);
    expect(noToken.text).toContain('This form could not be accepted');
    const crossSite = await postForm(
      '/dashboard/quizzes/import',
      { _csrf: await formToken(), title: 'Cross site' },
      { bytes: fixture('bank.gift'), name: 'bank.gift', type: 'text/plain' },
    ).set('Origin', 'https://elsewhere.example');
    expect(crossSite.status).toBe(403);
    expect(await counts()).toEqual(before);

    const posted = await postForm('/dashboard/quizzes/import', {
      _csrf: await formToken(),
      title: 'Token later',
      text: giftBank(2),
    });
    const upload = /upload=(upl_[\w-]+)/.exec(posted.headers.location!)![1]!;
    const stored = await counts();
    const confirm = await agent
      .post('/dashboard/quizzes/import/confirm')
      .type('form')
      .send({ upload, title: 'Token later' });
    expect(confirm.status).toBe(403);
    expect(await counts()).toEqual(stored);
  });

  test("another owner's quiz and upload are not found, and nothing is stored", async () => {
    const other = await createTestUser(database, 'other');
    const theirs = await createQuiz(app.deps, other.id, {
      title: 'Not yours',
      questions: [{ type: 'yes_no', text: 'Mine?' }],
    });
    const otherAgent = newAgent(app);
    await logIn(otherAgent, other.email, other.password);
    const token = csrfFrom((await otherAgent.get('/dashboard/quizzes/import')).text);
    const theirUpload = await otherAgent
      .post('/dashboard/quizzes/import')
      .field('_csrf', token)
      .field('title', 'Theirs')
      .field('text', giftBank(2));
    const uploadId = /upload=(upl_[\w-]+)/.exec(theirUpload.headers.location!)![1]!;

    const before = await counts();
    expect((await agent.get(`/dashboard/quizzes/${theirs.quiz_id}/import`)).status).toBe(404);
    const posted = await postForm(`/dashboard/quizzes/${theirs.quiz_id}/import`, {
      _csrf: await formToken(),
      text: giftBank(2),
    });
    expect(posted.status).toBe(404);
    // Their upload, by its id, is no upload of ours: the form again, saying so.
    const preview = await agent.get(`/dashboard/quizzes/import/preview?upload=${uploadId}&title=Stolen`);
    expect(preview.status).toBe(422);
    expect(errorSummaryText(preview.text)).toContain('The file is not one of yours, or it has expired');
    const confirm = await agent
      .post('/dashboard/quizzes/import/confirm')
      .type('form')
      .send({ _csrf: await formToken(), upload: uploadId, title: 'Stolen' });
    expect(confirm.status).toBe(422);
    expect(await counts()).toEqual(before);
    expect(await database.prisma.question.count({ where: { quizId: theirs.quiz_id } })).toBe(1);
  });

  test('a 50 MB file gets a 413 page saying the limit, and nothing is stored', async () => {
    const before = await counts();
    const huge = await postForm(
      '/dashboard/quizzes/import',
      { _csrf: await formToken(), title: 'Huge' },
      { bytes: Buffer.alloc(50 * 1024 * 1024, 'a'), name: 'huge.xml', type: 'text/xml' },
    );
    expect(huge.status).toBe(413);
    expect(errorSummaryText(huge.text)).toContain(
      `The file is too large: an import takes at most ${UPLOAD_BYTES_MAX / (1024 * 1024)} MB`,
    );
    expect(huge.text).toContain('aria-invalid="true"');
    expect(await counts()).toEqual(before);
  });

  test('hostile files each get a clear 4xx page naming what is wrong, and nothing is stored', async () => {
    const cases: Array<[string, Buffer, string, string]> = [
      ['xxe', Buffer.from(XXE), 'text/xml', 'line 2: the XML declares a DOCTYPE'],
      ['billion laughs', Buffer.from(BILLION_LAUGHS), 'text/xml', 'line 2: the XML declares a DOCTYPE'],
      ['zip bomb', await zipBomb(), 'application/zip', 'this looks like a zip bomb'],
      [
        'traversal',
        await zipTraversal(),
        'application/zip',
        'the zip names &quot;../item.xml&quot;, a path outside the package',
      ],
      ['truncated zip', await zipTruncated(), 'application/zip', 'the zip file is damaged or cut short'],
      [
        'unclosed brace',
        Buffer.from(GIFT_UNCLOSED),
        'text/plain',
        'line 3: the answers open with { but never close',
      ],
    ];
    const before = await counts();
    for (const [name, bytes, type, expected] of cases) {
      const res = await postForm(
        '/dashboard/quizzes/import',
        { _csrf: await formToken(), title: name },
        { bytes, name: `${name}.bin`, type },
      );
      expect([name, res.status]).toEqual([name, 422]);
      const summary = errorSummaryText(res.text);
      expect([name, summary]).toEqual([name, expect.stringContaining(expected)]);
      expect([name, summary]).toEqual([name, expect.stringContaining('The file cannot be imported: ')]);
      expect(res.text).toContain('<a href="#file">');
    }
    // The same brace pasted: named as the pasted text.
    const pasted = await postForm('/dashboard/quizzes/import', {
      _csrf: await formToken(),
      title: 'Pasted',
      text: GIFT_UNCLOSED,
      format: 'gift',
    });
    expect(pasted.status).toBe(422);
    expect(errorSummaryText(pasted.text)).toContain('The pasted text cannot be imported: gift: line 3');
    expect(await counts()).toEqual(before);
  });
});
