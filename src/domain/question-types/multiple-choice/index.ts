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

/** Pick one option: it earns its score; the maximum is the highest option score. */
export interface MultipleChoiceQuestion {
  id: string;
  type: 'multiple_choice';
  options: ScoredOptions;
}

/** Its answer as stored: the option's index in the quiz's order, and its label then (null past the end). */
const valueSchema = z.object({ optionIndex: z.number().int(), label: z.string().nullable() });

export const multipleChoice: QuestionTypeDefinition<
  MultipleChoiceQuestion,
  OptionsRecord,
  z.infer<typeof valueSchema>
> = {
  name: 'multiple_choice',
  summary: 'multiple_choice (pick one)',
  guide: [
    `The respondent picks exactly one of ${LIMITS.optionsMin}-${LIMITS.optionsMax} \`options\`, each a \`label\` with the \`score\` it earns`,
    '(default 0). Give the right option the points and the distractors 0; a negative score penalises a guess.',
    'Make distractors plausible and of similar length, and avoid "all of the above".',
  ],
  statisticsGuide: 'count each option',
  fromMaterial: { tip: 'one right option scoring points, plausible wrong options scoring 0.' },
  importing: { shape: 'one_choice', build: importedOptions },
  exporting: (record) => exportedOptions('one_choice', record),
  reference: {
    fields: `\`options\`: ${LIMITS.optionsMin}-${LIMITS.optionsMax} of \`{label, score}\``,
    marked: "The chosen option's score.",
    answer: '`option_index`, from 0',
    limit: optionsLimit,
  },
  keyHint:
    'a multiple_choice question marks its right option with options[].score, e.g. options: [{"label": "Rome", "score": 1}, {"label": "Milan", "score": 0}]',
  takes: ['options'],
  checkInput: checkOptionCount,
  fromInput: (input) => ({ type: 'multiple_choice', options: input.options ?? [] }),
  keySchema: optionsKeySchema,
  toStored: storedOptions,
  record: optionsRecord,
  maxPoints: (key) => key.options.reduce((max, option) => Math.max(max, option.score), -Infinity),
  points: (key, answer) => ('optionIndex' in answer ? (key.options[answer.optionIndex]?.score ?? 0) : 0),
  warnings: optionsRule,
  answerKey: (key) => optionsKey(key.type, key.options),
  answersCarryOver: (previous, next) => sameOptionCount(previous.options, next.options),
  shufflesOptions: true,
  answerField: {
    name: 'option_index',
    schema: z
      .number({ error: 'option_index must be a whole number: 0 for the first option' })
      .int({ error: 'option_index must be a whole number: 0 for the first option' })
      .min(0, { error: 'option_index counts from 0' }),
    help: 'option_index (multiple_choice)',
    jsonSchema: { type: 'integer', minimum: 0 },
  },
  parseAnswer: (question, answer) => {
    const count = question.options.length;
    const index = answer.option_index;
    if (index !== undefined && Number.isInteger(index) && index >= 0 && index < count) {
      return { optionIndex: index };
    }
    return {
      field: 'option_index',
      message: `a multiple_choice question takes option_index from 0 to ${count - 1}.`,
    };
  },
  formAnswer: (value) => ({ option_index: formIndex(value) }),
  valueSchema,
  storedAnswer: (question, choice) =>
    'optionIndex' in choice
      ? { optionIndex: choice.optionIndex, label: question.options[choice.optionIndex]?.label ?? null }
      : undefined,
  statKeys: (value) => ({ statKey: String(value.optionIndex), statValue: null, statNum: null }),
  choiceOf: (value) => ({ optionIndex: value.optionIndex }),
  answerText: (value) => value.label,
  typedValue: () => ({}),
  columns: (value) => ({ ...NO_ANSWER, optionIndex: value.optionIndex, optionLabel: value.label }),
  rightAnswers: (question) => {
    const best = Math.max(...question.options.map((option) => option.score));
    return question.options.filter((option) => option.score === best).map((option) => option.label ?? '');
  },
  analysisKeys: (question) => {
    const scores = question.options.map((option) => option.score);
    const best = Math.max(...scores);
    return {
      keys: optionKeys(question),
      label: optionLabel,
      right: new Set(scores.flatMap((score, index) => (score === best && best > 0 ? [String(index)] : []))),
    };
  },
  statistics: optionStatistics,
  commonAnswers: 'none',
  answerIsTyped: false,
};
