// The five question types' scoring, with every expected figure worked out by hand: the answer
// key of yes_no, negative scores and none ticked in multiple_select, accents and composed or
// decomposed letters in short_text, decimal commas, grouping separators and tolerance bounds in
// number.
import {
  comparableText,
  matchesAcceptedAnswer,
  parseNumberAnswer,
  withinTolerance,
} from '../../src/domain/answer-text';
import {
  answerKeyOf,
  pointsFor,
  questionMaxPoints,
  scoreResponse,
  type ScorableQuestion,
} from '../../src/domain/scoring';

describe('yes_no with an answer key', () => {
  const milan: ScorableQuestion = { id: 'q', type: 'yes_no', points: 2, correctAnswer: 'no' };
  test('"Is Milan the capital of Italy?" with correct_answer "no" rewards "no"', () => {
    expect(pointsFor(milan, { choice: 'no' })).toBe(2);
    expect(pointsFor(milan, { choice: 'yes' })).toBe(0);
    expect(questionMaxPoints(milan)).toBe(2);
  });
  test('without an answer key, "yes" earns as before', () => {
    const old: ScorableQuestion = { id: 'q', type: 'yes_no', points: 3 };
    expect(pointsFor(old, { choice: 'yes' })).toBe(3);
    expect(pointsFor(old, { choice: 'no' })).toBe(0);
  });
});

describe('multiple_select', () => {
  // Right: 0 (+3) and 2 (+2); wrong: 1 (-4) and 3 (-1). Maximum 3 + 2 = 5.
  const primes: ScorableQuestion = {
    id: 'q',
    type: 'multiple_select',
    options: [{ score: 3 }, { score: -4 }, { score: 2 }, { score: -1 }],
  };
  test.each([
    [[0, 2], 5],
    [[0], 3],
    [[0, 2, 3], 4], // 3 + 2 - 1
    [[0, 1], 0], // 3 - 4 = -1, never below 0
    [[1, 3], 0], // -5 -> 0
    [[], 0], // none ticked is an answer, worth 0
    [[0, 0, 2, 2], 5], // an index sent twice counts once
    [[0, 9], 3], // an index past the options earns nothing
  ])('ticking %j earns %d', (ticked, expected) => {
    expect(pointsFor(primes, { optionIndexes: ticked })).toBe(expected);
  });
  test('its maximum is the sum of the positive scores', () => {
    expect(questionMaxPoints(primes)).toBe(5);
    expect(
      questionMaxPoints({ id: 'q', type: 'multiple_select', options: [{ score: -1 }, { score: 0 }] }),
    ).toBe(0);
  });
});

describe('short_text', () => {
  const peru: ScorableQuestion = { id: 'q', type: 'short_text', points: 4, acceptedAnswers: ['Lima'] };
  const cafe: ScorableQuestion = { id: 'q', type: 'short_text', points: 1, acceptedAnswers: ['Café'] };
  test.each([
    ['Lima', 4],
    ['  lima ', 4],
    ['LIMA', 4],
    ['Lim', 0],
    ['', 0],
  ])('"%s" earns %d', (answer, expected) => {
    expect(pointsFor(peru, { text: answer })).toBe(expected);
  });
  test('composed and decomposed letters are one; accents count', () => {
    expect(pointsFor(cafe, { text: 'cafe\u0301' })).toBe(1); // e + combining acute
    expect(pointsFor(cafe, { text: 'caf\u00e9' })).toBe(1);
    expect(pointsFor(cafe, { text: 'Cafe' })).toBe(0);
    expect(matchesAcceptedAnswer('Peru', ['Perú'])).toBe(false);
    expect(matchesAcceptedAnswer('PERÚ', ['Peru\u0301'])).toBe(true); // u + combining acute
  });
  test('inner runs of spaces are one space', () => {
    expect(comparableText('  New \t  York ')).toBe('new york');
    expect(
      pointsFor(
        { id: 'q', type: 'short_text', points: 2, acceptedAnswers: ['New York', 'NYC'] },
        { text: 'new   york' },
      ),
    ).toBe(2);
  });
  test('without accepted answers it collects text and scores nothing', () => {
    const comments: ScorableQuestion = { id: 'q', type: 'short_text', points: 5, acceptedAnswers: [] };
    expect(pointsFor(comments, { text: 'Loved it' })).toBe(0);
    expect(questionMaxPoints(comments)).toBe(0);
  });
});

describe('number', () => {
  const seven8: ScorableQuestion = { id: 'q', type: 'number', points: 2, correctNumber: 56, tolerance: 0 };
  const pi: ScorableQuestion = { id: 'q', type: 'number', points: 1, correctNumber: 3.14, tolerance: 0.01 };
  test('an exact key takes the exact number', () => {
    expect(pointsFor(seven8, { number: 56 })).toBe(2);
    expect(pointsFor(seven8, { number: 56.0001 })).toBe(0);
  });
  test.each([
    [3.13, 1], // lower bound, inclusive
    [3.15, 1], // upper bound, inclusive
    [3.129, 0],
    [3.151, 0],
    [3.14, 1],
  ])('%d against 3.14 ± 0.01 earns %d', (answer, expected) => {
    expect(pointsFor(pi, { number: answer })).toBe(expected);
  });
  test('binary fractions do not move a bound: |0.4 - 0.3| is within 0.1', () => {
    expect(Math.abs(0.4 - 0.3) > 0.1).toBe(true); // the trap
    expect(withinTolerance(0.4, 0.3, 0.1)).toBe(true);
    expect(withinTolerance(0.4000001, 0.3, 0.1)).toBe(false);
  });
  test.each([
    ['3,5', 3.5],
    ['3.5', 3.5],
    [' -7 ', -7],
    ['+2', 2],
    [',5', 0.5],
    ['42', 42],
    ['-0', 0],
  ])('"%s" reads as %d', (text, value) => {
    expect(parseNumberAnswer(text)).toEqual({ value });
  });
  test.each(['1,000.5', '1.000,5', '1 000', '1,000,000', "1'000"])(
    '"%s" is refused as grouped, with a message',
    (text) => {
      expect(parseNumberAnswer(text)).toEqual({
        error: expect.stringMatching(/without thousands separators/),
      });
    },
  );
  test.each(['', 'abc', '3..5', '1e5', '0x10', 'Infinity', '5%', '1e400'])('"%s" is not a number', (text) => {
    expect(parseNumberAnswer(text)).toEqual({ error: expect.any(String) });
  });
  test('beyond a trillion, decimals are not exact: refused', () => {
    expect(parseNumberAnswer('1000000000000')).toEqual({ value: 1e12 });
    expect(parseNumberAnswer('1000000000001')).toEqual({ error: expect.stringMatching(/between/) });
  });
});

test('a quiz of all five types: score, maximum and percent by hand', () => {
  const questions: ScorableQuestion[] = [
    { id: 'a', type: 'yes_no', points: 1, correctAnswer: 'no' }, // max 1
    { id: 'b', type: 'multiple_choice', options: [{ score: 0 }, { score: 2 }] }, // max 2
    { id: 'c', type: 'multiple_select', options: [{ score: 2 }, { score: 1 }, { score: -3 }] }, // max 3
    { id: 'd', type: 'short_text', points: 2, acceptedAnswers: ['Lima'] }, // max 2
    { id: 'e', type: 'number', points: 2, correctNumber: 3.5, tolerance: 0 }, // max 2
  ];
  const answers = new Map([
    ['a', { choice: 'no' as const }], // 1
    ['b', { optionIndex: 0 }], // 0
    ['c', { optionIndexes: [0, 2] }], // 2 - 3 -> 0
    ['d', { text: ' lima' }], // 2
    ['e', { number: 3.5 }], // 2
  ]);
  const result = scoreResponse(questions, answers, 50);
  expect(result.score).toBe(5);
  expect(result.maxScore).toBe(10);
  expect(result.percent).toBe(50);
  expect(result.passed).toBe(true);
  expect(result.perQuestion.map((q) => q.points)).toEqual([1, 0, 0, 2, 2]);
});

type Unkeyed = ScorableQuestion extends infer Q ? (Q extends unknown ? Omit<Q, 'id'> : never) : never;

describe('the answer key decides whether an edited question keeps its id', () => {
  const key = (question: Unkeyed) => answerKeyOf({ id: 'q', ...question } as ScorableQuestion);
  test('edits that score every answer alike keep the key', () => {
    expect(key({ type: 'yes_no', points: 1 })).toBe(key({ type: 'yes_no', points: 1, correctAnswer: 'yes' }));
    expect(key({ type: 'short_text', points: 1, acceptedAnswers: ['Lima', ' LIMA', 'Cusco'] })).toBe(
      key({ type: 'short_text', points: 1, acceptedAnswers: ['cusco', 'lima'] }),
    );
  });
  test.each([
    [
      { type: 'yes_no', points: 1 },
      { type: 'yes_no', points: 1, correctAnswer: 'no' },
    ],
    [
      { type: 'yes_no', points: 1 },
      { type: 'yes_no', points: 2 },
    ],
    [
      { type: 'multiple_choice', options: [{ score: 1 }, { score: 0 }] },
      { type: 'multiple_choice', options: [{ score: 0 }, { score: 1 }] },
    ],
    [
      { type: 'multiple_choice', options: [{ score: 1 }, { score: 0 }] },
      { type: 'multiple_select', options: [{ score: 1 }, { score: 0 }] },
    ],
    [
      { type: 'multiple_select', options: [{ score: 1 }, { score: 0 }] },
      { type: 'multiple_select', options: [{ score: 1 }, { score: 0 }, { score: 0 }] },
    ],
    [
      { type: 'short_text', points: 1, acceptedAnswers: ['Lima'] },
      { type: 'short_text', points: 1, acceptedAnswers: ['Lima', 'Cusco'] },
    ],
    [
      { type: 'number', points: 1, correctNumber: 56, tolerance: 0 },
      { type: 'number', points: 1, correctNumber: 56, tolerance: 1 },
    ],
  ] satisfies Array<[Unkeyed, Unkeyed]>)(
    'a change of type, key or scores changes the key (%j)',
    (before, after) => {
      expect(key(before)).not.toBe(key(after));
    },
  );
});
