import type { DomainDeps } from '../deps';
import type { QuestionRow, QuizWithQuestions, ResultRows } from '../../db/repositories';
import { comparableText } from '../answer-text';
import { definitionOf, storedDefinition, toScorable, type StatisticsFigures } from '../question-types';
import type { TypeStatistics } from '../question-types/merge-fields';
import { questionMaxPoints } from '../scoring';
import { itemFiguresOf, round2, type ItemFigures } from './result-figures';

/** How many of a typed question's most frequent answers the statistics list. */
export const COMMON_ANSWERS_SHOWN = 5;
// Texts are read grouped as typed, then merged as compared ("Lima" and "lima " are one answer):
// read more than are shown, so that merging rarely misses one of the most common.
const COMMON_TEXTS_READ = 50;

/** Typed answers merged as they are compared, most common first. */
function mergedTexts(groups: ReadonlyArray<{ value: string | number; count: number }>) {
  const merged = new Map<string, { value: string; count: number }>();
  for (const group of groups) {
    const key = comparableText(String(group.value));
    const entry = merged.get(key);
    if (entry) entry.count += group.count;
    else merged.set(key, { value: String(group.value), count: group.count });
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
        : repos.responses.commonAnswers(quiz.id, question.id, 'text', COMMON_TEXTS_READ).then(mergedTexts),
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
  // Null when the question cannot be answered right (it scores nothing).
  const key = toScorable(question);
  const typeFigures: StatisticsFigures = {
    count: (countKey) => figures.counts.get(countKey) ?? 0,
    counts: figures.counts,
    rightCount: questionMaxPoints(key) > 0 ? (figures.counts.get('right') ?? 0) : null,
    common,
    pending,
    round: round2,
  };
  // Each type's own figures (its rule `statistics`), shaped as its fields.ts says.
  return {
    ...base,
    type: key.type,
    ...definitionOf(key.type).statistics(key, typeFigures),
  } as typeof base & TypeStatistics;
}

export type QuestionStatistics = ReturnType<typeof statisticsOf>;
