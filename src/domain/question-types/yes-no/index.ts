import { z } from 'zod';
import { NO_ANSWER, type QuestionTypeDefinition } from '../definition';
import { pointsRule } from '../warnings';
import type { StatisticsOf } from '../shared-fields';
import type { yesNoFields } from './fields';

/** Yes or no: the answer named by the key (default "yes") earns `points`, the other 0. */
export interface YesNoQuestion {
  id: string;
  type: 'yes_no';
  points: number;
  correctAnswer?: 'yes' | 'no';
}

const YES_NO = z.enum(['yes', 'no']);

/** Its answer as stored. */
const valueSchema = z.object({ choice: YES_NO });

/** Its fields as the tools return them. */
export interface YesNoRecord {
  points: number;
  correct_answer: 'yes' | 'no';
}

export const yesNo: QuestionTypeDefinition<YesNoQuestion, YesNoRecord, z.infer<typeof valueSchema>> = {
  name: 'yes_no',
  summary: 'yes_no',
  guide: [
    'A statement or question answered yes or no. `correct_answer` ("yes" or "no") earns `points` (default 1); the',
    'other answer earns 0. Set `correct_answer` every time: it defaults to "yes", so a question whose right',
    'answer is "no" ("Is Milan the capital of Italy?") is marked wrongly without it.',
  ],
  statisticsGuide: 'count `yes_count`/`no_count` beside `correct_answer`',
  fromMaterial: {},
  importing: {
    shape: 'truth',
    build: (source, score) => ({
      correct_answer: source.answers[0]?.text === 'false' ? 'no' : 'yes',
      points: score(source.grade),
    }),
  },
  exporting: (record) => ({
    shape: 'truth',
    grade: record.points,
    answers: [{ text: record.correct_answer === 'no' ? 'false' : 'true', fraction: 100 }],
    unsaid: [],
  }),
  reference: {
    fields: '`points` (default 1), `correct_answer` (default "yes")',
    marked: 'The right answer earns the points, the other 0.',
    answer: '`answer`: "yes" or "no"',
  },
  keyHint: 'a yes_no question names its right answer in correct_answer, e.g. correct_answer: "no", points: 1',
  takes: ['points', 'correct_answer'],
  checkInput: () => undefined,
  fromInput: (input) => ({
    type: 'yes_no',
    points: input.points ?? 1,
    correctAnswer: input.correct_answer ?? 'yes',
  }),
  keySchema: z.object({ points: z.number(), correctAnswer: YES_NO }),
  toStored: (key) => ({ points: key.points, correctAnswer: key.correctAnswer ?? 'yes' }),
  record: (key) => ({ points: key.points, correct_answer: key.correctAnswer ?? 'yes' }),
  maxPoints: (key) => Math.max(key.points, 0),
  points: (key, answer) =>
    'choice' in answer && answer.choice === (key.correctAnswer ?? 'yes') ? key.points : 0,
  warnings: pointsRule,
  answerKey: (key) => JSON.stringify([key.type, key.points, key.correctAnswer ?? 'yes']),
  answersCarryOver: () => true,
  shufflesOptions: false,
  answerField: {
    name: 'answer',
    schema: z.enum(['yes', 'no'], { error: 'answer must be "yes" or "no"' }),
    help: 'answer ("yes"/"no", yes_no)',
    jsonSchema: { enum: ['yes', 'no'] },
  },
  parseAnswer: (_question, answer) =>
    answer.answer === 'yes' || answer.answer === 'no'
      ? { choice: answer.answer }
      : { field: 'answer', message: 'a yes_no question takes answer "yes" or "no".' },
  formAnswer: (value) => ({ answer: value }),
  valueSchema,
  storedAnswer: (_question, choice) => ('choice' in choice ? { choice: choice.choice } : undefined),
  statKeys: (value) => ({ statKey: value.choice, statValue: null, statNum: null }),
  choiceOf: (value) => ({ choice: value.choice }),
  answerText: (value) => value.choice,
  typedValue: () => ({}),
  columns: (value) => ({ ...NO_ANSWER, choice: value.choice }),
  rightAnswers: (question) => [question.correctAnswer ?? 'yes'],
  analysisKeys: (question) => ({
    keys: ['yes', 'no'],
    right: new Set([question.correctAnswer ?? 'yes']),
    label: (key) => `"${key}"`,
  }),
  statistics: (question, { count }): StatisticsOf<typeof yesNoFields> => ({
    yes_count: count('yes'),
    no_count: count('no'),
    correct_answer: question.correctAnswer ?? 'yes',
  }),
  commonAnswers: 'none',
  answerIsTyped: false,
};
