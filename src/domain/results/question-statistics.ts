import type { DomainDeps } from '../deps';
import type { QuestionRow, QuizWithQuestions } from '../../db/repositories';
import { comparableText } from '../answer-text';
import { acceptedAnswersOf, correctAnswerOf, toScorable } from '../quiz-records';
import { questionMaxPoints } from '../scoring';
import { tickedIndexes } from '../stored-answer';

const round2 = (value: number): number => Math.round(value * 100) / 100;

/** How many of a typed question's most frequent answers the statistics list. */
export const COMMON_ANSWERS_SHOWN = 5;
// Texts are read grouped as typed, then merged as compared ("Lima" and "lima " are one answer):
// read more than are shown, so that merging rarely misses one of the most common.
const COMMON_TEXTS_READ = 50;

interface Tally {
  /** Stored answer rows, answered or not: every response stores one per question it was shown. */
  seen: number;
  answered: number;
  /** Answers that earned points (typed questions). */
  right: number;
  points: number;
  yes: number;
  no: number;
  options: Map<number, number>;
}

const emptyTally = (): Tally => ({
  seen: 0,
  answered: 0,
  right: 0,
  points: 0,
  yes: 0,
  no: 0,
  options: new Map(),
});

const addOption = (tally: Tally, index: number, count: number) =>
  tally.options.set(index, (tally.options.get(index) ?? 0) + count);

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

/**
 * Per-question statistics for the quiz's current questions. The database groups the answer rows
 * (for choice questions one group per choice, for typed ones one per mark, whatever the number of
 * responses); only the groups come back, and for typed questions the few most common answers.
 * Responses to earlier versions answered other question ids, so they count in the summary but
 * not here: their questions no longer exist.
 */
export async function getQuestionStatistics({ repos }: DomainDeps, quiz: QuizWithQuestions) {
  const typed = quiz.questions.filter((q) => q.type === 'short_text' || q.type === 'number');
  const [groups, common] = await Promise.all([
    repos.responses.answerGroups(
      quiz.id,
      quiz.questions.map((question) => question.id),
    ),
    Promise.all(
      typed.map((question) =>
        question.type === 'number'
          ? repos.responses.commonAnswers(quiz.id, question.id, 'number', COMMON_ANSWERS_SHOWN)
          : repos.responses.commonAnswers(quiz.id, question.id, 'text', COMMON_TEXTS_READ),
      ),
    ),
  ]);
  const commonById = new Map(typed.map((question, index) => [question.id, common[index]!]));
  const tallies = new Map<string, Tally>();
  for (const group of groups) {
    const tally = tallies.get(group.questionId) ?? emptyTally();
    tallies.set(group.questionId, tally);
    const count = group.count;
    tally.seen += count;
    tally.points += group.points;
    if (group.choice === 'yes') tally.yes += count;
    if (group.choice === 'no') tally.no += count;
    if (group.optionIndex !== null) addOption(tally, group.optionIndex, count);
    const ticked = tickedIndexes(group);
    for (const index of ticked ?? []) addOption(tally, index, count);
    if (group.choice !== null || group.optionIndex !== null || ticked !== null) tally.answered += count;
    tally.answered += group.typed;
    if (group.typed > 0 && group.earned > 0) tally.right += group.typed;
  }
  return quiz.questions.map((question) =>
    statisticsOf(question, tallies.get(question.id) ?? emptyTally(), commonById.get(question.id) ?? []),
  );
}

function statisticsOf(
  question: QuestionRow,
  tally: Tally,
  common: ReadonlyArray<{ value: string | number; count: number }>,
) {
  const base = {
    question_id: question.id,
    text: question.text,
    answered_count: tally.answered,
    // Per response that was shown the question; an unanswered question earned 0.
    average_points: tally.seen === 0 ? null : round2(tally.points / tally.seen),
  };
  const options = () =>
    question.options.map((option, index) => ({
      label: option.label,
      score: option.score,
      count: tally.options.get(index) ?? 0,
    }));
  // Null when the question cannot be answered right (it scores nothing).
  const rightCount = questionMaxPoints(toScorable(question)) > 0 ? tally.right : null;
  switch (question.type) {
    case 'yes_no':
      return {
        ...base,
        type: 'yes_no' as const,
        yes_count: tally.yes,
        no_count: tally.no,
        correct_answer: correctAnswerOf(question),
      };
    case 'multiple_select':
      return { ...base, type: 'multiple_select' as const, options: options() };
    case 'short_text':
      return {
        ...base,
        type: 'short_text' as const,
        right_count: acceptedAnswersOf(question).length > 0 ? rightCount : null,
        common_answers: mergedTexts(common),
      };
    case 'number':
      return {
        ...base,
        type: 'number' as const,
        right_count: rightCount,
        common_values: common.map((entry) => ({ value: Number(entry.value), count: entry.count })),
      };
    default:
      return { ...base, type: 'multiple_choice' as const, options: options() };
  }
}

export type QuestionStatistics = ReturnType<typeof statisticsOf>;
