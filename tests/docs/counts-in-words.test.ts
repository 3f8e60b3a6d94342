// A count the docs write in words ("five types", "eight suites") goes stale without failing
// anything: each count the code can state is checked against it here, in the README, SECURITY.md
// and docs/*.md (decision records and the changelog tell history, and keep their counts).
import fs from 'node:fs';
import path from 'node:path';
import { QUESTION_TYPES } from '../../src/domain/question-types/names';

const ROOT = path.resolve(__dirname, '../..');
const WORDS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

function testFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return testFiles(full);
    return entry.name.endsWith('.test.ts') ? [full] : [];
  });
}

/** What the code says each counted thing numbers. */
function countsInCode(): Array<{ noun: RegExp; what: string; count: number }> {
  const repositories = /export interface Repositories \{([^}]*)\}/.exec(
    fs.readFileSync(path.join(ROOT, 'src/db/repositories/index.ts'), 'utf8'),
  )![1]!;
  const browserSuites = testFiles(path.join(ROOT, 'tests')).filter(
    (file) => file !== __filename && /helpers\/browser|playwright-core/.test(fs.readFileSync(file, 'utf8')),
  );
  return [
    {
      noun: /^(?:question )?types\b/i,
      what: 'question types (QUESTION_TYPES)',
      count: QUESTION_TYPES.length,
    },
    {
      noun: /^(?:browser )?suites drive a (?:real )?browser\b/i,
      what: 'test files that drive a browser',
      count: browserSuites.length,
    },
    {
      noun: /^repositories\b/i,
      what: 'repositories (Repositories)',
      count: repositories.match(/^\s+\w+:/gm)!.length,
    },
  ];
}

const PAGES = [
  'README.md',
  'SECURITY.md',
  ...fs
    .readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/** The counts a text writes in words that the code contradicts, and how many it checked. */
function wrongCounts(page: string, text: string, counts: ReturnType<typeof countsInCode>) {
  const wrong: string[] = [];
  let checked = 0;
  for (const match of text
    .replace(/\s+/g, ' ')
    .matchAll(new RegExp(`\\b(${WORDS.join('|')}) (?=\\w)`, 'gi'))) {
    const rest = text.replace(/\s+/g, ' ').slice(match.index + match[0].length);
    for (const { noun, what, count } of counts) {
      if (!noun.test(rest)) continue;
      checked += 1;
      const written = WORDS.indexOf(match[1]!.toLowerCase());
      if (written !== count)
        wrong.push(`${page}: "${match[0]}${rest.slice(0, 30)}" but there are ${count} ${what}`);
    }
  }
  return { wrong, checked };
}

describe('counts written in words', () => {
  test('a count in words that the code contradicts is flagged', () => {
    const counts = countsInCode();
    const types = WORDS[QUESTION_TYPES.length]!;
    expect(wrongCounts('sample', `Questions come in ${types} types.`, counts)).toEqual({
      wrong: [],
      checked: 1,
    });
    const stale = wrongCounts(
      'sample',
      // One type fewer than there are: stale whatever the count now is.
      `Questions come in ${WORDS[QUESTION_TYPES.length - 1]!} types; the domain asks one repositories.`,
      counts,
    );
    expect(stale.checked).toBe(2);
    expect(stale.wrong).toHaveLength(2);
  });

  test('every count the code can state is the one the docs write', () => {
    const counts = countsInCode();
    const wrong: string[] = [];
    let checked = 0;
    for (const page of PAGES) {
      const found = wrongCounts(page, fs.readFileSync(path.join(ROOT, page), 'utf8'), counts);
      wrong.push(...found.wrong);
      checked += found.checked;
    }
    expect(wrong).toEqual([]);
    // The architecture states the repositories' count, so the check above is not vacuous.
    expect(checked).toBeGreaterThanOrEqual(1);
  });
});
