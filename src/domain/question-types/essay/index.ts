import { z } from 'zod';
import { LIMITS } from '../../limits';
import { NO_ANSWER, type AnswerProblem, type Choice, type QuestionTypeDefinition } from '../definition';
import { noPointsPossible } from '../warnings';
import type { StatisticsOf } from '../shared-fields';
import type { essayFields } from './fields';

/**
 * A long answer, graded by a person (or proposed by the owner's assistant and approved by one):
 * no rule marks it, so a submitted essay waits as `pending` until its grade is final
 * (domain/grading/grade-answers.ts). A rubric of criteria, each with its levels' points, sets
 * its maximum (the sum of each criterion's top level); without one, `points` is the maximum.
 */
export interface EssayCriterion {
  criterion: string;
  levels: ReadonlyArray<{ label: string; points: number }>;
}

export interface EssayQuestion {
  id: string;
  type: 'essay';
  points: number;
  rubric: readonly EssayCriterion[];
  minWords: number | null;
  maxWords: number | null;
}

/** Its answer as stored: the text written, trimmed. */
const valueSchema = z.object({ text: z.string() });

/** Its fields as the tools return them. */
export interface EssayRecord {
  points: number;
  rubric: Array<{ criterion: string; levels: Array<{ label: string; points: number }> }>;
  min_words: number | null;
  max_words: number | null;
}

/** Words as a reader counts them: runs of letters, digits or marks between spaces. */
export function wordCount(text: string): number {
  const trimmed = text.trim();
  return trimmed === '' ? 0 : trimmed.split(/\s+/u).length;
}

/** The most an essay can earn: the sum of each criterion's top level, else its points. */
export function essayMaximum(key: Pick<EssayQuestion, 'points' | 'rubric'>): number {
  if (key.rubric.length === 0) return Math.max(key.points, 0);
  return key.rubric.reduce(
    (sum, criterion) => sum + Math.max(0, ...criterion.levels.map((level) => level.points)),
    0,
  );
}

const CriterionSchema = z.object({
  criterion: z.string(),
  levels: z.array(z.object({ label: z.string(), points: z.number().int() })),
});

export const essay: QuestionTypeDefinition<EssayQuestion, EssayRecord, z.infer<typeof valueSchema>> = {
  name: 'essay',
  summary: 'essay (graded by hand)',
  // Without a rubric the source's grade is its points; a rubric's levels go through the same rule.
  importing: {
    shape: 'open',
    build: (source, score) => {
      const rubric = source.essay?.rubric ?? [];
      const words = {
        ...(source.essay?.minWords ? { min_words: source.essay.minWords } : {}),
        ...(source.essay?.maxWords ? { max_words: source.essay.maxWords } : {}),
      };
      if (rubric.length === 0) return { points: score(source.grade), ...words };
      return {
        rubric: rubric.map((criterion) => ({
          criterion: criterion.criterion,
          levels: criterion.levels.map((level) => ({ label: level.label, points: score(level.points) })),
        })),
        ...words,
      };
    },
  },
  exporting: (record) => ({
    shape: 'open',
    grade: essayMaximum(record),
    answers: [],
    essay: {
      minWords: record.min_words,
      maxWords: record.max_words,
      rubric: record.rubric.map((criterion) => ({
        criterion: criterion.criterion,
        levels: criterion.levels.map((level) => ({ ...level })),
      })),
    },
    unsaid: [],
  }),
  guide: [
    `The respondent writes up to ${LIMITS.essayTextMax} characters, between \`min_words\` and \`max_words\` when set.`,
    `No rule marks it: a \`rubric\` of 1-${LIMITS.rubricCriteriaMax} \`{criterion, levels}\`, each with ${LIMITS.rubricLevelsMin}-${LIMITS.rubricLevelsMax}`,
    '`levels` `{label, points}` (lowest first, e.g. "no thesis" 0, "clear thesis" 2), sets its maximum: the sum of each',
    "criterion's top level. Without a rubric, `points` is its maximum. A response with an essay stays pending until",
    'graded: get_answers_to_grade and grade_answers propose grades, and the teacher approves them on the web.',
  ],
  statisticsGuide: 'give `right_count` (answers graded above 0)',
  reference: {
    fields:
      '`rubric` (optional: criteria with their levels), `points` (without a rubric, default 1), `min_words`, `max_words`',
    marked:
      "Graded by the teacher, or proposed by the assistant and approved: the response is pending until then. Its maximum is the sum of each criterion's top level, else `points`.",
    answer: '`text`: up to 10,000 characters',
    limit: {
      bound: `1-${LIMITS.rubricCriteriaMax} rubric criteria of ${LIMITS.rubricLevelsMin}-${LIMITS.rubricLevelsMax} levels`,
      then: `each level 0-${LIMITS.pointsMax} points`,
    },
  },
  keyHint:
    'an essay question is graded by hand: give a rubric, e.g. rubric: [{ criterion: "Thesis", levels: [{ label: "none", points: 0 }, { label: "clear", points: 2 }] }], or points',
  takes: ['points', 'rubric', 'min_words', 'max_words'],
  checkInput: (input, issue) => {
    if (input.rubric !== undefined && input.rubric.length > 0 && input.points !== undefined) {
      issue(
        'points',
        "an essay with a rubric takes its maximum from the rubric (each criterion's top level): remove points",
        'invalid',
      );
    }
    if (input.min_words !== undefined && input.max_words !== undefined && input.min_words > input.max_words) {
      issue('max_words', `max_words must be at least min_words (${input.min_words})`, 'too_small', {
        min: input.min_words,
      });
    }
  },
  fromInput: (input) => ({
    type: 'essay',
    points: input.rubric && input.rubric.length > 0 ? 0 : (input.points ?? 1),
    rubric: (input.rubric ?? []).map((criterion) => ({
      criterion: criterion.criterion,
      levels: criterion.levels.map((level) => ({ label: level.label, points: level.points })),
    })),
    minWords: input.min_words ?? null,
    maxWords: input.max_words ?? null,
  }),
  keySchema: z.object({
    points: z.number().int(),
    rubric: z.array(CriterionSchema),
    minWords: z.number().int().nullable(),
    maxWords: z.number().int().nullable(),
  }),
  toStored: (key) => ({
    points: key.points,
    rubric: key.rubric.map((criterion) => ({
      criterion: criterion.criterion,
      levels: [...criterion.levels],
    })),
    minWords: key.minWords,
    maxWords: key.maxWords,
  }),
  record: (key) => ({
    points: key.points,
    rubric: key.rubric.map((criterion) => ({
      criterion: criterion.criterion,
      levels: criterion.levels.map((level) => ({ ...level })),
    })),
    min_words: key.minWords,
    max_words: key.maxWords,
  }),
  warnings: (record) =>
    essayMaximum({ points: record.points, rubric: record.rubric }) > 0
      ? []
      : noPointsPossible(
          record.rubric.length > 0 ? 'rubric' : 'points',
          'no grade can give this essay any points',
        ),
  maxPoints: (key) => essayMaximum(key),
  // Never marked by a rule: its points come from its grade (domain/grading/grade-answers.ts).
  points: () => 0,
  gradedByHand: true,
  answerKey: (key) =>
    JSON.stringify([
      key.type,
      essayMaximum(key),
      key.rubric.map((criterion) => criterion.levels.map((l) => l.points)),
    ]),
  // Grades stay with their answers: a new rubric is for the answers still to grade.
  answersCarryOver: () => true,
  shufflesOptions: false,
  answerField: {
    name: 'text',
    schema: z
      .string({ error: 'text must be a string' })
      .max(LIMITS.essayTextMax * 2, { error: `text is too long: at most ${LIMITS.essayTextMax} characters` }),
    help: 'text (a typed answer or an essay)',
    description: 'The text typed: a short answer, or the essay written.',
    jsonSchema: { type: 'string', minLength: 1, maxLength: LIMITS.essayTextMax },
  },
  parseAnswer: (question, answer): Choice | AnswerProblem => {
    if (typeof answer.text !== 'string')
      return { field: 'text', message: 'an essay question takes text: a string.' };
    const text = answer.text.trim();
    if (text === '')
      return { field: 'text', message: 'Write an answer, or leave the question out.', code: 'missing' };
    if (text.length > LIMITS.essayTextMax) {
      return {
        field: 'text',
        message: `Use at most ${LIMITS.essayTextMax} characters (got ${text.length}).`,
        code: 'too_long',
        params: { max: LIMITS.essayTextMax },
      };
    }
    const words = wordCount(text);
    if (question.minWords !== null && words < question.minWords) {
      return {
        field: 'text',
        message: `Write at least ${question.minWords} words (got ${words}).`,
        code: 'too_few',
        params: { min: question.minWords, got: words },
      };
    }
    if (question.maxWords !== null && words > question.maxWords) {
      return {
        field: 'text',
        message: `Write at most ${question.maxWords} words (got ${words}).`,
        code: 'too_many',
        params: { max: question.maxWords },
      };
    }
    return { text };
  },
  formAnswer: (value) => ({ text: value }),
  valueSchema,
  storedAnswer: (_question, choice) => ('text' in choice ? { text: choice.text } : undefined),
  // Counted by its mark (graded above 0 or not); an essay is no common answer.
  statKeys: () => ({ statKey: null, statValue: null, statNum: null }),
  choiceOf: (value) => ({ text: value.text }),
  answerText: (value) => value.text,
  typedValue: (value) => ({ text_answer: value ? value.text : null }),
  columns: (value) => ({ ...NO_ANSWER, text: value.text }),
  respondentFields: (question) => ({
    ...(question.minWords !== null ? { min_words: question.minWords } : {}),
    ...(question.maxWords !== null ? { max_words: question.maxWords } : {}),
  }),
  rightAnswers: () => [],
  analysisKeys: () => null,
  // Counted by their final grade, above 0 or not; answers still waiting are left out, and counted.
  statistics: (_question, { rightCount, pending }): StatisticsOf<typeof essayFields> => ({
    right_count: rightCount,
    pending_count: pending,
  }),
  commonAnswers: 'none',
  answerIsTyped: true,
};
