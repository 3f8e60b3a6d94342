import { z } from 'zod';
import { LIMITS } from '../../limits';
import { NO_ANSWER, type QuestionTypeDefinition } from '../definition';
import type { StatisticsOf } from '../shared-fields';
import type { scaleFields } from './fields';

/**
 * An opinion scale: the respondent picks a whole number from `min` (0 or 1) to `max` (2 to 10),
 * the ends optionally labelled. It asks an opinion, so it is unscored: its maximum is 0, and it
 * stays out of the score and the item analysis. From 0 to 10 it is a Net Promoter question.
 */
export interface ScaleQuestion {
  id: string;
  type: 'scale';
  min: number;
  max: number;
  /** The words of the lowest and highest ends, "" for none. */
  labels: readonly [string, string];
}

/** Its answer as stored: the value picked. */
const valueSchema = z.object({ value: z.number().int() });

/** Its fields as the tools return them. */
export interface ScaleRecord {
  scale_min: number;
  scale_max: number;
  scale_labels: string[];
}

const DEFAULT_MIN = 1;

/** Promoters answer 9 or 10 and detractors 0 to 6, on a scale from 0 to 10 only. */
const NET_PROMOTER = { min: 0, max: 10, promoterFrom: 9, detractorTo: 6 } as const;

const range = (question: { min: number; max: number }) => `${question.min} to ${question.max}`;

/** A whole number from a JSON number or a form's string; null for anything else. */
function wholeNumber(value: unknown): number | null {
  if (typeof value === 'number') return Number.isInteger(value) ? value : null;
  if (typeof value === 'string' && /^\s*-?\d{1,3}\s*$/.test(value)) return Number(value);
  return null;
}

export const scale: QuestionTypeDefinition<ScaleQuestion, ScaleRecord, z.infer<typeof valueSchema>> = {
  name: 'scale',
  summary: 'scale (unscored)',
  guide: [
    `The respondent picks a whole number from \`scale_min\` (${LIMITS.scaleMinLowest} or ${LIMITS.scaleMinHighest}, default ${DEFAULT_MIN}) to \`scale_max\``,
    `(${LIMITS.scaleMaxLowest} to ${LIMITS.scaleMaxHighest}). \`scale_labels\` names the two ends, lowest first ("" leaves one unnamed):`,
    '`["Not at all likely", "Extremely likely"]`. It asks an opinion, so it earns no points and takes no `points`: a quiz of scales',
    'alone has no score. get_results gives its distribution, mean and median, and from 0 to 10 the Net',
    'Promoter score (promoters 9-10 minus detractors 0-6, as a percent of the answers).',
  ],
  statisticsGuide:
    'give their `distribution` per value, `mean` and `median`, and from 0 to 10 `net_promoter` (score and counts)',
  importing: {
    shape: 'rating',
    // A rating keeps its range; the words at its ends are not in any import format we read.
    build: (source) => (source.range ? { scale_min: source.range.min, scale_max: source.range.max } : {}),
  },
  exporting: (record) => ({
    shape: 'rating',
    grade: 0,
    answers: [],
    range: { min: record.scale_min, max: record.scale_max },
    unsaid: record.scale_labels.some((label) => label !== '') ? ["scale_labels (the ends' words)"] : [],
  }),
  reference: {
    fields: `\`scale_max\` (${LIMITS.scaleMaxLowest}-${LIMITS.scaleMaxHighest}), \`scale_min\` (${LIMITS.scaleMinLowest} or ${LIMITS.scaleMinHighest}, default ${DEFAULT_MIN}), \`scale_labels\` (the two ends' words, optional)`,
    marked:
      'Not marked: an opinion, worth 0 and out of the score. Counted per value, with the mean, the median and, from 0 to 10, the Net Promoter score.',
    answer: '`value`: a whole number within the scale',
    limit: {
      bound: `${LIMITS.scaleMinLowest}-${LIMITS.scaleMaxHighest} as the range`,
      then: `each end's words up to ${LIMITS.scaleLabelMax} characters`,
    },
  },
  keyHint: 'a scale question takes its range in scale_min and scale_max, e.g. scale_min: 0, scale_max: 10',
  takes: ['scale_min', 'scale_max', 'scale_labels'],
  checkInput: (input, issue) => {
    if (input.scale_max === undefined) {
      issue(
        'scale_max',
        `a scale question needs scale_max: its highest value, ${LIMITS.scaleMaxLowest} to ${LIMITS.scaleMaxHighest}`,
        'missing',
      );
    }
  },
  fromInput: (input) => ({
    type: 'scale',
    min: input.scale_min ?? DEFAULT_MIN,
    max: input.scale_max ?? LIMITS.scaleMaxLowest,
    labels: [input.scale_labels?.[0] ?? '', input.scale_labels?.[1] ?? ''],
  }),
  keySchema: z.object({
    min: z.number().int(),
    max: z.number().int(),
    labels: z.tuple([z.string(), z.string()]),
  }),
  toStored: (key) => ({ min: key.min, max: key.max, labels: key.labels }),
  record: (key) => ({ scale_min: key.min, scale_max: key.max, scale_labels: [...key.labels] }),
  // Unscored by design, so no "nobody can earn points" warning either.
  warnings: () => [],
  maxPoints: () => 0,
  points: () => 0,
  unscored: () => true,
  // The labels decide no marks; the range decides which answers stand.
  answerKey: (key) => JSON.stringify([key.type, key.min, key.max]),
  answersCarryOver: (previous, next) => previous.min >= next.min && previous.max <= next.max,
  shufflesOptions: false,
  answerField: {
    name: 'value',
    schema: z
      .number({ error: 'value must be a whole number within the scale' })
      .int({ error: 'value must be a whole number within the scale' }),
    help: 'value (a whole number, scale)',
    description: 'value: the whole number picked on a scale, from its scale_min to its scale_max.',
    jsonSchema: { type: 'integer' },
  },
  parseAnswer: (question, answer) => {
    const value = wholeNumber(answer.value);
    if (value === null || value < question.min || value > question.max) {
      return {
        field: 'value',
        message: `a scale question takes value: a whole number from ${range(question)}.`,
      };
    }
    return { value };
  },
  formAnswer: (value) => ({ value }),
  valueSchema,
  storedAnswer: (_question, choice) => ('value' in choice ? { value: choice.value } : undefined),
  // A bounded set of answers: each value is counted under its own key (the distribution).
  statKeys: (value) => ({ statKey: String(value.value), statValue: null, statNum: null }),
  choiceOf: (value) => ({ value: value.value }),
  answerText: (value) => String(value.value),
  typedValue: (value) => ({ value: value ? value.value : null }),
  columns: (value) => ({ ...NO_ANSWER, number: value.value }),
  respondentFields: (question) => ({
    scale_min: question.min,
    scale_max: question.max,
    scale_labels: [...question.labels],
  }),
  rightAnswers: () => [],
  // Out of the item analysis: there is no right answer to share out.
  analysisKeys: () => null,
  // From the counts per value, like the choices: flat in the number of responses.
  statistics: (question, { count }): StatisticsOf<typeof scaleFields> => scaleFigures(question, count),
  commonAnswers: 'none',
  answerIsTyped: false,
};

/** Its figures from the running counts per value: flat in the number of responses. */
export interface ScaleFigures {
  distribution: Array<{ value: number; count: number }>;
  mean: number | null;
  median: number | null;
  /** From 0 to 10 only: promoters minus detractors, as a whole percent of the answers. */
  net_promoter: { score: number | null; promoters: number; passives: number; detractors: number } | null;
}

export function scaleFigures(question: ScaleQuestion, count: (key: string) => number): ScaleFigures {
  const distribution: ScaleFigures['distribution'] = [];
  for (let value = question.min; value <= question.max; value++) {
    distribution.push({ value, count: count(String(value)) });
  }
  const answered = distribution.reduce((sum, entry) => sum + entry.count, 0);
  const sum = distribution.reduce((total, entry) => total + entry.value * entry.count, 0);
  const valueAt = (rank: number) => {
    let seen = 0;
    for (const entry of distribution) {
      seen += entry.count;
      if (seen > rank) return entry.value;
    }
    return question.max;
  };
  const median =
    answered === 0 ? null : (valueAt(Math.floor((answered - 1) / 2)) + valueAt(Math.floor(answered / 2))) / 2;
  const isNetPromoter = question.min === NET_PROMOTER.min && question.max === NET_PROMOTER.max;
  const counted = (keep: (value: number) => boolean) =>
    distribution.filter((entry) => keep(entry.value)).reduce((total, entry) => total + entry.count, 0);
  const promoters = counted((value) => value >= NET_PROMOTER.promoterFrom);
  const detractors = counted((value) => value <= NET_PROMOTER.detractorTo);
  return {
    distribution,
    mean: answered === 0 ? null : Math.round((100 * sum) / answered) / 100,
    median,
    net_promoter: isNetPromoter
      ? {
          score: answered === 0 ? null : Math.round((100 * (promoters - detractors)) / answered),
          promoters,
          passives: answered - promoters - detractors,
          detractors,
        }
      : null,
  };
}
