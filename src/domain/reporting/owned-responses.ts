import type { ResponseWithAnswers } from '../../db/repositories';
import { encodeCursor } from '../cursor';
import type { DomainDeps } from '../deps';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { quizSummary } from '../quiz-records';
import { unacceptedTexts } from '../stored-answer';
import { reviewOf, reviewOptionPictures, reviewPictures } from '../taking/answer-review';
import { responseNotFound } from '../owned/owned-response';
import { autoSubmittedAt } from '../taking/get-response-result';
import { readCursor, responseFields, RESULTS_PAGE_MAX } from './get-results';
import { gradingStateOf } from '../grading/grading-state';

/**
 * What the owner's pages show of a response: get_results' fields, whether time ran out, and where
 * its grades stand (pending, proposed or final).
 */
function responseRecord(response: ResponseWithAnswers) {
  return { ...responseFields(response), time_up: response.timeUp, grading_state: gradingStateOf(response) };
}

export type OwnedResponseRecord = ReturnType<typeof responseRecord>;

/**
 * One page of a quiz's responses, newest first, and nothing else: no figures or statistics are
 * read. Paged by the same keyset cursor as get_results.
 */
export async function listResponses(
  deps: DomainDeps,
  ownerId: string,
  ref: string,
  input: { limit: number; cursor?: string | undefined },
) {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  const limit = Math.min(Math.max(Math.trunc(input.limit), 1), RESULTS_PAGE_MAX);
  const after = input.cursor ? readCursor(input.cursor) : undefined;
  const rows = await deps.repos.responses.newestFirst(quiz.id, limit + 1, after);
  const page = rows.slice(0, limit);
  const last = page[page.length - 1];
  return {
    quiz: quizSummary(quiz),
    responses: page.map(responseRecord),
    next_cursor: rows.length > limit && last ? encodeCursor({ at: last.submittedAt, id: last.id }) : null,
  };
}

/**
 * One response as its owner reads it: who and when, the score, and each answer marked against the
 * quiz's current key (reviewOf, with the points always shown); with the newer and older responses
 * beside it in the list's order (newest first), so the owner can walk them one by one.
 */
export async function getOwnedResponse(deps: DomainDeps, ownerId: string, ref: string, responseId: string) {
  const quiz = await loadOwnedQuiz(deps, ownerId, ref);
  const { responses } = deps.repos;
  const response = await responses.ownedWithAnswers(ownerId, quiz.id, responseId);
  if (!response) throw responseNotFound();
  const position = { at: response.submittedAt, id: response.id };
  const [newer, older, savedAt] = await Promise.all([
    responses.oldestFirst(quiz.id, 1, position),
    responses.newestFirst(quiz.id, 1, position),
    response.timeUp ? autoSubmittedAt(deps, response.id) : null,
  ]);
  return {
    quiz: quizSummary(quiz),
    response: responseRecord(response),
    /** Submitted by the server at time-up: when the answers it sent were last saved; else null. */
    auto_submitted: savedAt ? { saved_at: savedAt.toISOString() } : null,
    answers: reviewOf(quiz.questions, response.answers, true),
    /** The questions' own pictures by question id, shown with each answer. */
    pictures: reviewPictures(quiz.questions),
    /** The options' pictures by question id and label, shown beside the answers that name them. */
    option_pictures: reviewOptionPictures(quiz.questions),
    /**
     * Per answer, in the answers' order: its id, its grade state (null: marked by its type's
     * rule), and the typed texts its question does not accept yet, which the owner may accept.
     */
    answer_actions: response.answers.map((answer) => {
      const question = quiz.questions.find((candidate) => candidate.id === answer.questionId);
      return {
        answer_id: answer.id,
        grade_state: answer.gradeState,
        acceptable: question ? unacceptedTexts(question, answer) : [],
      };
    }),
    /** The response before this one in the list (newer), and after it (older); null at either end. */
    previous_id: newer[0]?.id ?? null,
    next_id: older[0]?.id ?? null,
  };
}
