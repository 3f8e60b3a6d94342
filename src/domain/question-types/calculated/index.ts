import { z } from 'zod';
import { withinTolerance } from '../../answer-text';
import { NO_ANSWER, type DrawnValues, type QuestionTypeDefinition } from '../definition';
import { numberType } from '../number';
import { pointsRule } from '../warnings';
import { bestAnswers } from '../importing';
import type { StatisticsOf } from '../shared-fields';
import type { calculatedFields } from './fields';
import { moodleFormula, parseFormula } from './formula';
import {
  checkCalculated,
  drawValues,
  fillText,
  rightValue,
  variableOf,
  VARIABLE_LIMITS,
  type CalculatedVariable,
} from './variables';

export { FORMULA_LIMITS } from './formula';
export { decimalsOf, VARIABLE_LIMITS, type CalculatedVariable } from './variables';

/**
 * Each respondent gets their own numbers (Moodle's calculated, Canvas's formula question): every
 * attempt draws each variable between its bounds, the text shows them at `{name}`, and a number
 * earns `points` within `tolerance` of the formula's value for them (relative: a share of it).
 */
export interface CalculatedQuestion {
  id: string;
  type: 'calculated';
  points: number;
  formula: string;
  variables: readonly CalculatedVariable[];
  tolerance: number;
  toleranceType: 'absolute' | 'relative';
}

/** Its answer as stored: the number, as written, and the values it was marked against. */
const valueSchema = z.object({
  number: z.number(),
  written: z.string().nullable(),
  values: z.record(z.string(), z.number()),
});

/** Its fields as the tools return them. */
export interface CalculatedRecord {
  points: number;
  formula: string;
  variables: CalculatedVariable[];
  tolerance: number;
  tolerance_type: 'absolute' | 'relative';
}

const variableSchema = z.object({
  name: z.string(),
  min: z.number(),
  max: z.number(),
  decimals: z.number().optional(),
  step: z.number().optional(),
  unit: z.string().optional(),
});

type Key = Omit<CalculatedQuestion, 'id'>;

/** The formula's value for a draw; NaN for a formula that no longer reads (never stored so). */
function rightFor(key: Pick<Key, 'formula'>, values: DrawnValues): number {
  const parsed = parseFormula(key.formula);
  return 'formula' in parsed ? rightValue(parsed.formula, values) : Number.NaN;
}

/** The distance allowed from the right value: relative tolerances are a share of it. */
const allowed = (key: Pick<Key, 'tolerance' | 'toleranceType'>, right: number) =>
  key.toleranceType === 'relative' ? key.tolerance * Math.abs(right) : key.tolerance;

const toleranceText = (key: Pick<Key, 'tolerance' | 'toleranceType'>) =>
  key.tolerance === 0
    ? ''
    : key.toleranceType === 'relative'
      ? ` ± ${Number((key.tolerance * 100).toPrecision(6))}%`
      : ` ± ${key.tolerance}`;

/** Every variable the key needs has a value in the draw. */
const drawFits = (key: Pick<Key, 'variables'>, drawn: DrawnValues | null | undefined): drawn is DrawnValues =>
  !!drawn &&
  key.variables.every(
    (variable) =>
      Object.prototype.hasOwnProperty.call(drawn, variable.name) && Number.isFinite(drawn[variable.name]),
  );

const names = (key: Pick<Key, 'variables'>) =>
  key.variables
    .map((variable) => variable.name)
    .sort()
    .join(',');

export const calculated: QuestionTypeDefinition<
  CalculatedQuestion,
  CalculatedRecord,
  z.infer<typeof valueSchema>
> = {
  name: 'calculated',
  summary: 'calculated (numbers per attempt)',
  guide: [
    'Each respondent gets their own numbers. Write `{name}` in the text where a value goes, and give each in',
    '`variables`: {name, min, max, decimals or step, unit} (drawn evenly between min and max, bounds included,',
    `rounded to decimals 0-${VARIABLE_LIMITS.decimals} (default 0), or with step one of min, min + step, ... up to max; unit, if`,
    `given, shown after the value; at most ${VARIABLE_LIMITS.count}). \`formula\` is the answer over the variables, e.g. "a * b + 2":`,
    'numbers, + - * / % ^, parentheses, sqrt, abs, sin, cos, tan, asin, acos, atan, exp, ln, log, round, min,',
    'max, pi, e. A number within `tolerance` (default 0; with `tolerance_type` "relative", a share of the right',
    'value: 0.01 is 1%) earns `points`. Every {name} must be a variable and every variable shown. A quiz with',
    "one is taken through an attempt: the attempt's text shows the respondent's numbers; answer with `number`.",
  ],
  statisticsGuide: 'give `right_count` and their most common answers',
  importing: {
    shape: 'formula',
    build: (source, score, lose) => {
      const formula = source.formula;
      const { best, answers } = bestAnswers(source, lose);
      if (answers.length > 1) lose('other right formulas');
      return {
        ...(formula
          ? {
              formula: formula.formula,
              variables: formula.variables.map((variable) => variableOf(variable)),
              tolerance: formula.tolerance,
              tolerance_type: formula.toleranceType,
            }
          : {}),
        points: score((source.grade * best) / 100),
      };
    },
  },
  exporting: (record) => ({
    shape: 'formula',
    grade: record.points,
    answers: [{ text: record.formula, fraction: 100, tolerance: record.tolerance }],
    formula: {
      formula: record.formula,
      moodle: moodleFormula(record.formula),
      variables: record.variables,
      tolerance: record.tolerance,
      toleranceType: record.tolerance_type,
    },
    unsaid: [],
  }),
  reference: {
    fields:
      '`formula`, `variables` ({name, min, max, decimals or step, unit}), `tolerance` (default 0), `tolerance_type` (default "absolute"), `points` (default 1)',
    marked:
      "The points within the tolerance of the formula's value for the respondent's own numbers, drawn per attempt. Always taken through an attempt.",
    answer: numberType.reference.answer,
    limit: { bound: `at most ${VARIABLE_LIMITS.count} variables` },
  },
  keyHint:
    'a calculated question gives its answer as a formula over variables shown in the text, e.g. text "What is {a} + {b}?", formula: "a + b", variables: [{"name": "a", "min": 1, "max": 9}, {"name": "b", "min": 1, "max": 9}]',
  takes: ['points', 'formula', 'variables', 'tolerance', 'tolerance_type'],
  checkInput: (input, issue) => {
    checkCalculated(
      { text: input.text, formula: input.formula, variables: input.variables },
      (field, message) =>
        issue(
          field === 'text' ? 'variables' : field,
          message,
          input[field === 'text' ? 'variables' : field] === undefined ? 'missing' : 'invalid',
        ),
    );
  },
  fromInput: (input) => ({
    type: 'calculated',
    points: input.points ?? 1,
    formula: input.formula ?? '',
    variables: (input.variables ?? []).map((variable) => variableOf(variable)),
    tolerance: input.tolerance ?? 0,
    toleranceType: input.tolerance_type ?? 'absolute',
  }),
  keySchema: z.object({
    points: z.number(),
    formula: z.string(),
    variables: z.array(variableSchema),
    tolerance: z.number(),
    toleranceType: z.enum(['absolute', 'relative']),
  }),
  toStored: (key) => ({
    points: key.points,
    formula: key.formula,
    variables: key.variables.map((variable) => variableOf(variable)),
    tolerance: key.tolerance,
    toleranceType: key.toleranceType,
  }),
  record: (key) => ({
    points: key.points,
    formula: key.formula,
    variables: key.variables.map((variable) => variableOf(variable)),
    tolerance: key.tolerance,
    tolerance_type: key.toleranceType,
  }),
  warnings: pointsRule,
  maxPoints: (key) => Math.max(key.points, 0),
  points: (key, answer) => {
    if (!('number' in answer) || !drawFits(key, answer.values)) return 0;
    const right = rightFor(key, answer.values);
    return Number.isFinite(right) && withinTolerance(answer.number, right, allowed(key, right))
      ? key.points
      : 0;
  },
  answerKey: (key) =>
    JSON.stringify([key.type, key.points, key.formula, key.variables, key.tolerance, key.toleranceType]),
  // Each answer keeps its values: it can be marked again by any formula over the same names.
  answersCarryOver: (previous, next) => names(previous) === names(next),
  shufflesOptions: false,
  answerField: numberType.answerField,
  parseAnswer: (question, answer, lists, drawn) => {
    if (!drawFits(question, drawn)) {
      return {
        field: 'number',
        message:
          'a calculated question is answered through an attempt: start one, work out the answer for the numbers its text shows, and send it as number.',
      };
    }
    const read = numberType.parseAnswer(
      { id: question.id, type: 'number', points: 0, correctNumber: 0, tolerance: 0 },
      answer,
      lists,
    );
    return 'number' in read ? { ...read, values: drawn } : read;
  },
  formAnswer: (value) => ({ number: value }),
  valueSchema,
  storedAnswer: (question, choice) =>
    'number' in choice && drawFits(question, choice.values)
      ? {
          number: choice.number,
          written: choice.written ?? String(choice.number),
          values: { ...choice.values },
        }
      : undefined,
  statKeys: (value) => ({ statKey: null, statValue: '', statNum: value.number }),
  choiceOf: (value) => ({ number: value.number, written: value.written ?? undefined, values: value.values }),
  answerText: (value) => value.written,
  typedValue: (value) => ({ number: value ? value.number : null }),
  columns: (value) => ({ ...NO_ANSWER, text: value.written, number: value.number }),
  rightAnswers: (question) => [`${question.formula}${toleranceText(question)}`],
  drawing: {
    draw: (question) => drawValues(question.variables),
    text: (question, text, drawn) => fillText(text, question.variables, drawn),
    drawnOf: (value) => value.values,
    rightAnswers: (question, drawn) => {
      const right = rightFor(question, drawn);
      return Number.isFinite(right) ? [`${right}${toleranceText(question)}`] : [];
    },
  },
  analysisKeys: () => null,
  statistics: (_question, { rightCount, common }): StatisticsOf<typeof calculatedFields> => ({
    right_count: rightCount,
    common_values: common.map((entry) => ({ value: Number(entry.value), count: entry.count })),
  }),
  commonAnswers: 'number',
  answerIsTyped: true,
};
