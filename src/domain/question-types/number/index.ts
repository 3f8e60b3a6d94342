import { z } from 'zod';
import { parseNumberAnswer, withinTolerance } from '../../answer-text';
import { NO_ANSWER, type QuestionTypeDefinition } from '../definition';
import { pointsRule } from '../warnings';
import { bestAnswers } from '../importing';
import type { StatisticsOf } from '../shared-fields';
import type { numberFields } from './fields';

/** A number: `points` when within `tolerance` of `correctNumber`, bounds included. */
export interface NumberQuestion {
  id: string;
  type: 'number';
  points: number;
  correctNumber: number;
  tolerance: number;
}

/** Its answer as stored: the value, and the number as written ("3,5"). */
const valueSchema = z.object({ number: z.number(), written: z.string().nullable() });

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

/** Its fields as the tools return them. */
export interface NumberRecord {
  points: number;
  correct_number: number;
  tolerance: number;
}

export const numberType: QuestionTypeDefinition<NumberQuestion, NumberRecord, z.infer<typeof valueSchema>> = {
  name: 'number',
  summary: 'number (within tolerance)',
  guide: [
    'The respondent types a number. It earns `points` when it lies within `tolerance` (default 0, bounds',
    'included) of `correct_number`. "3,5" and "3.5" both mean 3.5; grouping separators such as "1,000.5" are',
    'refused with a message. Set a tolerance whenever the answer is rounded ("pi to two decimals": 3.14 with',
    'tolerance 0.005).',
  ],
  statisticsGuide: 'give `right_count` and their most common answers',
  importing: {
    shape: 'numeric',
    build: (source, score, lose) => {
      const { best, answers } = bestAnswers(source, lose);
      const [right, ...others] = answers;
      if (others.length > 0) lose('other right values');
      return {
        ...(right ? { correct_number: Number(right.text), tolerance: right.tolerance ?? 0 } : {}),
        points: score((source.grade * best) / 100),
      };
    },
  },
  exporting: (record) => ({
    shape: 'numeric',
    grade: record.points,
    answers: [{ text: String(record.correct_number), fraction: 100, tolerance: record.tolerance }],
    unsaid: [],
  }),
  reference: {
    fields: '`correct_number`, `tolerance` (default 0), `points` (default 1)',
    marked: 'The points within the tolerance, bounds included.',
    answer: '`number`: a number, or a string with a decimal point or comma ("3,5")',
  },
  keyHint: 'a number question takes its right value in correct_number, e.g. correct_number: 56, tolerance: 0',
  takes: ['points', 'correct_number', 'tolerance'],
  checkInput: (input, issue) => {
    if (input.correct_number === undefined) {
      issue(
        'correct_number',
        'a number question needs correct_number: the value that earns the points',
        'missing',
      );
    }
  },
  fromInput: (input) => ({
    type: 'number',
    points: input.points ?? 1,
    correctNumber: input.correct_number ?? 0,
    tolerance: input.tolerance ?? 0,
  }),
  keySchema: z.object({ points: z.number(), correctNumber: z.number(), tolerance: z.number() }),
  toStored: (key) => ({ points: key.points, correctNumber: key.correctNumber, tolerance: key.tolerance }),
  record: (key) => ({ points: key.points, correct_number: key.correctNumber, tolerance: key.tolerance }),
  maxPoints: (key) => Math.max(key.points, 0),
  points: (key, answer) =>
    'number' in answer && withinTolerance(answer.number, key.correctNumber, key.tolerance) ? key.points : 0,
  warnings: pointsRule,
  answerKey: (key) => JSON.stringify([key.type, key.points, key.correctNumber, key.tolerance]),
  answersCarryOver: () => true,
  shufflesOptions: false,
  answerField: {
    name: 'number',
    schema: z.union([z.number(), z.string().max(100, { error: 'number is too long' })], {
      error: 'number must be a number, or a string such as "3,5"',
    }),
    help: 'number (number)',
    description:
      'number: a number, or a string with one decimal point or comma ("3,5"); thousands separators are refused.',
    jsonSchema: { type: ['number', 'string'] },
  },
  parseAnswer: (_question, answer) => {
    const written = typeof answer.number === 'number' ? String(answer.number) : answer.number;
    if (typeof written !== 'string') {
      return {
        field: 'number',
        message: 'a number question takes number: a number, or a string such as "3,5".',
      };
    }
    const parsed = parseNumberAnswer(written);
    if ('error' in parsed) return { field: 'number', message: `${capitalised(parsed.error)}.` };
    return { number: parsed.value, written: written.trim() };
  },
  formAnswer: (value) => ({ number: value }),
  valueSchema,
  storedAnswer: (_question, choice) =>
    'number' in choice
      ? { number: choice.number, written: choice.written ?? String(choice.number) }
      : undefined,
  // No bounded set of answers: counted by its mark, and by its value among the common answers.
  statKeys: (value) => ({ statKey: null, statValue: '', statNum: value.number }),
  choiceOf: (value) => ({ number: value.number, written: value.written ?? undefined }),
  answerText: (value) => value.written,
  typedValue: (value) => ({ number: value ? value.number : null }),
  columns: (value) => ({ ...NO_ANSWER, text: value.written, number: value.number }),
  rightAnswers: (question) => {
    const tolerance = question.tolerance;
    const value = String(question.correctNumber);
    return [tolerance > 0 ? `${value} ± ${tolerance}` : value];
  },
  analysisKeys: () => null,
  statistics: (_question, { rightCount, common }): StatisticsOf<typeof numberFields> => ({
    right_count: rightCount,
    common_values: common.map((entry) => ({ value: Number(entry.value), count: entry.count })),
  }),
  commonAnswers: 'number',
  answerIsTyped: true,
};
