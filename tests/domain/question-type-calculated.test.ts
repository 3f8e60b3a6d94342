import { evaluate, parseFormula, FORMULA_LIMITS } from '../../src/domain/question-types/calculated/formula';
import {
  checkCalculated,
  drawValues,
  fillText,
  placeholders,
  type CalculatedVariable,
} from '../../src/domain/question-types/calculated/variables';

/** The formula's value, or its problem. */
function valueOf(text: string, values: Record<string, number> = {}): number | string {
  const parsed = parseFormula(text);
  return 'problem' in parsed ? parsed.problem : evaluate(parsed.formula, values);
}

const problemOf = (text: string) => {
  const parsed = parseFormula(text);
  return 'problem' in parsed ? parsed.problem : null;
};

function issuesOf(input: Parameters<typeof checkCalculated>[0]): string[] {
  const issues: string[] = [];
  checkCalculated(input, (field, message) => issues.push(`${field}: ${message}`));
  return issues;
}

const ab: CalculatedVariable[] = [
  { name: 'a', min: 1, max: 10, decimals: 0 },
  { name: 'b', min: 0.5, max: 2.5, decimals: 1 },
];

describe('calculated formulas', () => {
  test('evaluates the whitelisted operators, functions and constants', () => {
    expect(valueOf('a * b + 1', { a: 3, b: 4 })).toBe(13);
    expect(valueOf('{a} * {b}', { a: 3, b: 4 })).toBe(12);
    expect(valueOf('2 ^ 3 ^ 2')).toBe(512);
    expect(valueOf('(-2) ^ 2')).toBe(4);
    expect(valueOf('-(2 ^ 2)')).toBe(-4);
    expect(valueOf('7 % 4 + fmod(7, 4)')).toBe(6);
    expect(valueOf('sqrt(16) + abs(-2) + max(1, 5, 3) - min(4, 2)')).toBe(9);
    expect(valueOf('round(pi, 2) + round(2.5)')).toBeCloseTo(6.14);
    expect(valueOf('pi() - pi')).toBe(0);
    expect(valueOf('ln(e) + log(100, 10) + log10(1000) + log(exp(2))')).toBeCloseTo(8);
    expect(valueOf('sin(0) + cos(0) + tan(0) + atan2(0, 1) + pow(2, 10)')).toBe(1025);
  });

  test('refuses what reaches code or is not arithmetic, saying what to use', () => {
    for (const text of [
      'constructor.constructor("return process")()',
      'a.constructor',
      'a["__proto__"]',
      'this',
      'this.x',
      'a = 1',
      'alert(1)',
      'process.exit()',
      '"text"',
      '[1, 2]',
      'a ? 1 : 2',
      'a == 1',
      'a && b',
      '!a',
      '~a',
      'a, b',
      'sqrt',
      'sqrt(1, 2)',
      'pow(2)',
      'true',
    ]) {
      expect([text, problemOf(text)]).toEqual([text, expect.stringMatching(/\S/)]);
    }
    expect(problemOf('alert(1)')).toMatch(/not a function it knows: use only numbers/);
    expect(problemOf('a.b')).toMatch(/cannot reach into a value/);
  });

  test('refuses a sign before a power, which reads two ways', () => {
    expect(problemOf('-a ^ 2')).toMatch(/write -\(a\^2\) or \(-a\)\^2/);
    expect(problemOf('-2 ** 2')).toMatch(/sign before a power/);
    expect(problemOf('(-a) ^ 2')).toBeNull();
  });

  test('bounds its length, its nesting and its size before any work', () => {
    expect(problemOf('1+'.repeat(300) + '1')).toMatch(/longer than 500/);
    const nested = (depth: number) => '('.repeat(depth) + '1' + ')'.repeat(depth);
    expect(problemOf(nested(FORMULA_LIMITS.nesting))).toBeNull();
    expect(problemOf(nested(FORMULA_LIMITS.nesting + 1))).toMatch(/nests more than 20 parentheses/);
    expect(problemOf('('.repeat(100000))).toMatch(/longer than/);
    expect(problemOf('-'.repeat(60) + '1')).toMatch(/nests deeper/);
    expect(problemOf(Array.from({ length: 42 }, () => 'a').join('+'))).toMatch(/nests deeper than 40/);
    expect(problemOf(Array.from({ length: 19 }, () => 'max(a,a,a,a,a,a,a,a,a,a)').join('+'))).toMatch(
      /more than 200 parts/,
    );
    expect(problemOf(Array.from({ length: 42 }, () => '9').join('^'))).toMatch(/nests deeper/);
  });
});

describe('calculated variables', () => {
  test('draws within the bounds with the decimals asked, both bounds reachable', () => {
    const seen = new Set<number>();
    for (let i = 0; i < 400; i += 1) {
      const values = drawValues(ab);
      expect(values.a).toBeGreaterThanOrEqual(1);
      expect(values.a).toBeLessThanOrEqual(10);
      expect(Number.isInteger(values.a)).toBe(true);
      expect(Math.round(values.b! * 10) / 10).toBe(values.b);
      seen.add(values.a!);
    }
    expect(seen.has(1) && seen.has(10)).toBe(true);
    expect(drawValues(ab, () => 0.999999)).toEqual({ a: 10, b: 2.5 });
    expect(drawValues(ab, () => 0)).toEqual({ a: 1, b: 0.5 });
  });

  test('fills the text with each value in its decimals', () => {
    expect(placeholders('{a} times {b}, then {a} again')).toEqual(['a', 'b']);
    expect(fillText('{a} times {b} ({c})', ab, { a: 3, b: 2 })).toBe('3 times 2.0 ({c})');
  });

  test('a well-formed question has no issue', () => {
    expect(issuesOf({ text: 'What is {a} times {b}?', formula: 'a * b', variables: ab })).toEqual([]);
  });

  test('every {name} of the text is a variable and every variable is in the text', () => {
    expect(issuesOf({ text: 'What is {a} times {c}?', formula: 'a * b', variables: ab })).toEqual([
      'variables: the text shows {c} but no variable is named so: add it to variables',
      'variables: b is not shown in the text: write {b} where the value goes',
    ]);
  });

  test('the formula uses only the variables, and is finite over their ranges', () => {
    expect(issuesOf({ text: '{a} {b}', formula: 'a * c', variables: ab })).toEqual([
      'formula: formula uses c, which is not a variable: add it to variables, or use a function it knows',
    ]);
    expect(issuesOf({ text: '{a} {b}', formula: 'constructor', variables: ab })[0]).toMatch(
      /constructor, which is not a variable/,
    );
    expect(issuesOf({ text: '{a} {b}', formula: 'a / (b - 0.5)', variables: ab })).toEqual([
      "formula: formula has no finite value for a = 1, b = 0.5: change the formula or the variables' ranges",
    ]);
    expect(issuesOf({ text: '{a} {b}', formula: '9^9^9^a', variables: ab })[0]).toMatch(/no finite value/);
    expect(issuesOf({ text: '{a} {b}', formula: 'sqrt(b - 2)', variables: ab })[0]).toMatch(
      /no finite value/,
    );
  });

  test('variables are well formed', () => {
    const issues = issuesOf({
      text: '{a} {pi} {x}',
      formula: 'a',
      variables: [
        { name: 'a', min: 5, max: 1, decimals: 0 },
        { name: 'a', min: 1, max: 2, decimals: 7 },
        { name: 'pi', min: 1, max: 2, decimals: 0 },
        { name: 'constructor', min: 1, max: 2, decimals: 0 },
      ],
    });
    expect(issues).toEqual(
      expect.arrayContaining([
        'variables: variables[0] min (5) is above max (1)',
        'variables: variables[1] repeats the name "a": each variable needs its own',
        'variables: variables[1] decimals must be a whole number from 0 to 6',
        'variables: variables[2] name "pi" is a function or constant of formulas: choose another',
        expect.stringMatching(/^variables: variables\[3\] name "constructor" must be/),
      ]),
    );
  });
});
