import { z } from 'zod';
import { comparableText, matchesAcceptedAnswer, TEXT_ANSWER_MAX } from '../../answer-text';
import { withAccepted } from '../accepted-answers';
import { LIMITS } from '../../limits';
import { NO_ANSWER, type QuestionTypeDefinition } from '../definition';
import { noPointsPossible } from '../warnings';
import { bestAnswers } from '../importing';
import type { StatisticsOf } from '../shared-fields';
import type { shortTextFields } from './fields';

/**
 * A typed answer: `points` when it matches an accepted answer (answer-text.ts); without accepted
 * answers the question only collects text, and its maximum is 0.
 */
export interface ShortTextQuestion {
  id: string;
  type: 'short_text';
  points: number;
  acceptedAnswers: readonly string[];
}

/** Its answer as stored: the text typed, trimmed. */
const valueSchema = z.object({ text: z.string() });

/** Its fields as the tools return them. */
export interface ShortTextRecord {
  points: number;
  accepted_answers: string[];
}

export const shortText: QuestionTypeDefinition<
  ShortTextQuestion,
  ShortTextRecord,
  z.infer<typeof valueSchema>
> = {
  name: 'short_text',
  summary: 'short_text (typed)',
  guide: [
    `The respondent types a short answer. It earns \`points\` when it equals one of \`accepted_answers\` (1-${LIMITS.acceptedAnswersMax}`,
    'strings), ignoring case and extra spaces. Accents count: "Peru" does not match "Perú", so list every',
    'spelling you accept. Without `accepted_answers` (and then without `points`) the question only collects',
    'text and scores nothing (for example "Any comments?").',
  ],
  statisticsGuide: 'give `right_count` and their most common answers',
  importing: {
    shape: 'text_answers',
    build: (source, score, lose) => {
      const { best, answers } = bestAnswers(source, lose);
      return {
        accepted_answers: answers.map((answer) => answer.text),
        points: score((source.grade * best) / 100),
      };
    },
  },
  exporting: (record) => ({
    shape: 'text_answers',
    grade: record.points,
    answers: record.accepted_answers.map((answer) => ({ text: answer, fraction: 100 })),
    unsaid:
      record.accepted_answers.length === 0 ? ['points (with no accepted answers it only collects text)'] : [],
  }),
  reference: {
    fields: '`accepted_answers` (optional), `points` (default 1)',
    marked:
      'The points when the text equals an accepted answer after Unicode NFC, lower case and trimmed, ' +
      'inner spaces collapsed; accents count. Without accepted answers it collects text and scores nothing.',
    answer: '`text`',
    limit: {
      bound: `1-${LIMITS.acceptedAnswersMax} accepted answers`,
      then: `each up to ${LIMITS.acceptedAnswerMax} characters, as is a typed answer`,
    },
  },
  keyHint:
    'a short_text question lists its right answers in accepted_answers, e.g. accepted_answers: ["Paris"]',
  takes: ['points', 'accepted_answers'],
  checkInput: () => undefined,
  fromInput: (input) => ({
    type: 'short_text',
    points: input.points ?? 1,
    acceptedAnswers: input.accepted_answers ?? [],
  }),
  // An empty list: the question collects text only.
  keySchema: z.object({ points: z.number(), acceptedAnswers: z.array(z.string()) }),
  toStored: (key) => ({ points: key.points, acceptedAnswers: [...key.acceptedAnswers] }),
  record: (key) => ({ points: key.points, accepted_answers: [...key.acceptedAnswers] }),
  maxPoints: (key) => (key.acceptedAnswers.length > 0 ? Math.max(key.points, 0) : 0),
  points: (key, answer) =>
    'text' in answer &&
    key.acceptedAnswers.length > 0 &&
    matchesAcceptedAnswer(answer.text, key.acceptedAnswers)
      ? key.points
      : 0,
  warnings: (record) =>
    // Without accepted answers the question only collects text, on purpose.
    record.accepted_answers.length === 0 || record.points > 0
      ? []
      : noPointsPossible('points', 'accepted answers are set but points is not above 0'),
  answerKey: (key) => {
    const accepted = [...new Set(key.acceptedAnswers.map(comparableText))].sort();
    return JSON.stringify([key.type, key.points, accepted]);
  },
  answersCarryOver: () => true,
  shufflesOptions: false,
  answerField: {
    name: 'text',
    schema: z
      .string({ error: 'text must be a string' })
      .max(TEXT_ANSWER_MAX * 2, { error: `text is too long: at most ${TEXT_ANSWER_MAX} characters` }),
    help: 'text (short_text)',
    description: 'short_text: the typed answer.',
    jsonSchema: { type: 'string', minLength: 1, maxLength: TEXT_ANSWER_MAX },
  },
  parseAnswer: (_question, answer) => {
    if (typeof answer.text !== 'string')
      return { field: 'text', message: 'a short_text question takes text: a string.' };
    const text = answer.text.trim();
    if (text === '')
      return { field: 'text', message: 'Type an answer, or leave the question out.', code: 'missing' };
    if (text.length > TEXT_ANSWER_MAX) {
      return {
        field: 'text',
        message: `Use at most ${TEXT_ANSWER_MAX} characters (got ${text.length}).`,
        code: 'too_long',
        params: { max: TEXT_ANSWER_MAX },
      };
    }
    return { text };
  },
  formAnswer: (value) => ({ text: value }),
  valueSchema,
  storedAnswer: (_question, choice) => ('text' in choice ? { text: choice.text } : undefined),
  // No bounded set of answers: counted by its mark, and by its text among the common answers.
  statKeys: (value) => ({ statKey: null, statValue: value.text, statNum: 0 }),
  choiceOf: (value) => ({ text: value.text }),
  answerText: (value) => value.text,
  typedValue: (value) => ({ text_answer: value ? value.text : null }),
  columns: (value) => ({ ...NO_ANSWER, text: value.text }),
  rightAnswers: (question) => [...question.acceptedAnswers],
  analysisKeys: () => null,
  statistics: (question, { rightCount, common }): StatisticsOf<typeof shortTextFields> => ({
    // Without accepted answers it collects text: none is right or wrong.
    right_count: question.acceptedAnswers.length > 0 ? rightCount : null,
    common_answers: common.map((entry) => ({ answer: String(entry.value), count: entry.count })),
  }),
  commonAnswers: 'text',
  answerIsTyped: true,
  accepting: {
    // Without accepted answers it only collects text: nothing to accept into.
    unaccepted: (key, value) =>
      key.acceptedAnswers.length > 0 && !matchesAcceptedAnswer(value.text, key.acceptedAnswers)
        ? [{ part: null, text: value.text }]
        : [],
    add: (key, part, text) => {
      if (part !== null || key.acceptedAnswers.length === 0)
        return { problem: 'this question takes no accepted answer there' };
      const added = withAccepted(key.acceptedAnswers, text);
      return 'problem' in added ? added : { key: { ...key, acceptedAnswers: added.accepted } };
    },
  },
};
