// The scale type's rules: its input, its range, its answers, and its figures from the counts per
// value, with every expected figure worked out by hand in the comments.
import {
  isUnscored,
  scaleFigures,
  storedDefinition,
  type ScorableQuestion,
} from '../../src/domain/question-types';
import type { ScaleQuestion } from '../../src/domain/question-types/scale';
import { QuestionInputSchema } from '../../src/domain/quiz-input';
import { pointsFor, questionMaxPoints, scoreResponse } from '../../src/domain/scoring';

const problems = (input: Record<string, unknown>) => {
  const parsed = QuestionInputSchema.safeParse({ type: 'scale', text: 'How likely?', ...input });
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

describe('a scale question as the tools take it', () => {
  test('0 to 10 with both ends named is taken', () => {
    expect(problems({ scale_min: 0, scale_max: 10, scale_labels: ['Not likely', 'Very likely'] })).toEqual(
      [],
    );
    expect(problems({ scale_max: 5 })).toEqual([]);
  });

  test.each([
    [{}, 'scale_max: a scale question needs scale_max: its highest value, 2 to 10'],
    [{ scale_max: 11 }, 'scale_max: scale_max must be a whole number from 2 to 10'],
    [{ scale_max: 1 }, 'scale_max: scale_max must be a whole number from 2 to 10'],
    [{ scale_max: 4.5 }, 'scale_max: scale_max must be a whole number from 2 to 10'],
    [{ scale_min: 2, scale_max: 5 }, 'scale_min: scale_min must be a whole number from 0 to 1'],
    [{ scale_max: 5, scale_labels: ['a', 'b', 'c'] }, 'scale_labels: scale_labels takes two strings'],
    [
      { scale_max: 5, scale_labels: ['x'.repeat(101), ''] },
      'scale_labels.0: a scale label takes at most 100',
    ],
    [{ scale_max: 5, points: 1 }, 'points: a scale question takes no points'],
  ])('%j is refused by name: %s', (input, message) => {
    expect(problems(input).join('\n')).toContain(message);
  });

  test('its record gives the range and both ends, "" for an end without words', () => {
    const definition = storedDefinition('scale');
    const key = definition.fromInput({ type: 'scale', scale_max: 7, scale_labels: ['Never'] });
    expect(definition.record({ ...key, id: 'q' } as ScorableQuestion)).toEqual({
      scale_min: 1,
      scale_max: 7,
      scale_labels: ['Never', ''],
    });
  });
});

describe('a scale is unscored', () => {
  const nps: ScorableQuestion = { id: 's', type: 'scale', min: 0, max: 10, labels: ['', ''] };
  const yes: ScorableQuestion = { id: 'y', type: 'yes_no', points: 2, correctAnswer: 'yes' };

  test('its maximum is 0 and any value earns 0', () => {
    expect(questionMaxPoints(nps)).toBe(0);
    expect(pointsFor(nps, { value: 10 })).toBe(0);
  });

  test('beside a scored question it changes neither the score nor the maximum: 2 of 2, 100%', () => {
    const answers = new Map([
      ['s', { value: 3 }],
      ['y', { choice: 'yes' as const }],
    ]);
    expect(scoreResponse([nps, yes], answers, 50)).toMatchObject({
      score: 2,
      maxScore: 2,
      percent: 100,
      passed: true,
    });
  });

  test('a quiz of scales alone has no percent and no pass or fail, even with a pass mark', () => {
    expect(scoreResponse([nps], new Map([['s', { value: 9 }]]), 50)).toMatchObject({
      score: 0,
      maxScore: 0,
      percent: null,
      passed: null,
    });
  });

  test('it stays out of the item analysis', () => {
    expect(storedDefinition('scale').analysisKeys(nps)).toBeNull();
    expect(isUnscored({ id: 'q', type: 'scale', min: 1, max: 5, labels: ['', ''] })).toBe(true);
  });
});

describe('a scale answer', () => {
  const oneToFive: ScaleQuestion = { id: 'q', type: 'scale', min: 1, max: 5, labels: ['', ''] };
  const parse = (value: unknown) =>
    storedDefinition('scale').parseAnswer(oneToFive, { question_id: 'q', value } as never);

  test.each([1, 5, '3', ' 4 '])('%j is within 1 to 5', (value) => {
    expect(parse(value)).toEqual({ value: Number(value) });
  });

  test.each([0, 6, 2.5, '2.5', 'three', -1, '', null])('%j is refused, the range named', (value) => {
    expect(parse(value)).toEqual({
      field: 'value',
      message: 'a scale question takes value: a whole number from 1 to 5.',
    });
  });
});

describe("a scale's figures from its counts per value", () => {
  const counting = (values: number[]) => (key: string) =>
    values.filter((value) => String(value) === key).length;
  const nps: ScaleQuestion = { id: 'q', type: 'scale', min: 0, max: 10, labels: ['', ''] };

  test('0 to 10: mean, median and the Net Promoter score with its counts', () => {
    // Sorted: 0 3 6 7 8 9 9 10 10 10. Sum 72 over 10: mean 7.2; median (8 + 9) / 2 = 8.5.
    // Promoters 9-10: five; passives 7-8: two; detractors 0-6: three. (5 - 3) / 10 = 20.
    const figures = scaleFigures(nps, counting([10, 10, 9, 9, 8, 7, 6, 3, 0, 10]));
    expect(figures).toMatchObject({
      mean: 7.2,
      median: 8.5,
      net_promoter: { score: 20, promoters: 5, passives: 2, detractors: 3 },
    });
    expect(figures.distribution).toHaveLength(11);
    expect(figures.distribution[10]).toEqual({ value: 10, count: 3 });
    expect(figures.distribution[1]).toEqual({ value: 1, count: 0 });
  });

  test('all detractors give -100, rounded to a whole number otherwise: 1 promoter of 3 is 33', () => {
    expect(scaleFigures(nps, counting([0, 6])).net_promoter).toEqual({
      score: -100,
      promoters: 0,
      passives: 0,
      detractors: 2,
    });
    // (1 - 0) / 3 = 33.3 -> 33.
    expect(scaleFigures(nps, counting([10, 7, 8])).net_promoter?.score).toBe(33);
  });

  test('1 to 5: no Net Promoter score; an odd count has its middle value as median', () => {
    const fivePoint: ScaleQuestion = { id: 'q', type: 'scale', min: 1, max: 5, labels: ['', ''] };
    // 1 2 2 5: mean 10 / 4 = 2.5; median (2 + 2) / 2 = 2.
    expect(scaleFigures(fivePoint, counting([1, 2, 2, 5]))).toMatchObject({
      mean: 2.5,
      median: 2,
      net_promoter: null,
    });
    // 1 2 5: median 2; mean 8 / 3 = 2.67.
    expect(scaleFigures(fivePoint, counting([1, 2, 5]))).toMatchObject({ mean: 2.67, median: 2 });
  });

  test('without answers: no mean, no median, a Net Promoter score of none', () => {
    expect(scaleFigures(nps, () => 0)).toMatchObject({
      mean: null,
      median: null,
      net_promoter: { score: null, promoters: 0, passives: 0, detractors: 0 },
    });
  });
});
