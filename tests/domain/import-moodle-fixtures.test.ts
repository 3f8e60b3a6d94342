// Moodle's own test files (tests/fixtures/moodle/README.md names their source), imported as a
// teacher would import them: no text keeps a format marker, an undecoded entity or a blank
// marker outside a blank question's own text, and each question is imported or says what stops it.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { assemble, readBank } from '../../src/domain/import/assemble';
import { previewImport } from '../../src/domain/import/import-questions';

const FIXTURES = path.join(__dirname, '../fixtures/moodle');

/** Every text of a question as it would be stored, with where it is. */
function textsOf(value: unknown, at = ''): Array<[string, string]> {
  if (typeof value === 'string') return [[at, value]];
  if (Array.isArray(value)) return value.flatMap((entry, index) => textsOf(entry, `${at}[${index}]`));
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, entry]) => textsOf(entry, at ? `${at}.${key}` : key));
  }
  return [];
}

const MARKER = /\[(html|moodle|plain|markdown)\]/;
const ENTITY = /&[A-Za-z][A-Za-z0-9]*;|&#x?[0-9A-Fa-f]+;/;

describe.each([
  [
    'questions.gift.txt',
    'gift',
    [
      'essay',
      'matching',
      'multiple_choice',
      'multiple_select',
      'number',
      'short_text',
      'yes_no',
      'yes_no',
      'yes_no',
    ],
  ],
  // Moodle's export writes its cloze questions as type="cloze".
  ['multianswer.xml', 'moodle_xml', ['fill_in_blanks']],
  ['nested_categories_with_questions.xml', 'moodle_xml', ['yes_no', 'essay', 'yes_no', 'yes_no', 'yes_no']],
])('%s', (name, format, types) => {
  const bank = readBank(readFileSync(path.join(FIXTURES, name), 'utf8'), undefined);
  const { questions } = assemble(bank);

  test(`is read as ${format}, each question imported or its loss named`, () => {
    expect(bank.format).toBe(format);
    expect(bank.problems).toEqual([]);
    expect(questions.map((question) => question.input?.type ?? question.problems)).toEqual(types);
    for (const question of questions) {
      const named = question.input !== undefined || question.problems.length > 0;
      expect([question.at, named]).toEqual([question.at, true]);
    }
  });

  test('no text keeps a format marker, a literal entity or a stray blank marker', () => {
    const found = questions.flatMap((question) =>
      textsOf(question.input ?? { text: question.text })
        .filter(([where, text]) => {
          const blankText = where === 'text' && question.input?.type === 'fill_in_blanks';
          return MARKER.test(text) || ENTITY.test(text) || (!blankText && /\[\[\d+\]\]/.test(text));
        })
        .map(([where, text]) => `${question.at} ${where}: ${text}`),
    );
    expect(found).toEqual([]);
  });
});

test("each question names the Moodle category it came under, in the preview's notes", () => {
  const text = readFileSync(path.join(FIXTURES, 'nested_categories_with_questions.xml'), 'utf8');
  const { preview } = previewImport({ text });
  expect(preview.notes.map((note) => [note.text, note.lost?.at(-1)])).toEqual([
    ['Testing Iota Question', 'its Moodle category ($course$/Iota)'],
    ['Testing Kappa Essay Question', 'its Moodle category ($course$/Iota/Kappa)'],
    ['Testing Kappa Question', 'its Moodle category ($course$/Iota/Kappa)'],
    ['Testing Lambda Question', 'its Moodle category ($course$/Iota/Kappa/Lambda)'],
    ['Testing Mu Question', 'its Moodle category ($course$/Iota/Mu)'],
  ]);
  expect(preview.lost).toMatchObject({
    'its Moodle category ($course$/Iota)': 1,
    'its Moodle category ($course$/Iota/Kappa)': 2,
  });
});

test("the preview names each GIFT format marker the import took off Moodle's own file", () => {
  const text = readFileSync(path.join(FIXTURES, 'questions.gift.txt'), 'utf8');
  const { preview } = previewImport({ text });
  // Every question whose source text opens with a marker says so in its note.
  const marked = [...text.matchAll(/\[(html|moodle|plain|markdown)\]/gi)].map((m) => m[1]!.toLowerCase());
  const said = Object.entries(preview.changed ?? {})
    .filter(([how]) => how.startsWith('its format marker'))
    .map(([how]) => /\[(\w+)\]/.exec(how)![1]!);
  expect(new Set(said)).toEqual(new Set(marked));
  expect(preview.notes.some((note) => note.changed?.some((how) => how.startsWith('its format marker')))).toBe(
    true,
  );
});
