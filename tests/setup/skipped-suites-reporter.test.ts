// The skip report after `npm test` on a machine without PostgreSQL, Redis or Chromium: one line
// per file, and the count of wholly skipped suites equals the "skipped" suites Jest reports.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SkippedSuitesReporter = require('./skipped-suites-reporter.js');

const test_ = (status: string, ...ancestorTitles: string[]) => ({ status, ancestorTitles });

function report(testResults: Array<{ testFilePath: string; testResults: ReturnType<typeof test_>[] }>) {
  const written: string[] = [];
  const spy = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
    written.push(String(chunk));
    return true;
  });
  try {
    new SkippedSuitesReporter().onRunComplete(new Set(), { testResults });
  } finally {
    spy.mockRestore();
  }
  return written.join('');
}

test('a file skipped for two reasons is one suite; a file run in part is counted apart', () => {
  const root = process.cwd();
  const text = report([
    {
      // Two skipped describes in one file: Jest counts one skipped suite.
      testFilePath: `${root}/tests/a.test.ts`,
      testResults: [
        test_('pending', 'x [postgresql]: skipped: PostgreSQL not reachable'),
        test_('pending', 'y: skipped: Redis not reachable'),
      ],
    },
    {
      // SQLite ran, PostgreSQL did not: not a skipped suite for Jest.
      testFilePath: `${root}/tests/b.test.ts`,
      testResults: [
        test_('passed', 'z [sqlite]'),
        test_('pending', 'z [postgresql]: skipped: PostgreSQL not reachable'),
      ],
    },
    { testFilePath: `${root}/tests/c.test.ts`, testResults: [test_('passed', 'all ran')] },
  ]);
  expect(text).toBe(
    [
      '',
      'Skipped suites (1), not run on this machine:',
      '  - tests/a.test.ts: x [postgresql]: skipped: PostgreSQL not reachable; y: skipped: Redis not reachable',
      'Suites run in part (1), the rest not on this machine:',
      '  - tests/b.test.ts: z [postgresql]: skipped: PostgreSQL not reachable',
      '',
    ].join('\n'),
  );
});

test('nothing skipped, nothing said', () => {
  expect(report([{ testFilePath: `${process.cwd()}/tests/c.test.ts`, testResults: [test_('passed')] }])).toBe(
    '',
  );
});
