// "How to add a setting" (docs/architecture.md) holds: the settings are listed by hand only in
// the table (domain/quiz-settings.ts) and the three places of storage, so a new setting costs
// those four files and the code that acts on it. Everything else derives from the table: the
// tools' schemas (get_quiz_settings lists every setting it answers), the editor, the quiz page.
import fs from 'node:fs';
import path from 'node:path';
import { SETTINGS } from '../../src/domain/quiz-settings';
import { createToolRegistry } from '../../src/mcp/registry';
import { TOOLS } from '../../src/mcp/tools';
import { draftToInput, emptyDraft, readDraft } from '../../src/dashboard/quiz-draft';

const ROOT = path.join(__dirname, '..', '..');

/** The files a new setting is written into, besides the code that acts on it (at most five in all). */
const LISTED_BY_HAND = [
  'src/domain/quiz-settings.ts',
  'src/db/quiz-rows.ts',
  'src/db/repositories/quizzes.ts',
  'src/db/quiz-reads.ts',
];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return relative === 'src/generated' ? [] : sourceFiles(relative);
    return entry.name.endsWith('.ts') ? [relative] : [];
  });
}

const names = (text: string, word: string) => new RegExp(`\\b${word}\\b`).test(text);

describe('settings from one table', () => {
  test('only the table and storage name every setting: a new one costs those and the code that acts on it', () => {
    const everySetting = sourceFiles('src').filter((file) => {
      const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
      return SETTINGS.every((entry) => names(text, entry.name) || names(text, entry.column));
    });
    expect(everySetting.sort()).toEqual([...LISTED_BY_HAND].sort());
    expect(LISTED_BY_HAND.length + 1).toBeLessThanOrEqual(5);
  });

  test("get_quiz_settings' listed output names every setting, typed as the table says", () => {
    const listing = createToolRegistry(TOOLS).listing.find((tool) => tool.name === 'get_quiz_settings')!;
    const listed = listing.outputSchema!.properties as Record<string, Record<string, unknown>>;
    for (const entry of SETTINGS) expect(listed[entry.name]).toBeDefined();
    // A nullable integer, written once under $defs.
    expect(listed.time_limit_minutes).toEqual({ $ref: '#/$defs/i' });
    expect(listing.outputSchema!.$defs).toMatchObject({
      i: { anyOf: [{ type: 'integer' }, { type: 'null' }] },
    });
    expect(listed.shuffle_options).toEqual({ type: 'boolean' });
  });

  test("the editor's form carries every setting with a control there and back, as the tools' input", () => {
    const body: Record<string, string> = { title: 'Settings', 'questions[0][type]': 'yes_no' };
    body['questions[0][text]'] = 'Is it?';
    body['questions[0][points]'] = '1';
    body['settings[pass_mark_percent]'] = '62.5';
    body['settings[time_limit_minutes]'] = '15';
    body['settings[closes_at]'] = '2099-03-01T09:00';
    body['settings[shuffle_options]'] = 'on';
    body['settings[math_dollars]'] = 'on';
    body['settings[language]'] = 'ar';
    body['settings[show_correct_answers]'] = 'after_close';
    const input = draftToInput(readDraft(body), 'Europe/Paris');
    expect(input.settings).toEqual({
      show_score_to_respondent: false,
      pass_mark_percent: 62.5,
      collect_name: false,
      collect_email: false,
      require_all_answers: false,
      show_correct_answers: 'after_close',
      allow_embedding: false,
      math_dollars: true,
      time_limit_minutes: 15,
      opens_at: null,
      closes_at: '2099-03-01T09:00:00+01:00',
      shuffle_questions: false,
      shuffle_options: true,
      question_pool_size: null,
      max_attempts_per_email: null,
      language: 'ar',
    });
    // A new quiz's draft holds the table's defaults.
    expect(draftToInput({ ...emptyDraft(), title: 'Defaults', questions: [] }).settings).toEqual(
      Object.fromEntries(
        SETTINGS.filter((entry) => entry.editor).map((entry) => [entry.name, entry.default]),
      ),
    );
  });
});
