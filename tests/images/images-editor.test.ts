// Pictures in the dashboard's quiz editor, on both databases: a picture uploaded for a question
// and for an option (multipart, CSRF-checked) is shown with its alt text before Save, the page
// comes back at its alt text, Save stores it through the tools' pipeline (alt text required),
// remove deletes it once no question uses it, and every hostile file is named beside its field
// with nothing stored.
import { createTestUser, describeEachDatabase, startTestApp, type TestApp } from '../helpers/test-app';
import { errorSummaryText, logIn, newAgent, type Agent } from '../dashboard/dashboard-helpers';
import { HTML_NAMED_PNG, noisePng, pngDeclaring, solidJpeg, solidPng, SVG } from './fixtures';

type Form = Record<string, string>;

/** The fields a person's browser would send from this page (text, hidden, checked, textareas). */
function formOf(page: string): Form {
  const form: Form = {};
  for (const input of page.matchAll(/<input\b([^>]*)>/g)) {
    const attrs = input[1]!;
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    const type = /type="([^"]*)"/.exec(attrs)?.[1] ?? 'text';
    if (!name || type === 'file') continue;
    if ((type === 'checkbox' || type === 'radio') && !/\bchecked\b/.test(attrs)) continue;
    form[name] = type === 'checkbox' ? 'on' : decode(/value="([^"]*)"/.exec(attrs)?.[1] ?? '');
  }
  for (const area of page.matchAll(/<textarea\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g)) {
    form[area[1]!] = decode(area[2]!);
  }
  for (const select of page.matchAll(/<select\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    form[select[1]!] = /<option value="([^"]*)"\s*selected/.exec(select[2]!)?.[1] ?? '';
  }
  return form;
}

const decode = (text: string) =>
  text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');

describeEachDatabase('pictures in the quiz editor', (provider) => {
  let app: TestApp;
  let agent: Agent;
  let ownerId: string;

  beforeAll(async () => {
    app = await startTestApp({ provider });
    const owner = await createTestUser(app, 'pictures');
    ownerId = owner.id;
    agent = newAgent(app);
    expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
  });
  afterAll(() => app.close());

  const blobs = () => app.database.prisma.imageBlob.count();
  const uploads = () => app.database.prisma.upload.count({ where: { ownerId } });

  /** The form posted as a browser sends a form with file fields: multipart, each file in its field. */
  function postMultipart(
    path: string,
    form: Form,
    action: string,
    files: Array<{ field: string; bytes: Buffer; name: string }> = [],
  ) {
    let sending = agent.post(path).field('_action', action);
    for (const [name, value] of Object.entries(form)) sending = sending.field(name, value);
    for (const file of files) sending = sending.attach(file.field, file.bytes, file.name);
    return sending;
  }

  async function newQuizForm(): Promise<Form> {
    const page = await agent.get('/dashboard/quizzes/new');
    expect(page.status).toBe(200);
    expect(page.text).toContain('enctype="multipart/form-data"');
    const form = formOf(page.text);
    form.title = 'Flags';
    form['questions[0][text]'] = 'Is this flag green?';
    return form;
  }

  test('upload a picture for a question and an option, see it with its alt text, save, then remove it', async () => {
    // A multiple-choice question, so an option can hold a picture too.
    let page = await postMultipart('/dashboard/quizzes/new', await newQuizForm(), 'add:multiple_choice');
    let form = formOf(page.text);
    form['questions[1][text]'] = 'Which flag is blue?';
    form['questions[1][options][0][label]'] = 'This one';
    form['questions[1][options][1][label]'] = 'Not this one';

    page = await postMultipart('/dashboard/quizzes/new', form, 'upload-image:0', [
      { field: 'questions[0][image_file]', bytes: await solidJpeg(800, 600), name: 'flag.jpg' },
    ]);
    expect(page.status).toBe(200);
    // The page comes back at the picture's alt text, to be written next.
    expect(page.text).toContain('data-focus="questions-0-image_alt"');
    expect(page.text).toMatch(
      /<img\s+src="\/dashboard\/pictures\/upl_[\w-]{24}"[^>]*width="800"\s+height="600"/,
    );
    form = formOf(page.text);
    expect(form['questions[0][image_ref]']).toMatch(/^upl_/);
    expect(form['questions[0][image_width]']).toBe('800');

    // The owner sees the picture before it is saved; it is a picture by its content, nosniff.
    const preview = await agent.get(`/dashboard/pictures/${form['questions[0][image_ref]']}`);
    expect(preview.status).toBe(200);
    expect(preview.headers['content-type']).toBe('image/jpeg');
    expect(preview.headers['x-content-type-options']).toBe('nosniff');
    // Nobody else does.
    const stranger = newAgent(app);
    const other = await createTestUser(app, 'stranger');
    await logIn(stranger, other.email, other.password);
    expect((await stranger.get(`/dashboard/pictures/${form['questions[0][image_ref]']}`)).status).toBe(404);

    page = await postMultipart('/dashboard/quizzes/new', form, 'upload-image:1:0', [
      {
        field: 'questions[1][options][0][image_file]',
        bytes: await solidPng(64, 64, '#36c'),
        name: 'blue.png',
      },
    ]);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-focus="questions-1-options-0-image_alt"');
    form = formOf(page.text);
    expect(blobs()).resolves.toBe(0);

    // Save without the alt texts: refused beside each, nothing stored.
    page = await postMultipart('/dashboard/quizzes/new', form, 'save');
    expect(page.status).toBe(422);
    const summary = errorSummaryText(page.text);
    expect(summary).toContain('Question 1, Alt text of the picture: fill this in');
    expect(summary).toContain('Question 2, option 1, Alt text of the picture: fill this in');
    expect(await blobs()).toBe(0);

    form = formOf(page.text);
    form['questions[0][image_alt]'] = 'A green flag';
    form['questions[1][options][0][image_alt]'] = 'A blue flag';
    const saved = await postMultipart('/dashboard/quizzes/new', form, 'save');
    expect(saved.status).toBe(303);
    expect(await blobs()).toBe(2);
    const quizPath = saved.headers.location as string;
    const quizPage = await agent.get(quizPath);
    expect(quizPage.text).toMatch(/<img\s+src="\/images\/[0-9a-f]{64}\.jpg"\s+alt="A green flag"/);
    expect(quizPage.text).toMatch(/src="\/images\/[0-9a-f]{64}\.png"\s+alt="A blue flag"/);

    // The editor shows the stored pictures with their alt texts; removing one deletes it on Save.
    page = await agent.get(`${quizPath}/edit`);
    expect(page.text).toContain('Current picture');
    expect(page.text).toMatch(/src="\/images\/[0-9a-f]{64}\.jpg"\s+alt="A green flag"/);
    form = formOf(page.text);
    page = await postMultipart(`${quizPath}/edit`, form, 'remove-image:0');
    expect(page.text).toContain('data-focus="questions-0-image_file"');
    form = formOf(page.text);
    expect(form['questions[0][image_ref]']).toBe('');
    expect((await postMultipart(`${quizPath}/edit`, form, 'save')).status).toBe(303);
    expect(await blobs()).toBe(1);
    const question = await app.database.prisma.question.findFirst({
      where: { quiz: { ownerId }, position: 1 },
    });
    expect(question?.media).toMatchObject({ options: [{ alt: 'A blue flag', width: 64, height: 64 }, null] });

    // Replace: another file for the option, saved, and the old picture is gone.
    page = await agent.get(`${quizPath}/edit`);
    form = formOf(page.text);
    form['questions[1][options][0][image_alt]'] = 'A bluer flag';
    page = await postMultipart(`${quizPath}/edit`, form, 'save', [
      { field: 'questions[1][options][0][image_file]', bytes: await solidPng(48, 48, '#00f'), name: 'b.png' },
    ]);
    expect(page.status).toBe(303);
    expect(await blobs()).toBe(1);
    const replaced = await app.database.prisma.question.findFirst({
      where: { quiz: { ownerId }, position: 1 },
    });
    expect(replaced?.media).toMatchObject({
      options: [{ alt: 'A bluer flag', width: 48, height: 48 }, null],
    });
  });

  describe('hostile files are named beside their field, and nothing is stored', () => {
    const refused = async (bytes: Buffer, name: string, message: RegExp) => {
      const before = { blobs: await blobs(), uploads: await uploads() };
      const page = await postMultipart('/dashboard/quizzes/new', await newQuizForm(), 'upload-image:0', [
        { field: 'questions[0][image_file]', bytes, name },
      ]);
      expect(page.status).toBe(422);
      expect(errorSummaryText(page.text)).toMatch(message);
      expect(page.text).toMatch(/id="questions-0-image_file"[^>]*aria-invalid="true"/);
      // What was typed is kept.
      expect(formOf(page.text)['questions[0][text]']).toBe('Is this flag green?');
      expect(await blobs()).toBe(before.blobs);
      expect(await uploads()).toBe(before.uploads);
    };
    test('an HTML file named .png', () =>
      refused(
        HTML_NAMED_PNG,
        'photo.png',
        /Picture for question 1: the file is not a PNG, JPEG, WebP or GIF/,
      ));
    test('an SVG', () =>
      refused(SVG, 'drawing.svg', /the file is not a PNG, JPEG, WebP or GIF picture .*SVG/));
    test('a 20 MB file', async () => {
      const huge = Buffer.alloc(20 * 1024 * 1024);
      (await solidPng(4, 4)).copy(huge);
      await refused(huge, 'huge.png', /Picture for question 1: the file is larger than 2 MB/);
    });
    test('a tiny PNG declaring 50,000 × 50,000 pixels', async () =>
      refused(await pngDeclaring(50_000, 50_000), 'bomb.png', /declares 50000 × 50000 pixels/));
    test('a form without its CSRF token stores nothing', async () => {
      const form = await newQuizForm();
      delete form._csrf;
      const before = await uploads();
      const page = await postMultipart('/dashboard/quizzes/new', form, 'upload-image:0', [
        { field: 'questions[0][image_file]', bytes: await noisePng(20), name: 'ok.png' },
      ]);
      expect(page.status).toBe(403);
      expect(await uploads()).toBe(before);
    });
  });
});
