import { z } from 'zod';
import { LIMITS } from '../../limits';
import { NO_ANSWER, type QuestionTypeDefinition } from '../definition';
import { optionsRule } from '../warnings';
import { exportedOptions, importedOptions } from '../importing';
import {
  checkOptionCount,
  formIndex,
  optionKeys,
  optionLabel,
  optionsKey,
  optionsKeySchema,
  optionsLimit,
  optionsRecord,
  optionStatistics,
  storedOptions,
  sameOptionCount,
  type OptionsRecord,
  type ScoredOptions,
} from '../options';

/**
 * Tick any options: the ticked options' scores summed, never below 0 (ticking none is an answer,
 * worth 0); the maximum is the sum of the positive scores.
 */
export interface MultipleSelectQuestion {
  id: string;
  type: 'multiple_select';
  options: ScoredOptions;
}

/** Between the ticked options' labels of an answer ("Red; Blue"), as spreadsheets show checkboxes. */
export const TICKED_LABELS_SEPARATOR = '; ';

/** Its answer as stored: the ticked indexes in the quiz's order, and their labels then, joined. */
const valueSchema = z.object({ optionIndexes: z.array(z.number().int()), label: z.string() });

export const multipleSelect: QuestionTypeDefinition<
  MultipleSelectQuestion,
  OptionsRecord,
  z.infer<typeof valueSchema>
> = {
  name: 'multiple_select',
  summary: 'multiple_select (tick any, scores summed, min 0)',
  guide: [
    `The respondent ticks any number of ${LIMITS.optionsMin}-${LIMITS.optionsMax} \`options\`, none included. The answer earns the sum`,
    'of the ticked scores, never below 0, and the maximum is the sum of the positive scores. Give every wrong',
    'option a negative score, or ticking everything earns full marks.',
  ],
  statisticsGuide: 'count each option',
  importing: { shape: 'many_choices', build: importedOptions },
  exporting: (record) => exportedOptions('many_choices', record),
  reference: {
    fields: `\`options\`: ${LIMITS.optionsMin}-${LIMITS.optionsMax} of \`{label, score}\``,
    marked: 'The sum of the ticked scores, never below 0; ticking none is an answer worth 0.',
    answer: '`choices`: option indexes, `[]` for none',
    limit: optionsLimit,
  },
  keyHint:
    'a multiple_select question marks each right option with a positive options[].score and each wrong one with a negative score, e.g. options: [{"label": "2", "score": 1}, {"label": "3", "score": 1}, {"label": "4", "score": -1}]',
  takes: ['options'],
  checkInput: checkOptionCount,
  fromInput: (input) => ({ type: 'multiple_select', options: input.options ?? [] }),
  keySchema: optionsKeySchema,
  toStored: storedOptions,
  record: optionsRecord,
  maxPoints: (key) => key.options.reduce((sum, option) => sum + Math.max(option.score, 0), 0),
  points: (key, answer) => {
    if (!('optionIndexes' in answer)) return 0;
    // Each option counts once, however often its index was sent.
    const ticked = [...new Set(answer.optionIndexes)];
    return Math.max(
      0,
      ticked.reduce((sum, index) => sum + (key.options[index]?.score ?? 0), 0),
    );
  },
  warnings: optionsRule,
  answerKey: (key) => optionsKey(key.type, key.options),
  answersCarryOver: (previous, next) => sameOptionCount(previous.options, next.options),
  shufflesOptions: true,
  answerField: {
    name: 'choices',
    schema: z
      .array(
        z
          .number({ error: 'choices holds option indexes: whole numbers, 0 for the first option' })
          .int({ error: 'choices holds option indexes: whole numbers, 0 for the first option' }),
        { error: 'choices must be an array of option indexes, [] for none' },
      )
      .max(LIMITS.optionsMax, { error: `choices takes at most ${LIMITS.optionsMax} indexes` }),
    help: 'choices (multiple_select)',
    description: 'multiple_select: the ticked options, by index; [] ticks none.',
    jsonSchema: { type: 'array', items: { type: 'integer', minimum: 0 }, uniqueItems: true },
  },
  parseAnswer: (question, answer) => {
    const count = question.options.length;
    const indexes = answer.choices;
    const fits = (index: number) => Number.isInteger(index) && index >= 0 && index < count;
    if (Array.isArray(indexes) && indexes.every(fits) && new Set(indexes).size === indexes.length) {
      return { optionIndexes: [...indexes].sort((a, b) => a - b) };
    }
    return {
      field: 'choices',
      message: `a multiple_select question takes choices: a list of distinct option indexes from 0 to ${count - 1} ([] ticks none).`,
    };
  },
  formAnswer: (value) => ({ choices: value === '' ? [] : value.split(',').map(formIndex) }),
  valueSchema,
  storedAnswer: (question, choice) => {
    if (!('optionIndexes' in choice)) return undefined;
    const labels = choice.optionIndexes.map((index) => question.options[index]?.label ?? '');
    return { optionIndexes: [...choice.optionIndexes], label: labels.join(TICKED_LABELS_SEPARATOR) };
  },
  // The ticked indexes as a JSON array: "[]" when none were ticked, which is an answer.
  statKeys: (value) => ({ statKey: JSON.stringify(value.optionIndexes), statValue: null, statNum: null }),
  choiceOf: (value) => ({ optionIndexes: value.optionIndexes }),
  answerText: (value) => value.label,
  typedValue: (value) => ({ choices: value ? value.optionIndexes : null }),
  columns: (value) => ({
    ...NO_ANSWER,
    choices: JSON.stringify(value.optionIndexes),
    optionLabel: value.label,
  }),
  rightAnswers: (question) =>
    question.options.filter((option) => option.score > 0).map((option) => option.label ?? ''),
  analysisKeys: (question) => ({
    keys: optionKeys(question),
    label: optionLabel,
    right: new Set(question.options.flatMap((option, index) => (option.score > 0 ? [String(index)] : []))),
  }),
  statistics: optionStatistics,
  commonAnswers: 'none',
  answerIsTyped: false,
};
