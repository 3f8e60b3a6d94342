import {
  maxScoreOf,
  passedOf,
  percentOf,
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

describe('scoring', () => {
  test('yes earns the points, no earns 0; the maximum is max(points, 0)', () => {
    const questions = [yesNo('a', 3), yesNo('b', 2)];
    const result = scoreResponse(
      questions,
      answers([
        ['a', { choice: 'yes' }],
        ['b', { choice: 'no' }],
      ]),
      null,
    );
    expect(result).toMatchObject({ score: 3, maxScore: 5, percent: 60, passed: null });
  });

  test('a yes_no question with negative points: "yes" loses points, its maximum is 0', () => {
    const questions = [yesNo('trap', -4), yesNo('ok', 4)];
    expect(
      scoreResponse(
        questions,
        answers([
          ['trap', { choice: 'yes' }],
          ['ok', { choice: 'yes' }],
        ]),
        50,
      ),
    ).toMatchObject({
      score: 0,
      maxScore: 4,
      percent: 0,
      passed: false,
    });
    expect(
      scoreResponse(
        questions,
        answers([
          ['trap', { choice: 'no' }],
          ['ok', { choice: 'yes' }],
        ]),
        50,
      ),
    ).toMatchObject({
      score: 4,
      percent: 100,
      passed: true,
    });
  });

  test('multiple choice earns the chosen score; the maximum is the highest option score', () => {
    const questions = [choice('q', 1, 5, -2)];
    expect(scoreResponse(questions, answers([['q', { optionIndex: 1 }]]), null)).toMatchObject({
      score: 5,
      maxScore: 5,
    });
    expect(scoreResponse(questions, answers([['q', { optionIndex: 2 }]]), null)).toMatchObject({
      score: -2,
      percent: -40,
    });
  });

  test('all options negative: the maximum is the least negative one', () => {
    expect(maxScoreOf([choice('q', -3, -1)])).toBe(-1);
  });

  test('unanswered questions earn 0 but still count towards the maximum', () => {
    const questions = [yesNo('a', 2), choice('b', 0, 3)];
    const result = scoreResponse(questions, answers([['a', { choice: 'yes' }]]), 60);
    expect(result).toMatchObject({ score: 2, maxScore: 5, percent: 40, passed: false });
    expect(result.perQuestion).toEqual([
      { questionId: 'a', points: 2, maxPoints: 2, answered: true },
      { questionId: 'b', points: 0, maxPoints: 3, answered: false },
    ]);
  });

  test('a zero maximum gives a null percent and a null pass, never a division by zero', () => {
    const result = scoreResponse([yesNo('a', 0), choice('b', 0, 0)], answers([['a', { choice: 'yes' }]]), 50);
    expect(result).toMatchObject({ score: 0, maxScore: 0, percent: null, passed: null });
    expect(scoreResponse([], new Map(), null)).toMatchObject({ score: 0, maxScore: 0, percent: null });
  });

  test('the pass mark is inclusive and percent is rounded to two decimals', () => {
    expect(percentOf(1, 3)).toBe(33.33);
    expect(percentOf(2, 3)).toBe(66.67);
    expect(passedOf(50, 50)).toBe(true);
    expect(passedOf(49.99, 50)).toBe(false);
    expect(passedOf(80, null)).toBeNull();
    expect(passedOf(0, 0)).toBe(true);
  });

  test('an answer of the wrong kind for a question earns nothing', () => {
    const questions = [yesNo('a', 2), choice('b', 4, 1)];
    const result = scoreResponse(
      questions,
      answers([
        ['a', { optionIndex: 0 }],
        ['b', { choice: 'yes' }],
      ]),
      null,
    );
    expect(result.score).toBe(0);
  });
});
