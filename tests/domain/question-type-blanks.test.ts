// The fill_in_blanks type's rules: its input (markers and entries matched by number), its marks
// per blank worked out by hand (case, an accent that counts, a choice-list blank), and its
// per-blank figures from the running counts.
import {
  blankFigures,
  drawOpaqueLists,
  storedDefinition,
  type OpaqueLists,
  type ScorableQuestion,
} from '../../src/domain/question-types';
import type { FillInBlanksQuestion } from '../../src/domain/question-types/fill-in-blanks';
import { QuestionInputSchema } from '../../src/domain/quiz-input';
import { pointsFor, questionMaxPoints } from '../../src/domain/scoring';

const problems = (input: Record<string, unknown>) => {
  const parsed = QuestionInputSchema.safeParse({ type: 'fill_in_blanks', ...input });
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
};

const codes = (input: Record<string, unknown>) => {
  const parsed = QuestionInputSchema.safeParse({ type: 'fill_in_blanks', ...input });
  return parsed.success
    ? []
    : parsed.error.issues.map((issue) => (issue as { params?: { code?: string; blank?: number } }).params);
};

const TEXT = 'The capital of Peru is [[1]]; the Eiffel Tower was finished in [[2]].';
const BLANKS = [
  { accepted_answers: ['Lima'], points: 2 },
  { options: ['1789', '1889', '1901'], correct_option: 1 },
];

describe('a fill_in_blanks question as the tools take it', () => {
  test('a typed and a choice-list blank, each with its marker, are taken', () => {
    expect(problems({ text: TEXT, blanks: BLANKS })).toEqual([]);
  });

  test('a marker without an entry, and an entry without a marker, are field errors naming the blank', () => {
    expect(
      problems({ text: 'A [[1]] and a [[3]]', blanks: [{ accepted_answers: ['x'] }] }).join('\n'),
    ).toContain('blanks: text has the marker [[3]] but blanks has no entry for it (blanks[2])');
    expect(codes({ text: 'A [[1]] and a [[3]]', blanks: [{ accepted_answers: ['x'] }] })).toContainEqual({
      code: 'blank_without_entry',
      blank: 3,
    });
    const extra = { text: 'Only [[1]]', blanks: [{ accepted_answers: ['x'] }, { accepted_answers: ['y'] }] };
    expect(problems(extra).join('\n')).toContain('blanks[1] is blank 2, but text has no [[2]] marker');
    expect(codes(extra)).toContainEqual({ code: 'blank_without_marker', blank: 2 });
  });

  test.each([
    [{ text: 'No blank here', blanks: [] }, 'needs at least one blank: write [[1]]'],
    [{ text: '[[1]] and [[1]]', blanks: [{ accepted_answers: ['x'] }] }, 'the marker [[1]] more than once'],
    [{ text: '[[1]]', blanks: [{}] }, 'blanks[0] needs accepted_answers (the right texts) or options'],
    [{ text: '[[1]]', blanks: [{ options: ['a', 'b'] }] }, 'blanks[0] needs correct_option'],
    [
      { text: '[[1]]', blanks: [{ options: ['a'], correct_option: 0 }] },
      'blanks[0] needs at least 2 options',
    ],
    [{ text: '[[1]]', blanks: [{ options: ['a', 'b'], correct_option: 2 }] }, 'go from 0 to 1'],
    [
      { text: '[[1]]', blanks: [{ options: ['a', 'a'], correct_option: 0 }] },
      'options[1] repeats options[0]',
    ],
    [
      { text: '[[1]]', blanks: [{ options: ['a', 'b'], correct_option: 0, accepted_answers: ['a'] }] },
      'not both',
    ],
    [{ text: '[[1]]', blanks: [{ correct_option: 0 }] }, 'has correct_option but no options'],
    [{ text: '[[1]]', blanks: [{ accepted_answers: ['x'], points: 1.5 }] }, 'points must be a whole number'],
    [{ text: '[[1]]', blanks: [{ accepted_answers: ['x'], colour: 1 }] }, 'colour'],
    [{ text: '[[1]]', blanks: [{ accepted_answers: [''] }] }, 'must not be empty'],
    [
      {
        text: '[[1]]',
        blanks: [{ options: Array.from({ length: 11 }, (_, i) => `o${i}`), correct_option: 0 }],
      },
      'at most 10 options',
    ],
    [{ text: '[[1]]', blanks: [{ accepted_answers: ['x'] }], points: 1 }, 'takes no points'],
  ])('%j is refused by name: %s', (input, message) => {
    expect(problems(input).join('\n')).toContain(message);
  });

  test('its record gives each blank back as it was sent, with the default points', () => {
    const definition = storedDefinition('fill_in_blanks');
    const key = definition.fromInput({ type: 'fill_in_blanks', text: TEXT, blanks: BLANKS });
    expect(definition.record({ ...key, id: 'q' } as ScorableQuestion)).toEqual({
      blanks: [
        { accepted_answers: ['Lima'], points: 2 },
        { options: ['1789', '1889', '1901'], correct_option: 1, points: 1 },
      ],
    });
  });
});

describe('marked per blank', () => {
  const question: FillInBlanksQuestion = {
    id: 'q',
    type: 'fill_in_blanks',
    blanks: [
      { acceptedAnswers: ['Perú'], options: null, correctOption: null, points: 2 },
      { acceptedAnswers: [], options: ['1789', '1889', '1901'], correctOption: 1, points: 1 },
      { acceptedAnswers: ['Ottawa'], options: null, correctOption: null, points: 3 },
    ],
  };
  const definition = storedDefinition('fill_in_blanks');
  const lists: OpaqueLists = drawOpaqueLists(definition.opaqueLists!(question));
  const idOf = (option: number) => lists.blank_2_options!.ids[option]!;
  const parse = (blanks: Array<string | null>) =>
    definition.parseAnswer(question, { question_id: 'q', blanks }, lists);

  test('its maximum is the sum of the blanks: 2 + 1 + 3 = 6', () => {
    expect(questionMaxPoints(question)).toBe(6);
  });

  test.each([
    // Case and spaces ignored: "  perú " and " OTTAWA" are right (2 + 3), 1889 chosen (1): 6.
    [['  perú ', '1', ' OTTAWA'], 6],
    // The accent counts: "Peru" is not "Perú" (0); 1789 is wrong (0); Ottawa right (3): 3.
    [['Peru', '0', 'Ottawa'], 3],
    // Only the choice list answered, right: 1.
    [[null, '1', null], 1],
  ])('%j earns %d', (given, expected) => {
    const blanks = (given as Array<string | null>).map((value, index) =>
      index === 1 && value !== null ? idOf(Number(value)) : value,
    );
    const choice = parse(blanks);
    expect('blanks' in choice).toBe(true);
    expect(pointsFor(question, choice as never)).toBe(expected);
  });

  test('an answer of another length, an option id of no list, or nothing filled is refused with what to send', () => {
    expect(parse(['Lima'])).toMatchObject({
      field: 'blanks',
      message: expect.stringContaining('a list of 3 entries'),
    });
    expect(parse([null, 'not-an-id', null])).toMatchObject({
      message: expect.stringContaining('blank 2 is a choice list: send one of the option_ids'),
    });
    expect(parse([null, null, ''])).toMatchObject({ code: 'missing' });
    // Without the attempt's ids, a choice-list blank cannot be read.
    expect(definition.parseAnswer(question, { question_id: 'q', blanks: [null, 'x', null] })).toMatchObject({
      message: expect.stringContaining('answered through an attempt'),
    });
  });

  test('stored with the label chosen, shown as "1: …; 2: …", and re-marked by label after the options move', () => {
    const choice = parse(['Perú', idOf(1), null]);
    const stored = definition.storedAnswer(question, choice as never)!;
    expect(definition.answerText(stored)).toBe('1: Perú; 2: 1889');
    expect(definition.typedValue(stored)).toMatchObject({ blanks: ['Perú', '1889', null] });
    // The owner puts 1889 first and keeps it right: the stored answer still earns the point.
    const moved: FillInBlanksQuestion = {
      ...question,
      blanks: [
        question.blanks[0]!,
        { ...question.blanks[1]!, options: ['1889', '1789', '1901'], correctOption: 0 },
        question.blanks[2]!,
      ],
    };
    expect(pointsFor(moved, definition.choiceOf(stored) as never)).toBe(3);
    expect(definition.rightAnswers(question)).toEqual(['1: Perú; 2: 1889; 3: Ottawa']);
  });

  test('the figures per blank, from the counts by key: share right and the most common wrong answer', () => {
    const key = (answers: Array<string | null>) => {
      const blanks = answers.map((value, index) =>
        index === 1 && value !== null ? idOf(Number(value)) : value,
      );
      const stored = definition.storedAnswer(question, parse(blanks) as never)!;
      return definition.statKeys(stored).statKey!;
    };
    const counts = new Map<string, number>();
    const add = (answers: Array<string | null>, count: number) =>
      counts.set(key(answers), (counts.get(key(answers)) ?? 0) + count);
    add(['Perú', '1', 'Ottawa'], 2);
    add(['Peru', '0', 'Toronto'], 3);
    add(['peru', '2', null], 1);
    // Blank 1: 2 right of 6; "peru" (as compared) wrong 4 times. Blank 2: 2 of 6; 1789 wrong 3 times.
    // Blank 3: 2 of 6; Toronto 3 times (the empty one is not a wrong answer given).
    expect(blankFigures(question, counts)).toEqual([
      { blank: 1, right_share: 2 / 6, common_wrong_answer: 'peru', common_wrong_count: 4 },
      { blank: 2, right_share: 2 / 6, common_wrong_answer: '1789', common_wrong_count: 3 },
      { blank: 3, right_share: 2 / 6, common_wrong_answer: 'toronto', common_wrong_count: 3 },
    ]);
  });
});
