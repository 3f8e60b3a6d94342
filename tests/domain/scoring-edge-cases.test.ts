// The edge cases of the scoring rules (src/domain/scoring.ts) that tests/domain/scoring.test.ts leaves open.
import {
  maxScoreOf,
  pointsFor,
  questionMaxPoints,
  scoreResponse,
  type Choice,
  type ScorableQuestion,
} from '../../src/domain/scoring';

const yesNo = (id: string, points: number): ScorableQuestion => ({ id, type: 'yes_no', points });
const choice = (id: string, ...scores: number[]): ScorableQuestion => ({
  id,
  type: 'multiple_choice',
  options: scores.map((score) => ({ score })),
});
const answers = (entries: Array<[string, Choice]>) => new Map(entries);

describe('scoring edge cases', () => {
  test('a total below zero stays negative and gives a negative percent that fails any pass mark', () => {
    const questions = [yesNo('a', -5), choice('b', -2, 1)];
    const result = scoreResponse(
      questions,
      answers([
        ['a', { choice: 'yes' }],
        ['b', { optionIndex: 0 }],
      ]),
      0,
    );
    expect(result).toMatchObject({ score: -7, maxScore: 1, percent: -700, passed: false });
  });

  test('a negative maximum (every option negative) still gives a percent, sign and all', () => {
    const result = scoreResponse([choice('q', -3, -1)], answers([['q', { optionIndex: 1 }]]), 50);
    expect(result).toMatchObject({ score: -1, maxScore: -1, percent: 100, passed: true });
  });

  test('maxima of negative and positive questions add up question by question', () => {
    expect(maxScoreOf([yesNo('a', -4), yesNo('b', 3), choice('c', -1, -2), choice('d', 0, 7)])).toBe(
      0 + 3 - 1 + 7,
    );
  });

  test('zero maximum with a pass mark of 0: percent and passed are null, not a pass by default', () => {
    const result = scoreResponse([yesNo('a', 0)], answers([['a', { choice: 'no' }]]), 0);
    expect(result).toMatchObject({ score: 0, maxScore: 0, percent: null, passed: null });
  });

  test('a positive and a negative question cancelling out to a zero maximum: percent null, score kept', () => {
    const result = scoreResponse(
      [choice('a', 2, 0), choice('b', -2, -5)],
      answers([['a', { optionIndex: 0 }]]),
      50,
    );
    expect(result).toMatchObject({ score: 2, maxScore: 0, percent: null, passed: null });
  });

  test('nothing answered (require_all_answers off): score 0 against the full maximum', () => {
    const questions = [yesNo('a', 2), choice('b', 1, 4), yesNo('c', -3)];
    const result = scoreResponse(questions, new Map(), 50);
    expect(result).toMatchObject({ score: 0, maxScore: 6, percent: 0, passed: false });
    expect(result.perQuestion.map((q) => q.answered)).toEqual([false, false, false]);
  });

  test('leaving a negative-points question unanswered earns 0, like answering "no"', () => {
    const questions = [yesNo('trap', -3), yesNo('ok', 3)];
    const skipped = scoreResponse(questions, answers([['ok', { choice: 'yes' }]]), null);
    const declined = scoreResponse(
      questions,
      answers([
        ['trap', { choice: 'no' }],
        ['ok', { choice: 'yes' }],
      ]),
      null,
    );
    expect(skipped.score).toBe(3);
    expect(declined.score).toBe(3);
  });

  test('answers for questions the quiz does not have are ignored', () => {
    const result = scoreResponse([yesNo('a', 1)], answers([['ghost', { choice: 'yes' }]]), null);
    expect(result).toMatchObject({ score: 0, maxScore: 1 });
  });

  test('an out-of-range option index earns nothing (validation refuses it before scoring)', () => {
    expect(pointsFor(choice('q', 5, 1), { optionIndex: 7 })).toBe(0);
  });

  test('a yes_no question with 0 points is worth nothing either way', () => {
    expect(questionMaxPoints(yesNo('a', 0))).toBe(0);
    expect(pointsFor(yesNo('a', 0), { choice: 'yes' })).toBe(0);
  });

  test('percent is rounded to two decimals, including negative values', () => {
    const result = scoreResponse([choice('a', -1, 3)], answers([['a', { optionIndex: 0 }]]), null);
    expect(result.percent).toBe(-33.33);
  });

  test('pass or fail is judged on the percent the respondent is shown (two decimals)', () => {
    // 2 of 3 is shown as 66.67%: with a pass mark of 66.67 that reads as a pass, so it is one.
    expect(scoreResponse([choice('a', 2, 3)], answers([['a', { optionIndex: 0 }]]), 66.67).passed).toBe(true);
    expect(scoreResponse([choice('a', 2, 3)], answers([['a', { optionIndex: 0 }]]), 66.68).passed).toBe(
      false,
    );
  });
});
