import type { QuizWithQuestions, ResponseRemark } from '../../db/repositories';
import type { DomainDeps } from '../deps';
import { loadOwnedQuiz } from '../quizzes/get-quiz';
import { toScorable } from '../quiz-records';
import { passedOf, percentOf, pointsFor, questionMaxPoints } from '../scoring';
import { choiceOf } from '../stored-answer';

/**
 * Re-marks the past answers to these questions under the quiz's current answer keys, after the
 * owner fixed a key: each answer's points, each response's score, percent and pass (at today's
 * pass mark). A response keeps its first score as its original. Answers stay what they were:
 * only their marks change, and only where the key now gives other marks, so running it again
 * changes nothing. The one exception to frozen history, and always the owner's explicit act.
 */
export async function remarkResponses(
  deps: Pick<DomainDeps, 'repos'>,
  quiz: QuizWithQuestions,
  questionIds: readonly string[],
): Promise<number> {
  const remarks = await plannedRemarks(deps, quiz, questionIds);
  return remarks.length > 0 ? deps.repos.responses.applyRemarks(quiz.id, remarks, new Date()) : 0;
}

/**
 * The new marks remarkResponses would give, one entry per response whose marks change, without
 * writing them: a confirmation page counts them first.
 */
export async function plannedRemarks(
  deps: Pick<DomainDeps, 'repos'>,
  quiz: QuizWithQuestions,
  questionIds: readonly string[],
): Promise<ResponseRemark[]> {
  const wanted = new Set(questionIds);
  const questions = new Map(
    quiz.questions.filter((question) => wanted.has(question.id)).map((question) => [question.id, question]),
  );
  if (questions.size === 0) return [];
  const remarks: ResponseRemark[] = [];
  for (const response of await deps.repos.responses.answeredAny(quiz.id, [...questions.keys()])) {
    const answers: ResponseRemark['answers'][number][] = [];
    let score = 0;
    let maxScore = 0;
    for (const answer of response.answers) {
      const question = questions.get(answer.questionId);
      // A grade given by a person (an essay's) is no rule's to change: the re-marking leaves it.
      if (!question || question.type !== answer.type || answer.gradeState !== null) {
        score += answer.points;
        maxScore += answer.maxPoints;
        continue;
      }
      const scorable = toScorable(question);
      const points = pointsFor(scorable, choiceOf(answer));
      const maxPoints = questionMaxPoints(scorable);
      if (points !== answer.points || maxPoints !== answer.maxPoints)
        answers.push({ id: answer.id, points, maxPoints });
      score += points;
      maxScore += maxPoints;
    }
    if (answers.length === 0) continue;
    const percent = percentOf(score, maxScore);
    remarks.push({
      responseId: response.id,
      answers,
      score,
      maxScore,
      percent,
      // A response still waiting for a grade has no pass yet.
      passed: response.gradingStatus === 'pending' ? null : passedOf(percent, quiz.passMarkPercent),
    });
  }
  return remarks;
}

/**
 * The owner's explicit re-marking of every past answer to the quiz's current questions under
 * their current keys (the dashboard's button, after a confirmation page). Idempotent: a second
 * run, or a run after nothing changed, re-marks nothing.
 */
export async function remarkAllResponses(deps: DomainDeps, ownerId: string, ref: string): Promise<number> {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  return remarkResponses(
    deps,
    quiz,
    quiz.questions.map((question) => question.id),
  );
}
