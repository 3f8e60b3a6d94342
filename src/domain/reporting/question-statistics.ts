import type { DomainDeps } from '../deps';
import type { QuestionRow, QuizWithQuestions, ResultRows } from '../../db/repositories';
import { comparableText } from '../answer-text';
import {
  blankFigures,
  optionsOf,
  pairFigures,
  positionFigures,
  scaleFigures,
  storedDefinition,
  toScorable,
} from '../question-types';
import { questionMaxPoints } from '../scoring';
import { itemFiguresOf, round2, type ItemFigures } from './result-figures';

/** How many of a typed question's most frequent answers the statistics list. */
export const COMMON_ANSWERS_SHOWN = 5;
// Texts are read grouped as typed, then merged as compared ("Lima" and "lima " are one answer):
// read more than are shown, so that merging rarely misses one of the most common.
const COMMON_TEXTS_READ = 50;

/** Typed answers merged as they are compared, most common first. */
function mergedTexts(groups: ReadonlyArray<{ value: string | number; count: number }>) {
  const merged = new Map<string, { answer: string; count: number }>();
  for (const group of groups) {
    const key = comparableText(String(group.value));
    const entry = merged.get(key);
    if (entry) entry.count += group.count;
    else merged.set(key, { answer: String(group.value), count: group.count });
  }
  return [...merged.values()].sort((a, b) => b.count - a.count).slice(0, COMMON_ANSWERS_SHOWN);
}

const shares = (values: number[] | null) => (values === null ? null : values.map((value) => round2(value)!));

/**
 * Per-question statistics and item analysis for the quiz's current questions, from the running
 * figures (a few rows per question, whatever the number of responses), and for typed questions
 * the few most common answers. A question's figures count every response shown it, in any
 * version that kept its id; responses to earlier versions answered other question ids, so they
 * count in the summary but not here.
 */
export async function getQuestionStatistics(
  { repos }: DomainDeps,
  quiz: QuizWithQuestions,
  rows: ResultRows,
  /** False skips the typed questions' most common answers (the item analysis shows none). */
  withCommonAnswers = true,
) {
  const typed = withCommonAnswers
    ? quiz.questions.filter((q) => storedDefinition(q.type).commonAnswers !== 'none')
    : [];
  const common = await Promise.all(
    typed.map((question) =>
      storedDefinition(question.type).commonAnswers === 'number'
        ? repos.responses.commonAnswers(quiz.id, question.id, 'number', COMMON_ANSWERS_SHOWN)
        : repos.responses.commonAnswers(quiz.id, question.id, 'text', COMMON_TEXTS_READ),
    ),
  );
  const commonById = new Map(typed.map((question, index) => [question.id, common[index]!]));
  // Answers waiting for a final grade are left out of the figures, and counted here.
  const ungraded = new Map((rows.ungraded ?? []).map((row) => [row.questionId, row.count]));
  const byQuestion = new Map<string, Array<ResultRows['items'][number]>>();
  for (const row of rows.items) {
    const list = byQuestion.get(row.questionId) ?? [];
    byQuestion.set(row.questionId, list);
    list.push(row);
  }
  return quiz.questions.map((question) =>
    statisticsOf(
      question,
      itemFiguresOf(question, byQuestion.get(question.id) ?? []),
      commonById.get(question.id) ?? [],
      ungraded.get(question.id) ?? 0,
    ),
  );
}

function statisticsOf(
  question: QuestionRow,
  figures: ItemFigures,
  common: ReadonlyArray<{ value: string | number; count: number }>,
  /** Its answers waiting for a final grade, which the figures leave out. */
  pending: number,
) {
  const base = {
    question_id: question.id,
    text: question.text,
    answered_count: figures.answered,
    // Per response that was shown the question; an unanswered question earned 0.
    average_points: figures.seen === 0 ? null : round2(figures.points / figures.seen),
    facility: round2(figures.facility),
    discrimination: round2(figures.discrimination),
    top_shares: shares(figures.topShares),
    bottom_shares: shares(figures.bottomShares),
    flags: figures.flags,
  };
  const count = (key: string) => figures.counts.get(key) ?? 0;
  const options = () =>
    optionsOf(question).map((option, index) => ({
      label: option.label,
      score: option.score,
      count: count(String(index)),
    }));
  // Null when the question cannot be answered right (it scores nothing).
  const key = toScorable(question);
  const rightCount = questionMaxPoints(key) > 0 ? count('right') : null;
  // Every type with options is counted per option, the same way.
  if ('options' in key) return { ...base, type: key.type, options: options() };
  switch (key.type) {
    case 'yes_no':
      return {
        ...base,
        type: 'yes_no' as const,
        yes_count: count('yes'),
        no_count: count('no'),
        correct_answer: key.correctAnswer ?? 'yes',
      };
    case 'short_text':
      return {
        ...base,
        type: 'short_text' as const,
        right_count: key.acceptedAnswers.length > 0 ? rightCount : null,
        common_answers: mergedTexts(common),
      };
    case 'number':
      return {
        ...base,
        type: 'number' as const,
        right_count: rightCount,
        common_values: common.map((entry) => ({ value: Number(entry.value), count: entry.count })),
      };
    case 'ordering': {
      // Counted by the order chosen (its running figures); per position from those counts.
      const positions = positionFigures(key, figures.counts);
      const whole = [...figures.counts].find(
        ([order]) => order === `o:${key.items.map((_, i) => i).join(',')}`,
      );
      return {
        ...base,
        type: 'ordering' as const,
        right_count: whole?.[1] ?? 0,
        positions: positions.map((position) => ({ ...position, right_share: round2(position.right_share) })),
      };
    }
    case 'fill_in_blanks':
      // Counted by the blanks given (its running figures); per blank from those counts.
      return {
        ...base,
        type: 'fill_in_blanks' as const,
        blanks: blankFigures(key, figures.counts).map((blank) => ({
          ...blank,
          right_share: round2(blank.right_share),
        })),
      };
    case 'matching': {
      // Counted by the matches chosen (its running figures); per pair from those counts.
      const { right_count, pairs } = pairFigures(key, figures.counts);
      return {
        ...base,
        type: 'matching' as const,
        right_count,
        pairs: pairs.map((pair) => ({ ...pair, right_share: round2(pair.right_share) })),
      };
    }
    case 'scale':
      // From the counts per value, like the choices: flat in the number of responses.
      return { ...base, type: 'scale' as const, ...scaleFigures(key, count) };
    case 'essay':
      // Counted by their final grade, above 0 or not; answers still waiting are left out, and counted.
      return { ...base, type: 'essay' as const, right_count: rightCount, pending_count: pending };
  }
}

export type QuestionStatistics = ReturnType<typeof statisticsOf>;
