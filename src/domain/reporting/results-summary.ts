import type { QuizWithQuestions, ResultRows } from '../../db/repositories';
import type { DomainDeps } from '../deps';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { quizSummary, toScorable } from '../quiz-records';
import { maxScoreOf } from '../scoring';
import { scoreCountsOf, totalsOf, type Totals } from './result-figures';

const round2 = (value: number | null | undefined): number | null =>
  value === null || value === undefined ? null : Math.round(value * 100) / 100;

/** The summary get_results answers, from the running figures (decision 0016). */
export function summaryOf(
  quiz: Pick<QuizWithQuestions, 'questions' | 'passMarkPercent'>,
  figures: ResultRows,
  totals: Totals = totalsOf(figures),
) {
  const graded = totals.passed + totals.failed;
  const pendingGrades = (figures.ungraded ?? []).reduce((sum, row) => sum + row.count, 0);
  return {
    response_count: totals.count,
    average_score: round2(totals.averageScore),
    average_percent: round2(totals.averagePercent),
    highest_score: totals.highestScore,
    lowest_score: totals.lowestScore,
    max_score: maxScoreOf(quiz.questions.map(toScorable)),
    pass_mark_percent: quiz.passMarkPercent,
    pass_count: totals.passed,
    pass_rate: graded === 0 ? null : round2(totals.passed / graded),
    // The same share on the 0-100 scale of the other percents; pass_rate keeps its 0-1.
    pass_percent: graded === 0 ? null : round2((100 * totals.passed) / graded),
    first_submitted_at: figures.firstSubmittedAt?.toISOString() ?? null,
    last_submitted_at: figures.lastSubmittedAt?.toISOString() ?? null,
    // Counted in every figure above with their score so far; not final until graded.
    pending_count: totals.pending,
    // The answers behind them that wait for a person's grade, left out of the question figures;
    // only while some wait, so a summary without any reads as it always did.
    ...(pendingGrades > 0 ? { pending_grades: pendingGrades } : {}),
  };
}

/**
 * The results' summary and how many responses got each score, from one read of the running
 * figures: what the quiz page and the results' summary show, without statistics or responses;
 * with how many answers wait for a grade or hold a proposal (`to_grade`) while any response waits.
 */
export async function getResultsSummary(deps: DomainDeps, ownerId: string, ref: string) {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  const figures = await deps.repos.responses.figures(quiz.id);
  const summary = summaryOf(quiz, figures);
  // The answers behind the pending responses, read only when some response waits.
  const toGrade =
    summary.pending_count > 0
      ? await deps.repos.responses.answersToGradeCounts(quiz.id)
      : { pending: 0, proposed: 0 };
  return { quiz: quizSummary(quiz), summary, scores: scoreCountsOf(figures), to_grade: toGrade };
}
