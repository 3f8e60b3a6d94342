// No exception a reader throws reaches a client as an internal error: a reader failing in a way
// nobody foresaw (forced here, as a plain TypeError from the text reader) is answered like an
// unreadable file, through every door: import_questions (pasted text and an upload), the
// dashboard's form and its preview. The log names the exception at warn, without the file's
// words. On both databases. The bank is read on this thread here, its answer in the form it
// takes from a worker.
import { Writable } from 'node:stream';
import * as assemble from '../../src/domain/import/assemble';
import { readOnThisThread } from '../../src/domain/import/read-pool';
import { storeUpload } from '../../src/domain/uploads/uploads';
import { createLogger } from '../../src/logger';
import { csrfFrom, errorSummaryText, logIn, newAgent } from '../dashboard/dashboard-helpers';
import { callTool, connectClient, errorText, type AnyClient } from '../helpers/mcp-clients';
import {
  createTestUser,
  describeEachDatabase,
  startTestApp,
  type TestApp,
  type TestUser,
} from '../helpers/test-app';

/** Words that appear only in the bank, so the log can be searched for them. */
const SECRET_WORDS = 'Zanzibar-quokka';
const BANK = `::Q1:: Is ${SECRET_WORDS} a word? {T}\n`;
const READ_FAILS = 'has something in it that could not be read';

describeEachDatabase('an import whose reader throws', (provider) => {
  let app: TestApp;
  let owner: TestUser;
  let client: AnyClient;
  const logged: Array<Record<string, unknown>> = [];

  beforeAll(async () => {
    const destination = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n').filter(Boolean)) {
          logged.push(JSON.parse(line) as Record<string, unknown>);
        }
        done();
      },
    });
    app = await startTestApp({ provider, logger: createLogger('warn', destination) });
    // The spy below reaches this thread's reader only, not a worker's.
    readOnThisThread();
    owner = await createTestUser(app, 'importer');
    client = await connectClient(app, owner.apiKey);
  });
  afterAll(async () => {
    await client.close();
    await app.close();
  });
  afterEach(() => {
    jest.restoreAllMocks();
  });

  /** Makes the text reader throw what a reader's own bug would. */
  const breakReader = () =>
    jest.spyOn(assemble, 'readBank').mockImplementation(() => {
      throw new TypeError(`Cannot read properties of undefined (reading '${SECRET_WORDS}')`);
    });

  const readerWarnings = () =>
    logged.filter((line) => line.msg === 'an import could not be read: a reader threw');

  test('import_questions answers invalid_input naming the text, not an internal error; the log says why', async () => {
    const quizzes = await app.database.prisma.quiz.count({ where: { ownerId: owner.id } });
    const warned = readerWarnings().length;
    breakReader();
    for (const args of [
      { text: BANK, dry_run: true },
      { text: BANK, title: 'Broken' },
    ]) {
      const text = errorText(await callTool(client, 'import_questions', args));
      expect(text).toContain('Invalid arguments for import_questions; nothing was changed.');
      expect(text).toContain(`- text: ${READ_FAILS}`);
      expect(text).not.toContain('internal error');
    }
    expect(await app.database.prisma.quiz.count({ where: { ownerId: owner.id } })).toBe(quizzes);
    const warnings = readerWarnings().slice(warned);
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toMatchObject({ level: 40, field: 'text', reader: { type: 'TypeError' } });
    expect((warnings[0]!.reader as { stack: string[] }).stack.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toContain(SECRET_WORDS);
  });

  test('an uploaded file is answered the same, naming upload_id', async () => {
    const stored = await storeUpload(app.deps, owner.id, {
      contentType: 'text/plain',
      filename: 'bank.gift',
      bytes: new TextEncoder().encode(BANK),
    });
    breakReader();
    const text = errorText(
      await callTool(client, 'import_questions', { upload_id: stored.upload_id, dry_run: true }),
    );
    expect(text).toContain(`- upload_id: ${READ_FAILS}`);
    expect(text).not.toContain('internal error');
  });

  test("the dashboard's form and preview answer 422 with the page's error, not 500", async () => {
    const agent = newAgent(app);
    expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
    const token = async () => csrfFrom((await agent.get('/dashboard/quizzes/import')).text);
    const post = async (fields: Record<string, string>, file?: Buffer) => {
      let req = agent.post('/dashboard/quizzes/import');
      for (const [name, value] of Object.entries(fields)) req = req.field(name, value);
      return file
        ? req.attach('file', file, { filename: 'bank.gift', contentType: 'text/plain' })
        : req.attach('file', Buffer.alloc(0), { filename: '', contentType: 'application/octet-stream' });
    };
    const uploads = await app.database.prisma.upload.count();

    const spy = breakReader();
    const posted = await post({ _csrf: await token(), title: 'Broken' }, Buffer.from(BANK));
    expect(posted.status).toBe(422);
    expect(errorSummaryText(posted.text)).toContain(`The file ${READ_FAILS}`);
    const pasted = await post({ _csrf: await token(), title: 'Broken', text: BANK });
    expect(pasted.status).toBe(422);
    expect(errorSummaryText(pasted.text)).toContain(`The pasted text ${READ_FAILS}`);
    expect(await app.database.prisma.upload.count()).toBe(uploads);

    // A file kept while the reader worked, previewed once it does not.
    spy.mockRestore();
    const kept = await post({ _csrf: await token(), title: 'Later' }, Buffer.from(BANK));
    expect(kept.status).toBe(303);
    breakReader();
    const preview = await agent.get(kept.headers.location!);
    expect(preview.status).toBe(422);
    expect(errorSummaryText(preview.text)).toContain(`The file ${READ_FAILS}`);
  });
});
