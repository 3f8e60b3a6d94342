import type { NewResponseRow, QuizWithQuestions, Repositories } from '../../db/repositories';
import { toScorable } from '../quiz-records';
import { scoreResponse } from '../scoring';
import { answerRow } from './submit-response';
import { respondentOf, validateSubmission, type SubmitResponseInput } from '../attempts/validate-submission';

/**
 * The rows a submission stores, built the way recordResponse builds them (validated, scored on
 * the server, each answer kept with its question's text as it reads now). For loading many
 * responses at once (the scale benchmark's seed); tests/db/bulk-responses.test.ts proves the
 * rows equal those of the JSON route, column by column, figures included.
 */
export function responseRowOf(quiz: QuizWithQuestions, input: SubmitResponseInput): NewResponseRow {
  const choices = validateSubmission(quiz, input);
  const score = scoreResponse(quiz.questions.map(toScorable), choices, quiz.passMarkPercent);
  const respondent = respondentOf(quiz, input);
  const answers = quiz.questions.map((question, position) =>
    answerRow(question, position, choices.get(question.id), score),
  );
  const pending = answers.some((answer) => answer.gradeState === 'pending');
  return {
    quizId: quiz.id,
    quizVersion: quiz.version,
    respondentName: respondent.name,
    respondentEmail: respondent.email,
    score: score.score,
    maxScore: score.maxScore,
    percent: score.percent,
    passed: pending ? null : score.passed,
    answers,
    ...(pending ? { gradingStatus: 'pending' as const } : {}),
  };
}

/** Stores many responses in one transaction, with their running figures; each at its own time. */
export async function loadResponses(
  { responses }: Pick<Repositories, 'responses'>,
  rows: ReadonlyArray<{ row: NewResponseRow; at: Date }>,
): Promise<number> {
  return responses.createMany(rows);
}
