// The dashboard's side of how a quiz is taken: the editor sets the time limit, window, shuffles,
// pool, attempts per email and language through the tools' schemas; a conflict comes back beside
// its field with everything typed; the quiz page shows the settings and whether it is open now.
import { createTestUser, startTestApp, type TestApp } from '../helpers/test-app';
import { errorSummaryText, logIn, newAgent, squash, type Agent } from './dashboard-helpers';

let app: TestApp;
let agent: Agent;

beforeAll(async () => {
  app = await startTestApp();
  const owner = await createTestUser(app, 'taking-editor');
  agent = newAgent(app);
  expect((await logIn(agent, owner.email, owner.password)).status).toBe(303);
});
afterAll(() => app.close());

type Form = Record<string, string>;

/** The fields the page would send: inputs as rendered (checked boxes only) and each select's choice. */
function formOf(page: string): Form {
  const form: Form = {};
  for (const input of page.matchAll(/<input\b([^>]*)>/g)) {
    const attrs = input[1]!;
    const name = /name="([^"]*)"/.exec(attrs)?.[1];
    if (!name) continue;
    const type = /type="([^"]*)"/.exec(attrs)?.[1] ?? 'text';
    if ((type === 'checkbox' || type === 'radio') && !/\bchecked\b/.test(attrs)) continue;
    form[name] = type === 'checkbox' ? 'on' : (/value="([^"]*)"/.exec(attrs)?.[1] ?? '');
  }
  for (const area of page.matchAll(/<textarea\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/textarea>/g)) {
    form[area[1]!] = area[2]!;
  }
  for (const select of page.matchAll(/<select\b[^>]*name="([^"]*)"[^>]*>([\s\S]*?)<\/select>/g)) {
    form[select[1]!] = /<option value="([^"]*)"\s*selected/.exec(select[2]!)?.[1] ?? '';
  }
  return form;
}

test('the editor saves the taking settings, refuses a conflict beside its field, and the quiz page shows them', async () => {
  const form = formOf((await agent.get('/dashboard/quizzes/new')).text);
  expect(form['settings[language]']).toBe('en');
  form.title = 'Timed in Spanish';
  form['questions[0][text]'] = '¿Es Madrid la capital?';
  Object.assign(form, {
    'settings[time_limit_minutes]': '15',
    'settings[opens_at]': '2026-01-01T09:00+01:00',
    'settings[closes_at]': '2026-01-01T08:00+01:00',
    'settings[shuffle_questions]': 'on',
    'settings[question_pool_size]': '1',
    'settings[max_attempts_per_email]': '2',
    'settings[language]': 'es',
  });
  const refused = await agent
    .post('/dashboard/quizzes/new')
    .type('form')
    .send({ ...form, _action: 'save' });
  expect(refused.status).toBe(422);
  const summary = errorSummaryText(refused.text);
  expect(summary).toContain('Closes at: must be after “Opens at”');
  expect(summary).toContain('Submissions per email address: needs “Ask for their email address” ticked');
  const back = formOf(refused.text);
  expect(back['settings[time_limit_minutes]']).toBe('15');
  expect(back['settings[language]']).toBe('es');
  expect(refused.text).toMatch(
    /id="settings-closes_at"\s+name="settings\[closes_at\]"[^>]*aria-invalid="true"/,
  );
  expect(refused.text).toMatch(/id="settings-max_attempts_per_email"\s[^>]*aria-invalid="true"/);

  back['settings[closes_at]'] = '2026-01-01T10:00+01:00';
  back['settings[collect_email]'] = 'on';
  const saved = await agent
    .post('/dashboard/quizzes/new')
    .type('form')
    .send({ ...back, _action: 'save' });
  expect(saved.status).toBe(303);
  const page = squash((await agent.get(String(saved.headers.location))).text);
  expect(page).toContain('<dt>Time limit</dt><dd>15 minutes</dd>');
  expect(page).toContain('<dt>Shuffle questions</dt><dd>Yes</dd>');
  expect(page).toContain('<dt>Questions per attempt</dt><dd>1</dd>');
  expect(page).toContain('<dt>Submissions per email</dt><dd>2</dd>');
  expect(page).toContain('<dt>Language of the public pages</dt><dd>Spanish</dd>');
  expect(page).toContain('<dt>Open right now</dt><dd>No: it is a draft</dd>');
  expect(page).not.toContain('Accepting responses');

  // The editor of the saved quiz comes back with the same settings, the times in the date-time
  // control's form, in the account's zone (UTC here), which saves unchanged when sent back.
  const edit = formOf((await agent.get(`${String(saved.headers.location)}/edit`)).text);
  expect(edit['settings[opens_at]']).toBe('2026-01-01T08:00');
  expect(edit['settings[shuffle_questions]']).toBe('on');
  expect(edit['settings[shuffle_options]']).toBeUndefined();
});
