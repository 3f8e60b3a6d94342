import type { QuizWithQuestions, ResponseRemark } from '../../db/repositories';
import type { DomainDeps } from '../deps';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { storedDefinition } from '../question-types';
import { toScorable } from '../quiz-records';
import { passedOf, percentOf, pointsFor, questionMaxPoints } from '../scoring';
import { choiceOf } from '../stored-answer';

/** What a re-marking did: responses given new marks, and answers the owner overrode, left as set. */
export interface RemarkOutcome {
  remarked: number;
  overriddenKept: number;
}

/** The owner's words for the answers a re-marking kept because the owner set their points. */
export const overriddenKeptNote = (kept: number): string =>
  kept === 0
    ? ''
    : `${kept} overridden answer${kept === 1 ? ' was' : 's were'} left as the owner set ${kept === 1 ? 'it' : 'them'}.`;

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
): Promise<RemarkOutcome> {
  const { remarks, overriddenKept } = await plan(deps, quiz, questionIds);
  const remarked =
    remarks.length > 0 ? await deps.repos.responses.applyRemarks(quiz.id, remarks, new Date()) : 0;
  return { remarked, overriddenKept };
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
  return (await plan(deps, quiz, questionIds)).remarks;
}

/** The new marks, and how many answers the owner overrode among those it looked at (left as set). */
async function plan(
  deps: Pick<DomainDeps, 'repos'>,
  quiz: QuizWithQuestions,
  questionIds: readonly string[],
): Promise<{ remarks: ResponseRemark[]; overriddenKept: number }> {
  const wanted = new Set(questionIds);
  const questions = new Map(
    quiz.questions.filter((question) => wanted.has(question.id)).map((question) => [question.id, question]),
  );
  if (questions.size === 0) return { remarks: [], overriddenKept: 0 };
  const remarks: ResponseRemark[] = [];
  let overriddenKept = 0;
  for (const response of await deps.repos.responses.answeredAny(quiz.id, [...questions.keys()])) {
    const answers: ResponseRemark['answers'][number][] = [];
    let score = 0;
    let maxScore = 0;
    for (const answer of response.answers) {
      const question = questions.get(answer.questionId);
      // A grade given by a person (an essay's) is no rule's to change: the re-marking leaves it.
      if (!question || question.type !== answer.type || answer.gradeState !== null) {
        // The owner's override of a rule-marked answer stands: counted, so the caller can say so.
        if (question && answer.gradeState !== null && !storedDefinition(answer.type).gradedByHand)
          overriddenKept += 1;
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
  return { remarks, overriddenKept };
}

/**
 * The owner's explicit re-marking of every past answer to the quiz's current questions under
 * their current keys (the dashboard's button, after a confirmation page). Idempotent: a second
 * run, or a run after nothing changed, re-marks nothing.
 */
export async function remarkAllResponses(
  deps: DomainDeps,
  ownerId: string,
  ref: string,
): Promise<RemarkOutcome> {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  return remarkResponses(
    deps,
    quiz,
    quiz.questions.map((question) => question.id),
  );
}
