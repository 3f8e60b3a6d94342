// The quiz editor without JavaScript: indexed form fields, submit buttons that add, move and remove
// and re-render the form, Save through the same domain functions and schemas as the tools, errors
// beside their fields with nothing typed lost, kept question ids, publishing, closing and
// reopening, deletion after a confirmation, and the share panel's QR code.
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { createQuiz } from '../../src/domain/quizzes/create-quiz';
import { publishQuiz } from '../../src/domain/quizzes/publish-quiz';
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { csrfFrom, errorSummaryText, logIn, newAgent, squash, type Agent } from './dashboard-helpers';

let app: TestApp;
let agent: Agent;
let ownerId: string;

beforeAll(async () => {
  app = await startTestApp();
  const owner = await createTestUser(app, 'editor');
  ownerId = owner.id;
  agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
});
afterAll(() => app.close());

type Form = Record<string, string>;

/** The form a person would send from this page: its fields as rendered (text, hidden, checked boxes and radios, selects). */
function formOf(page: string): Form {
  const form: Form = {};
  for (const input of page.matchAll(/<input\b([^>]*)>/g)) {
    const attrs = input[1]!;
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    if (!name) continue;
    const type = /type="([^"]*)"/.exec(attrs)?.[1] ?? 'text';
    const value = decode(/value="([^"]*)"/.exec(attrs)?.[1] ?? '');
    if ((type === 'checkbox' || type === 'radio') && !/\bchecked\b/.test(attrs)) continue;
    form[name] = type === 'checkbox' ? 'on' : value;
  }
  for (const area of page.matchAll(/<textarea\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g)) {
    form[area[1]!] = decode(area[2]!);
  }
  for (const select of page.matchAll(/<select\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    const selected = /<option value="([^"]*)"\s*selected/.exec(select[2]!);
    form[select[1]!] = selected?.[1] ?? '';
  }
  return form;
}

function decode(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&');
}

async function post(path: string, form: Form, action = 'save') {
  return agent
    .post(path)
    .type('form')
    .send({ ...form, _action: action });
}

async function editorForm(path: string): Promise<Form> {
  const page = await agent.get(path);
  expect(page.status).toBe(200);
  return formOf(page.text);
}

const quizzes = () => app.database.prisma.quiz.findMany({ where: { ownerId }, include: { questions: true } });

describe('creating a quiz without JavaScript', () => {
  test('add, fill, move and remove questions by posting the form; Save creates a draft', async () => {
    let form = await editorForm('/dashboard/quizzes/new');
    expect(form['questions[0][type]']).toBe('yes_no');
    form.title = 'Capitals & rivers';
    form.description = 'A warm-up.';
    form['questions[0][text]'] = 'Is Rome in Italy?';
    form['questions[0][points]'] = '2';

    let res = await post('/dashboard/quizzes/new', form, 'add:multiple_choice');
    expect(res.status).toBe(200);
    form = formOf(res.text);
    // What was typed comes back, and the new question has two empty options.
    expect(form.title).toBe('Capitals & rivers');
    expect(form['questions[0][text]']).toBe('Is Rome in Italy?');
    expect(form['questions[1][type]']).toBe('multiple_choice');
    expect(form['questions[1][options][1][label]']).toBe('');
    form['questions[1][text]'] = 'Longest river?';
    form['questions[1][options][0][label]'] = 'Nile';
    form['questions[1][options][0][score]'] = '3';
    form['questions[1][options][1][label]'] = 'Thames';

    form = formOf((await post('/dashboard/quizzes/new', form, 'add-option:1')).text);
    form['questions[1][options][2][label]'] = 'Seine';
    form = formOf((await post('/dashboard/quizzes/new', form, 'remove-option:1:1')).text);
    expect(form['questions[1][options][1][label]']).toBe('Seine');
    form = formOf((await post('/dashboard/quizzes/new', form, 'up:1')).text);
    expect(form['questions[0][text]']).toBe('Longest river?');
    form = formOf((await post('/dashboard/quizzes/new', form, 'add:yes_no')).text);
    form = formOf((await post('/dashboard/quizzes/new', form, 'remove:2')).text);
    expect(form['questions[2][type]']).toBeUndefined();
    expect(await quizzes()).toHaveLength(0);

    res = await post('/dashboard/quizzes/new', form);
    expect(res.status).toBe(303);
    const [quiz] = await quizzes();
    expect(quiz).toMatchObject({ title: 'Capitals & rivers', description: 'A warm-up.', status: 'draft' });
    expect(res.headers.location).toBe(`/dashboard/quizzes/${quiz!.id}`);
    const page = squash((await agent.get(String(res.headers.location))).text);
    expect(page).toContain('is saved as a draft');
    expect(page.split('only you can see it')).toHaveLength(2); // said once, not in the notice too
    expect(page).toContain('Longest river?');
    expect(page).toContain('Publish');
  });

  test('a refused form comes back as typed, each error beside its field and in the summary', async () => {
    const form = await editorForm('/dashboard/quizzes/new');
    form.title = '';
    form.description = 'Kept <b>as typed</b>';
    form['questions[0][text]'] = 'Kept question';
    form['questions[0][points]'] = 'two';
    const withChoice = formOf((await post('/dashboard/quizzes/new', form, 'add:multiple_choice')).text);
    withChoice['questions[1][text]'] = 'Only one option';
    withChoice['questions[1][options][0][label]'] = 'Alone';
    const back = formOf((await post('/dashboard/quizzes/new', withChoice, 'remove-option:1:1')).text);
    const res = await post('/dashboard/quizzes/new', back);
    expect(res.status).toBe(422);
    const summary = errorSummaryText(res.text);
    expect(summary).toContain('Title: fill this in');
    expect(summary).toContain('Question 1, Points: enter a number');
    expect(summary).toContain('Question 2, Options: add at least 2 (there is 1)');
    const page = squash(res.text);
    expect(page).toContain('<a href="#title">');
    expect(page).toContain('<a href="#questions-1-options">');
    expect(page).toMatch(/<p class="field-error" id="questions-0-points-error">/);
    expect(page).toMatch(/id="questions-0-points" name="questions\[0\]\[points\]"[^>]*aria-invalid="true"/);
    const again = formOf(res.text);
    expect(again.description).toBe('Kept <b>as typed</b>');
    expect(again['questions[0][points]']).toBe('two');
    expect(again['questions[1][options][0][label]']).toBe('Alone');
    expect(await quizzes()).toHaveLength(1);
  });

  test('the three newer types: ticked options, accepted answers one per line, a number with a decimal comma', async () => {
    let form = await editorForm('/dashboard/quizzes/new');
    form.title = 'Newer kinds';
    form['questions[0][text]'] = 'Is Milan the capital of Italy?';
    form['questions[0][correct_answer]'] = 'no';
    form = formOf((await post('/dashboard/quizzes/new', form, 'add:multiple_select')).text);
    form['questions[1][text]'] = 'Which are prime?';
    form['questions[1][options][0][label]'] = 'Two';
    form['questions[1][options][0][score]'] = '2';
    form['questions[1][options][1][label]'] = 'Four';
    form['questions[1][options][1][score]'] = '-1';
    let page = await post('/dashboard/quizzes/new', form, 'add:short_text');
    expect(page.text).toContain('Accepted answers (optional), one per line');
    form = formOf(page.text);
    form['questions[2][text]'] = 'Which country has Lima as its capital?';
    form['questions[2][accepted_answers]'] = 'Perú\n  Peru  \n';
    form['questions[2][points]'] = '2';
    form = formOf((await post('/dashboard/quizzes/new', form, 'add:number')).text);
    form['questions[3][text]'] = '7 × 8 ÷ 16?';
    form['questions[3][correct_number]'] = '3,5';
    form['questions[3][tolerance]'] = '1 000';
    form = formOf((await post('/dashboard/quizzes/new', form, 'add:short_text')).text);
    form['questions[4][text]'] = 'Any comments?';

    // A tolerance with a thousands separator is refused beside its field, nothing stored.
    const before = (await quizzes()).length;
    page = await post('/dashboard/quizzes/new', form);
    expect(page.status).toBe(422);
    expect(squash(page.text)).toMatch(/id="questions-3-tolerance-error"/);
    expect(await quizzes()).toHaveLength(before);

    form = formOf(page.text);
    form['questions[3][tolerance]'] = '0,5';
    const saved = await post('/dashboard/quizzes/new', form);
    expect(saved.status).toBe(303);
    const quizId = String(saved.headers.location).split('/').pop()!;
    const stored = await app.database.prisma.question.findMany({
      where: { quizId },
      orderBy: { position: 'asc' },
    });
    expect(stored.map((q) => q.type)).toEqual([
      'yes_no',
      'multiple_select',
      'short_text',
      'number',
      'short_text',
    ]);
    expect(stored[0]!.key).toMatchObject({ correctAnswer: 'no' });
    const options = (stored[1]!.key as { options: Array<{ label: string; score: number }> }).options;
    expect(options.map((o) => [o.label, o.score])).toEqual([
      ['Two', 2],
      ['Four', -1],
    ]);
    expect(stored[2]!.key).toEqual({ acceptedAnswers: ['Perú', 'Peru'], points: 2 });
    expect(stored[3]!.key).toEqual({ correctNumber: 3.5, tolerance: 0.5, points: 1 });
    expect(stored[4]!.key).toEqual({ acceptedAnswers: [], points: 1 });

    // Reopened, the editor shows each key as saved; saved again unchanged, every id stays.
    const edit = await editorForm(`/dashboard/quizzes/${quizId}/edit`);
    expect(edit['questions[2][accepted_answers]']).toBe('Perú\nPeru');
    expect(edit['questions[3][correct_number]']).toBe('3.5');
    expect((await post(`/dashboard/quizzes/${quizId}/edit`, edit)).status).toBe(303);
    const after = await app.database.prisma.question.findMany({
      where: { quizId },
      orderBy: { position: 'asc' },
    });
    expect(after.map((q) => q.id)).toEqual(stored.map((q) => q.id));
    // The tests below count this owner's quizzes.
    await app.database.prisma.quiz.delete({ where: { id: quizId } });
  });

  test('the form needs its CSRF token', async () => {
    const res = await agent.post('/dashboard/quizzes/new').type('form').send({ title: 'No token' });
    expect(res.status).toBe(403);
  });
});

describe('editing, publishing, closing, sharing and deleting', () => {
  let quizId: string;
  let slug: string;

  beforeAll(async () => {
    const [quiz] = await quizzes();
    quizId = quiz!.id;
    slug = quiz!.slug;
  });

  test('publish, then an edit asks for confirmation and keeps the id of a question whose key is unchanged', async () => {
    const quizPage = await agent.get(`/dashboard/quizzes/${quizId}`);
    const publish = await agent
      .post(`/dashboard/quizzes/${quizId}/publish`)
      .type('form')
      .send({ _csrf: csrfFrom(quizPage.text) });
    expect(publish.status).toBe(303);
    expect((await app.database.prisma.quiz.findUnique({ where: { id: quizId } }))!.status).toBe('published');

    const before = await app.database.prisma.question.findMany({
      where: { quizId },
      orderBy: { position: 'asc' },
    });
    const form = await editorForm(`/dashboard/quizzes/${quizId}/edit`);
    expect(form['questions[0][question_id]']).toBe(before[0]!.id);
    form['questions[0][text]'] = 'Which is the longest river?';
    const refused = await post(`/dashboard/quizzes/${quizId}/edit`, form);
    expect(refused.status).toBe(409);
    expect(errorSummaryText(refused.text)).toContain('Past responses keep their scores');
    expect(formOf(refused.text)['questions[0][text]']).toBe('Which is the longest river?');

    const confirmed = await post(`/dashboard/quizzes/${quizId}/edit`, {
      ...form,
      confirm_edit_published: 'on',
    });
    expect(confirmed.status).toBe(303);
    const after = await app.database.prisma.question.findMany({
      where: { quizId },
      orderBy: { position: 'asc' },
    });
    expect(after.map((q) => q.id)).toEqual(before.map((q) => q.id));
    expect(after[0]!.text).toBe('Which is the longest river?');
  });

  test('close and reopen responses; the public page follows', async () => {
    const page = await agent.get(`/dashboard/quizzes/${quizId}`);
    const close = await agent
      .post(`/dashboard/quizzes/${quizId}/accepting`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text), accepting: 'false' });
    expect(close.status).toBe(303);
    expect((await app.database.prisma.quiz.findUnique({ where: { id: quizId } }))!.acceptingResponses).toBe(
      false,
    );
    expect(squash((await agent.get(`/dashboard/quizzes/${quizId}`)).text)).toContain('Reopen responses');
    const closed = await newAgent(app).post(`/q/${slug}`).type('form').send({});
    expect(closed.status).toBe(409);
    const reopen = await agent
      .post(`/dashboard/quizzes/${quizId}/accepting`)
      .type('form')
      .send({ _csrf: csrfFrom(page.text), accepting: 'true' });
    expect(reopen.status).toBe(303);
    expect((await app.database.prisma.quiz.findUnique({ where: { id: quizId } }))!.acceptingResponses).toBe(
      true,
    );
  });

  test('the share panel shows the link, and the QR code decodes back to it', async () => {
    const page = squash((await agent.get(`/dashboard/quizzes/${quizId}`)).text);
    const url = `${app.baseUrl}/q/${slug}`;
    expect(page).toMatch(
      new RegExp(`<code id="share-link"[^>]*>\\s*${url.replace(/[.]/g, '\\.')}\\s*</code`),
    );
    expect(page).toContain('Other sites cannot show this quiz in a frame');
    const png = await agent.get(`/dashboard/quizzes/${quizId}/qr.png`).buffer(true);
    expect(png.headers['content-type']).toBe('image/png');
    const image = PNG.sync.read(png.body as Buffer);
    expect(jsQR(new Uint8ClampedArray(image.data), image.width, image.height)?.data).toBe(url);
    const svg = await agent.get(`/dashboard/quizzes/${quizId}/qr.svg`);
    expect(svg.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(String(svg.body ?? svg.text)).toContain('<svg');
    expect((await newAgent(app).get(`/dashboard/quizzes/${quizId}/qr.png`)).status).toBe(303);
  });

  test('deleting asks first, naming the questions and responses that go', async () => {
    const confirm = await agent.get(`/dashboard/quizzes/${quizId}/delete`);
    expect(squash(confirm.text)).toContain('with its 2 questions and its 0 responses');
    expect(await quizzes()).toHaveLength(1);
    const res = await agent
      .post(`/dashboard/quizzes/${quizId}/delete`)
      .type('form')
      .send({ _csrf: csrfFrom(confirm.text) });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard/quizzes');
    expect(await quizzes()).toHaveLength(0);
    expect(squash((await agent.get('/dashboard/quizzes')).text)).toContain(
      'Deleted &quot;Capitals &amp; rivers&quot; with its 2 question(s) and 0 response(s).',
    );
  });
});

describe('the quiz list: search, status filter, row actions', () => {
  beforeAll(async () => {
    const question = { type: 'yes_no' as const, text: 'Ready?' };
    await createQuiz(app.deps, ownerId, { title: 'Draft about Birds', questions: [question] });
    const open = await createQuiz(app.deps, ownerId, { title: 'Open about birds', questions: [question] });
    await publishQuiz(app.deps, ownerId, open.quiz_id);
    const closed = await createQuiz(app.deps, ownerId, {
      title: 'Closed about fish',
      questions: [question],
      settings: { accepting_responses: false },
    });
    await publishQuiz(app.deps, ownerId, closed.quiz_id);
  });

  const titles = async (query: string) => {
    const page = (await agent.get(`/dashboard/quizzes${query}`)).text;
    return [...page.matchAll(/<h2 class="card-title">\s*<a href="[^"]+">([^<]+)<\/a>/g)]
      .map((m) => m[1])
      .sort();
  };

  test('search matches titles in any case; the status filter narrows on the server', async () => {
    expect(await titles('')).toEqual(['Closed about fish', 'Draft about Birds', 'Open about birds']);
    expect(await titles('?q=BIRDS')).toEqual(['Draft about Birds', 'Open about birds']);
    expect(await titles('?status=draft')).toEqual(['Draft about Birds']);
    expect(await titles('?status=published')).toEqual(['Closed about fish', 'Open about birds']);
    expect(await titles('?status=open')).toEqual(['Open about birds']);
    expect(await titles('?status=closed&q=fish')).toEqual(['Closed about fish']);
    expect(await titles('?q=%25')).toEqual([]);
    const page = squash((await agent.get('/dashboard/quizzes?q=birds&status=open')).text);
    expect(page).toContain('<input id="q" name="q" type="search" value="birds" maxlength="200">');
    expect(page).toContain('<option value="open" selected>');
  });

  test('each row has its action menu, named for its quiz', async () => {
    const page = squash((await agent.get('/dashboard/quizzes?q=fish')).text);
    expect(page).toContain('<summary>Actions<span class="sr-only"> for Closed about fish</span></summary>');
    expect(page).toMatch(/<a href="\/dashboard\/quizzes\/[^"]+\/edit">Edit<\/a>/);
    expect(page).toMatch(/<a href="\/dashboard\/quizzes\/[^"]+\/delete" class="danger-link">Delete<\/a>/);
    expect(page).toContain('<span class="badge closed">Closed</span>');
  });
});

describe('re-marking from the dashboard', () => {
  test('the editor fixes a key and re-marks when asked; the results page button re-marks after a confirmation', async () => {
    // "yes" wrongly earns 2: Ana answers "no" (0), Ben "yes" (2).
    const quiz = await createQuiz(app.deps, ownerId, {
      title: 'Wrong key',
      questions: [{ type: 'yes_no', text: 'Is 2 + 2 = 5?', points: 2 }],
      settings: {},
    });
    await publishQuiz(app.deps, ownerId, quiz.quiz_id);
    const questionId = quiz.questions[0]!.question_id;
    for (const [name, answer] of [
      ['Ana', 'no'],
      ['Ben', 'yes'],
    ]) {
      await agent
        .post(`/api/quizzes/${quiz.slug}/responses`)
        .send({ respondent: { name }, answers: [{ question_id: questionId, answer }] })
        .expect(201);
    }
    const scores = async () =>
      (
        await app.database.prisma.response.findMany({
          where: { quizId: quiz.quiz_id },
          orderBy: { respondentName: 'asc' },
        })
      ).map((r) => [r.respondentName, r.score, r.originalScore]);

    // The key fixed with the re-mark box ticked (and the published quiz's confirmation).
    const form = await editorForm(`/dashboard/quizzes/${quiz.quiz_id}/edit`);
    expect(form.remark_past_responses).toBeUndefined(); // never ticked for the owner
    form['questions[0][correct_answer]'] = 'no';
    const saved = await post(`/dashboard/quizzes/${quiz.quiz_id}/edit`, {
      ...form,
      confirm_edit_published: 'on',
      remark_past_responses: 'on',
    });
    expect(saved.status).toBe(303);
    const flash = squash((await agent.get(String(saved.headers.location))).text);
    expect(flash).toContain('2 past responses got new marks.');
    expect(await scores()).toEqual([
      ['Ana', 2, 0],
      ['Ben', 0, 2],
    ]);
    const questions = await app.database.prisma.question.findMany({ where: { quizId: quiz.quiz_id } });
    expect(questions.map((q) => q.id)).toEqual([questionId]);

    // The results page's button asks first, then re-marks: nothing left to change.
    const quizPage = await agent.get(`/dashboard/quizzes/${quiz.quiz_id}`);
    expect(quizPage.text).toContain(`href="/dashboard/quizzes/${quiz.quiz_id}/remark"`);
    const confirm = await agent.get(`/dashboard/quizzes/${quiz.quiz_id}/remark`);
    expect(squash(confirm.text)).toContain('Each of the 2 responses is marked again');
    const done = await agent
      .post(`/dashboard/quizzes/${quiz.quiz_id}/remark`)
      .type('form')
      .send({ _csrf: csrfFrom(confirm.text) });
    expect(done.status).toBe(303);
    expect(squash((await agent.get(String(done.headers.location))).text)).toContain(
      'Every response already has the marks the current answer keys give: nothing changed.',
    );
    expect(await scores()).toEqual([
      ['Ana', 2, 0],
      ['Ben', 0, 2],
    ]);
    await app.database.prisma.quiz.delete({ where: { id: quiz.quiz_id } });
  });
});
