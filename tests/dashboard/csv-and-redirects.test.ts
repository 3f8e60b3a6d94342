// Pure rules: CSV cells (quoting, formula neutralisation) and the login's returnTo filter.
import { csvCell, csvLine, neutraliseFormula } from '../../src/domain/csv';
import { safeReturnTo } from '../../src/web/session';

describe('CSV cells', () => {
  test.each([
    ['=1+1', "'=1+1"],
    ['+31 6 1234', "'+31 6 1234"],
    ['-2', "'-2"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=cmd', "'\t=cmd"],
    ['\r=cmd', "'\r=cmd"],
    ['plain', 'plain'],
    ['a=b', 'a=b'],
    ['', ''],
  ])('neutraliseFormula(%j) = %j', (input, expected) => {
    expect(neutraliseFormula(input)).toBe(expected);
  });

  test('quoting as RFC 4180 asks, after neutralising', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('=HYPERLINK("x")')).toBe(`"'=HYPERLINK(""x"")"`);
    expect(csvCell('\r=x')).toBe(`"'\r=x"`);
  });

  test('numbers, booleans and empty cells', () => {
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell(12.5)).toBe('12.5');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvCell(true)).toBe('true');
    expect(csvCell(null)).toBe('');
    expect(csvCell(undefined)).toBe('');
    expect(csvLine(['a', 1, null, false])).toBe('a,1,,false\r\n');
  });
});

describe('safeReturnTo', () => {
  test.each([
    ['/dashboard', '/dashboard'],
    ['/dashboard/quizzes/abc?responses=x#responses', '/dashboard/quizzes/abc?responses=x#responses'],
    [
      '/oauth/authorize?client_id=a&redirect_uri=https%3A%2F%2Fclaude.ai%2Fcb',
      '/oauth/authorize?client_id=a&redirect_uri=https%3A%2F%2Fclaude.ai%2Fcb',
    ],
    ['/a/../settings', '/settings'],
  ])('keeps the local path %j', (input, expected) => {
    expect(safeReturnTo(input)).toBe(expected);
  });

  test.each([
    'https://evil.example',
    '//evil.example',
    '/\\evil.example',
    '\\/evil.example',
    '/%5Cevil.example\\',
    '/\t/evil.example',
    '/\n/evil.example',
    'javascript:alert(1)',
    'dashboard',
    '',
    '/login',
    '/login?returnTo=/x',
    '/logout',
    '/signup#x',
    '/' + 'a'.repeat(3000),
  ])('refuses %j', (input) => {
    expect(safeReturnTo(input)).toBeNull();
  });

  test('refuses values that are not strings', () => {
    expect(safeReturnTo(['/dashboard'])).toBeNull();
    expect(safeReturnTo(undefined)).toBeNull();
    expect(safeReturnTo({ toString: () => '/dashboard' })).toBeNull();
  });
});
