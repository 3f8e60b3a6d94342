import type { DomainDeps } from '../deps';
import type { QuizWithQuestions } from '../../db/repositories';
import { correctAnswerOf } from '../quiz-records';

const round2 = (value: number): number => Math.round(value * 100) / 100;

interface Tally {
  /** Stored answer rows, answered or not: every response stores one per question it was shown. */
  seen: number;
  answered: number;
  points: number;
  yes: number;
  no: number;
  options: Map<number, number>;
}

const emptyTally = (): Tally => ({ seen: 0, answered: 0, points: 0, yes: 0, no: 0, options: new Map() });

/**
 * Per-question statistics for the quiz's current questions. The database groups the answer rows
 * (at most questions x (options + 3) groups, whatever the number of responses); only the groups
 * come back. Responses to earlier versions answered other question ids, so they count in the
 * summary but not here: their questions no longer exist.
 */
export async function getQuestionStatistics({ repos }: DomainDeps, quiz: QuizWithQuestions) {
  const groups = await repos.responses.answerGroups(
    quiz.id,
    quiz.questions.map((question) => question.id),
  );
  const tallies = new Map<string, Tally>();
  for (const group of groups) {
    const tally = tallies.get(group.questionId) ?? emptyTally();
    tallies.set(group.questionId, tally);
    const count = group.count;
    tally.seen += count;
    tally.points += group.points;
    if (group.choice === 'yes') tally.yes += count;
    if (group.choice === 'no') tally.no += count;
    if (group.optionIndex !== null)
      tally.options.set(group.optionIndex, (tally.options.get(group.optionIndex) ?? 0) + count);
    if (group.choice !== null || group.optionIndex !== null) tally.answered += count;
  }
  return quiz.questions.map((question) => {
    const tally = tallies.get(question.id) ?? emptyTally();
    const base = {
      question_id: question.id,
      text: question.text,
      answered_count: tally.answered,
      // Per response that was shown the question; an unanswered question earned 0.
      average_points: tally.seen === 0 ? null : round2(tally.points / tally.seen),
    };
    if (question.type === 'yes_no') {
      return {
        ...base,
        type: 'yes_no' as const,
        yes_count: tally.yes,
        no_count: tally.no,
        correct_answer: correctAnswerOf(question),
      };
    }
    return {
      ...base,
      type: 'multiple_choice' as const,
      options: question.options.map((option, index) => ({
        label: option.label,
        score: option.score,
        count: tally.options.get(index) ?? 0,
      })),
    };
  });
}
