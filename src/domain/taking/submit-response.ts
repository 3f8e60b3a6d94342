import { AttemptRefusal } from '../attempts/attempt-refusal';
import { limitReached, takeSubmission } from '../attempts/attempts';
import { nowOf, type DomainDeps } from '../deps';
import { DomainError } from '../errors';
import {
  AttemptAlreadySubmitted,
  PerEmailLimitReached,
  SubmissionKeyUsed,
  type NewAnswerRow,
  type SubmissionKey,
  type QuestionRow,
  type QuizWithQuestions,
} from '../../db/repositories';
import { storedDefinition } from '../question-types';
import { toScorable } from '../quiz-records';
import { scoreResponse, type Choice, type Score } from '../scoring';
import { answerKeyShown, reviewOf, type ReviewItem } from './answer-review';
import { newKeptResultKey } from './kept-result';
import { storedAnswer } from '../stored-answer';
import { respondentOf, validateSubmission, type SubmitResponseInput } from '../attempts/validate-submission';
import { responseSubmittedEvent } from '../webhooks/events';

export {
  validateSubmission,
  type SubmissionIssue,
  type SubmitResponseInput,
  type SubmittedAnswer,
} from '../attempts/validate-submission';

/** The one error for "no page here": drafts, deleted and unknown quizzes look the same from outside. */
export function publishedQuizNotFound(slug: string): DomainError {
  return new DomainError('quiz_not_found', `No published quiz at "${slug}".`);
}

/** A closed quiz's refusal: nothing is stored. */
export function notAcceptingResponses(quiz: Pick<QuizWithQuestions, 'title'>): DomainError {
  return new DomainError(
    'not_accepting_responses',
    `"${quiz.title}" is not accepting responses at the moment.`,
  );
}

/** The published quiz behind a public slug, with its questions and options in order. */
export async function loadPublishedQuiz(deps: DomainDeps, slug: string): Promise<QuizWithQuestions> {
  const quiz = await deps.repos.quizzes.bySlug(slug);
  if (!quiz || quiz.status !== 'published') throw publishedQuizNotFound(slug);
  return quiz;
}

export interface SubmittedResponse {
  response_id: string;
  quiz: { quiz_id: string; slug: string; title: string };
  score: number;
  max_score: number;
  percent: number | null;
  passed: boolean | null;
  /** "pending" while an answer waits for a person's grade: the score so far, `passed` null. */
  grading_status: 'pending' | 'final';
  /** The quiz's setting at submission time: adapters decide from it what the respondent sees. */
  show_score_to_respondent: boolean;
  /** Each answer marked with the key and explanations, when the quiz shows them right away; else null. */
  review: ReviewItem[] | null;
  /** Sent when the attempt's time ran out: stored as it was, its blanks scoring 0. */
  time_up: boolean;
  /** The questions left blank when the time ran out, in the quiz's order; [] otherwise. */
  out_of_time: string[];
  /**
   * The kept link's secret (kept-result.ts), given only here: null when this answers a repeat of
   * an earlier submission, whose secret was given the first time and is not stored.
   */
  kept_result_key: string | null;
}

/**
 * A submission sent again under a repeat key already taken for the quiz: nothing new is stored.
 * `sameBody` false: the key came first with another body (an Idempotency-Key reused by mistake).
 */
export class RepeatedSubmission extends Error {
  constructor(
    readonly responseId: string,
    readonly sameBody: boolean,
  ) {
    super('this submission was sent before under the same key');
  }
}

/**
 * Scores on the server and stores the response against a quiz already loaded by the caller
 * (the form page loads it anyway to render errors). The response keeps its own answers,
 * question texts, points, score and the quiz version, so a later edit never rewrites it.
 */
export async function recordResponse(
  deps: DomainDeps,
  loaded: QuizWithQuestions,
  submitted: SubmitResponseInput,
  attemptId: string | null = null,
  options: { atTimeUp?: boolean; key?: SubmissionKey } = {},
): Promise<SubmittedResponse> {
  const { key } = options;
  // Sent again after the first was stored: answered as the first was, from the same body.
  const first = key ? await deps.repos.attempts.keyOwner(loaded.id, key.keyHash) : null;
  if (first && first.bodyHash !== key!.bodyHash) throw new RepeatedSubmission(first.responseId, false);
  if (first && !loaded.acceptingResponses) throw new RepeatedSubmission(first.responseId, true);
  if (!loaded.acceptingResponses) throw notAcceptingResponses(loaded);
  // The window, the attempt and its drawn questions (attempts/attempts.ts): `quiz` is what is marked.
  const taken = await takeSubmission(deps, loaded, submitted, attemptId, options).catch(
    async (error: unknown) => {
      // The first submission used the attempt up: only the way to its result is left. A repeat
      // racing the first may find the attempt used before it found the key: it looks again.
      const used = first ?? (key ? await deps.repos.attempts.keyOwner(loaded.id, key.keyHash) : null);
      if (used && used.bodyHash === key!.bodyHash) throw new RepeatedSubmission(used.responseId, true);
      if (used) throw new RepeatedSubmission(used.responseId, false);
      throw error;
    },
  );
  const { quiz, input } = taken;
  const timeUp = taken.timeUp === true;
  const choices = validateSubmission(quiz, input, { timeUp, lists: taken.lists, drawn: taken.drawn });
  const score = scoreResponse(quiz.questions.map(toScorable), choices, quiz.passMarkPercent);
  const respondent = respondentOf(quiz, input);
  const answers = answerRows(quiz, choices, score);
  // An answer graded by a person holds the response's pass until its grade is final.
  const pending = answers.some((answer) => answer.gradeState === 'pending');
  const kept = newKeptResultKey();
  const row = {
    quizId: quiz.id,
    quizVersion: quiz.version,
    respondentName: respondent.name,
    respondentEmail: respondent.email,
    score: score.score,
    maxScore: score.maxScore,
    percent: score.percent,
    passed: pending ? null : score.passed,
    answers,
    resultKeyHash: kept.hash,
    ...(timeUp ? { timeUp } : {}),
    ...(pending ? { gradingStatus: 'pending' as const } : {}),
  };
  // One transaction: the attempt's claim (it names this response and drops its saved answers),
  // the response, its answers, the running figures and the webhook event's outbox rows.
  const guards = {
    ...(taken.attemptId
      ? { attempt: { id: taken.attemptId, autoSubmitted: options.atTimeUp === true } }
      : {}),
    ...(key ? { key } : {}),
  };
  // A repeat racing the first (the loser of the key) answers as the first did: the same body
  // scores the same, so only the stored response's id differs.
  let stored = first === null;
  const responseId = first
    ? first.responseId
    : await deps.repos.responses
        .create(row, responseSubmittedEvent(quiz, row), taken.perEmail, guards)
        .catch((error: unknown) => {
          if (error instanceof SubmissionKeyUsed) {
            if (!error.sameBody) throw new RepeatedSubmission(error.responseId, false);
            stored = false;
            return error.responseId;
          }
          if (error instanceof PerEmailLimitReached)
            throw limitReached(quiz, taken.perEmail!.email, error.used);
          if (error instanceof AttemptAlreadySubmitted) {
            throw new AttemptRefusal(
              'already_submitted',
              'This attempt has already been submitted: start a new one.',
            );
          }
          throw error;
        });
  // Null: the quiz was deleted between loading it and storing the response.
  if (responseId === null) throw publishedQuizNotFound(quiz.slug);
  return {
    response_id: responseId,
    quiz: { quiz_id: quiz.id, slug: quiz.slug, title: quiz.title },
    score: score.score,
    max_score: score.maxScore,
    percent: score.percent,
    passed: row.passed,
    grading_status: pending ? 'pending' : 'final',
    show_score_to_respondent: quiz.showScoreToRespondent,
    // The key and explanations wait for the grade, as the score does.
    review:
      answerKeyShown(quiz, nowOf(deps)) && !pending
        ? reviewOf(quiz.questions, answers, quiz.showScoreToRespondent)
        : null,
    time_up: timeUp,
    out_of_time: timeUp ? quiz.questions.filter((q) => !choices.has(q.id)).map((q) => q.id) : [],
    kept_result_key: stored ? kept.secret : null,
  };
}

/** The stored copy of each answer: what was answered and earned, and the question as it read then. */
function answerRows(quiz: QuizWithQuestions, choices: Map<string, Choice>, score: Score): NewAnswerRow[] {
  return quiz.questions.map((question, position) =>
    answerRow(question, position, choices.get(question.id), score),
  );
}

/**
 * One answer's stored row, for the question at its position in the quiz: the JSON route and the
 * bulk load (bulk-responses.ts) both build it here, so their rows stay equal column by column.
 */
export function answerRow(
  question: QuestionRow,
  position: number,
  choice: Choice | undefined,
  score: Score,
): NewAnswerRow {
  const { points, maxPoints } = score.perQuestion[position]!;
  return {
    questionId: question.id,
    position,
    questionText: question.text,
    type: question.type,
    ...storedAnswer(question, choice),
    points,
    maxPoints,
    gradeState: awaitsGrade(question, choice, maxPoints) ? ('pending' as const) : null,
  };
}

/** An answer a person grades (an essay that can earn points) waits for its grade; the rest are marked. */
export function awaitsGrade(question: QuestionRow, choice: Choice | undefined, maxPoints: number): boolean {
  return choice !== undefined && storedDefinition(question.type).gradedByHand === true && maxPoints > 0;
}

/** What a surface read of one submission, given the quiz its fields are named by. */
export interface ReadSubmission {
  input: SubmitResponseInput;
  /** The attempt the submission's verified token names; null without a token. */
  attemptId: string | null;
  /** The repeat key: the form's one-time token, or the JSON door's Idempotency-Key with its body. */
  key?: SubmissionKey | undefined;
  /** The quiz version the form was made from, when it says: another version refuses it. */
  version?: string | undefined;
}

/** The form was made from another version of the quiz: its answers would score the wrong questions. */
export class SubmittedToAnotherVersion extends Error {
  constructor() {
    super('the submission was made from another version of the quiz');
  }
}

/**
 * The public submission, whole, for the form and the JSON route alike: loads the published quiz
 * at `slug`, lets the surface read what was sent (`read`: the form's fields are named by the
 * quiz's questions; it also checks the attempt token), then takes the attempt, validates, scores
 * and stores. Errors are thrown as recordResponse throws them.
 */
export async function submitToQuiz(
  deps: DomainDeps,
  slug: string,
  read: (quiz: QuizWithQuestions) => ReadSubmission,
): Promise<SubmittedResponse> {
  const quiz = await loadPublishedQuiz(deps, slug);
  const { input, attemptId, key, version } = read(quiz);
  if (version !== undefined && version !== String(quiz.version)) throw new SubmittedToAnotherVersion();
  return recordResponse(deps, quiz, input, attemptId, key ? { key } : {});
}

/** Loads the published quiz at `slug`, then validates, scores and stores the submission. */
export async function submitResponse(
  deps: DomainDeps,
  slug: string,
  input: SubmitResponseInput,
  attemptId: string | null = null,
  key?: SubmissionKey,
) {
  return submitToQuiz(deps, slug, () => ({ input, attemptId, key }));
}
