import { decodeCursor, encodeCursor } from '../cursor';
import type { DomainDeps } from '../deps';
import { DomainError } from '../errors';
import { loadOwnedQuiz } from '../quizzes/get-quiz';
import { quizSummary } from '../quiz-records';
import { getQuestionStatistics } from './question-statistics';
import { reliabilityOf, scoreDistributionOf, totalsOf } from './result-figures';
import { summaryOf } from './results-summary';
import { answerColumns, answerText, typedAnswerValue } from '../stored-answer';

export interface GetResultsInput {
  ref: string;
  /** Responses in the page, 0-100: 0 gives the summary and statistics alone. */
  limit: number;
  cursor?: string | undefined;
  /** False leaves each response's per-question answers out (default true). */
  includeAnswers?: boolean | undefined;
  /** False leaves the typed questions' most common answers empty (default true). */
  commonAnswers?: boolean | undefined;
}

/** A page holds at most 100 responses, whoever calls: the answer must fit an assistant's context. */
export const RESULTS_PAGE_MAX = 100;

export function readCursor(cursor: string) {
  const position = decodeCursor(cursor);
  // A well-formed cursor with an absurd timestamp decodes to an Invalid Date, which the database refuses.
  if (Number.isNaN(position.at.getTime())) {
    throw new DomainError(
      'invalid_input',
      'cursor: not a cursor this tool gave out. Pass the next_cursor of a previous answer.',
      [{ field: 'cursor', message: 'not a cursor this tool gave out' }],
    );
  }
  return position;
}

/**
 * Summary, per-question statistics, item analysis and one page of responses, newest first. Every
 * figure comes from the running figures the writes keep (decision 0016) and only the requested
 * page of responses is read, so the cost stays flat from zero to a million responses. Paging is keyset on (submitted_at, id):
 * responses arriving meanwhile neither repeat nor shift later pages.
 */
export async function getResults(deps: DomainDeps, ownerId: string, input: GetResultsInput) {
  const { responses } = deps.repos;
  const quiz = await loadOwnedQuiz(deps, ownerId, input.ref);
  const limit = Math.min(Math.max(Math.trunc(input.limit), 0), RESULTS_PAGE_MAX);
  const after = input.cursor ? readCursor(input.cursor) : undefined;
  const includeAnswers = input.includeAnswers !== false;

  const [figures, rows] = await Promise.all([
    responses.figures(quiz.id),
    limit === 0 ? [] : responses.newestFirst(quiz.id, limit + 1, after),
  ]);
  const questions = await getQuestionStatistics(deps, quiz, figures, input.commonAnswers !== false);
  const totals = totalsOf(figures);

  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    quiz: quizSummary(quiz),
    summary: summaryOf(quiz, figures, totals),
    questions,
    item_analysis: {
      reliability: reliabilityOf(quiz, figures, totals.count),
      score_distribution: scoreDistributionOf(figures),
    },
    responses: page.map((response) => ({
      response_id: response.id,
      submitted_at: response.submittedAt.toISOString(),
      respondent: { name: response.respondentName, email: response.respondentEmail },
      score: response.score,
      max_score: response.maxScore,
      percent: response.percent,
      passed: response.passed,
      quiz_version: response.quizVersion,
      remarked_at: response.remarkedAt?.toISOString() ?? null,
      original_score: response.originalScore,
      // Only when true: an additive field that costs nothing on every other response.
      ...(response.timeUp ? { time_up: true as const } : {}),
      ...(includeAnswers
        ? {
            answers: response.answers.map((answer) => ({
              question_id: answer.questionId,
              text: answer.questionText,
              answer: answerText(answer),
              option_index: answerColumns(answer).optionIndex,
              ...typedAnswerValue(answer),
              points: answer.points,
              max_points: answer.maxPoints,
            })),
          }
        : {}),
    })),
    next_cursor: rows.length > limit && last ? encodeCursor({ at: last.submittedAt, id: last.id }) : null,
  };
}
