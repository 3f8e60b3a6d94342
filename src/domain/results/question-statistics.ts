import type { QuizWithQuestions, ResultRows } from '../../db/repositories';
import { correctAnswerOf } from '../quiz-records';
import { itemFiguresOf, round2 } from './result-figures';

const shares = (values: number[] | null) => (values === null ? null : values.map((value) => round2(value)!));

/**
 * Per-question statistics and item analysis for the quiz's current questions, from the running
 * figures (a few rows per question, whatever the number of responses). A question's figures
 * count every response shown it, in any version that kept its id; responses to earlier versions
 * answered other question ids, so they count in the summary but not here.
 */
export function questionStatistics(quiz: QuizWithQuestions, rows: ResultRows) {
  const byQuestion = new Map<string, Array<ResultRows['items'][number]>>();
  for (const row of rows.items) {
    const list = byQuestion.get(row.questionId) ?? [];
    byQuestion.set(row.questionId, list);
    list.push(row);
  }
  return quiz.questions.map((question) => {
    const figures = itemFiguresOf(question, byQuestion.get(question.id) ?? []);
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
    if (question.type === 'yes_no') {
      return {
        ...base,
        type: 'yes_no' as const,
        yes_count: count('yes'),
        no_count: count('no'),
        correct_answer: correctAnswerOf(question),
      };
    }
    return {
      ...base,
      type: 'multiple_choice' as const,
      options: question.options.map((option, index) => ({
        label: option.label,
        score: option.score,
        count: count(String(index)),
      })),
    };
  });
}
