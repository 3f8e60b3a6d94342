import { randomInt } from 'node:crypto';
import type {
  AttemptLayoutItem,
  AttemptRow,
  PerEmailLimit,
  QuestionRow,
  QuizWithQuestions,
} from '../../db/repositories';
import {
  drawOpaqueLists,
  optionsOf,
  storedDefinition,
  toScorable,
  type DrawnValues,
  type OpaqueLists,
} from '../question-types';
import { nowOf, type DomainDeps } from '../deps';
import { DomainError, invalidInput } from '../errors';
import { EMAIL, RESPONDENT_LIMITS, type SubmitResponseInput } from './validate-submission';
import { AttemptRefusal } from './attempt-refusal';
import { GRACE_SECONDS, takesAttempts, windowState } from './taking-rules';

/**
 * Attempts: a start the server records for a quiz with a time limit, a shuffle, a pool or an
 * attempt limit. The attempt holds the questions drawn, their order and their options' order
 * (canonical indexes, so answers always name options as the quiz does), and the deadline.
 * What happens to an attempt when the owner edits the quiz meanwhile:
 * docs/decisions/0014-attempts-and-edits-in-flight.md.
 */

/** An untimed attempt (a shuffle, a pool, an attempt limit) may be submitted this long after its start. */
export const UNTIMED_ATTEMPT_HOURS = 24;

function shuffled<T>(items: readonly T[]): T[] {
  const copy = [...items];
  for (let i = copy.length - 1; i > 0; i -= 1) {
    const j = randomInt(i + 1);
    [copy[i], copy[j]] = [copy[j]!, copy[i]!];
  }
  return copy;
}

/** The questions an attempt draws, in the order shown, each with its options' order. */
export function drawLayout(
  quiz: Pick<QuizWithQuestions, 'questions' | 'questionPoolSize' | 'shuffleQuestions' | 'shuffleOptions'>,
): AttemptLayoutItem[] {
  const size = Math.min(quiz.questionPoolSize ?? quiz.questions.length, quiz.questions.length);
  const drawn = new Set(shuffled(quiz.questions).slice(0, size));
  const inQuizOrder = quiz.questions.filter((question) => drawn.has(question));
  const ordered = quiz.shuffleQuestions ? shuffled(inQuizOrder) : inQuizOrder;
  return ordered.map((question) => {
    const indexes = optionsOf(question).map((_option, index) => index);
    const definition = storedDefinition(question.type);
    const lists = definition.opaqueLists?.(toScorable(question));
    const drawn = definition.drawing?.draw(toScorable(question));
    return {
      q: question.id,
      o: quiz.shuffleOptions ? shuffled(indexes) : indexes,
      ...(lists ? { p: drawOpaqueLists(lists) } : {}),
      ...(drawn ? { v: { ...drawn } } : {}),
    };
  });
}

/** The opaque ids an attempt gave each question that has some, by question id. */
export function opaqueListsOf(attempt: Pick<AttemptRow, 'layout'>): Map<string, OpaqueLists> {
  return new Map(attempt.layout.flatMap((item) => (item.p ? [[item.q, item.p] as const] : [])));
}

/** The values an attempt drew for each question whose type draws (TypeDrawing), by question id. */
export function drawnValuesOf(attempt: Pick<AttemptRow, 'layout'>): Map<string, DrawnValues> {
  return new Map(attempt.layout.flatMap((item) => (item.v ? [[item.q, item.v] as const] : [])));
}

/**
 * A question as a draw shows it: its text with the drawn values. A question whose type draws
 * but has no draw kept (a preview, an attempt older than a fix) gets a new one.
 */
export function withDraw(question: QuestionRow, drawn?: DrawnValues): QuestionRow {
  const drawing = storedDefinition(question.type).drawing;
  if (!drawing) return question;
  const scorable = toScorable(question);
  return { ...question, text: drawing.text(scorable, question.text, drawn ?? drawing.draw(scorable)) };
}

/** The quiz as a preview shows it: a sample draw for each question whose type draws. */
export function withSampleDraws<Q extends { questions: readonly QuestionRow[] }>(quiz: Q): Q {
  return { ...quiz, questions: quiz.questions.map((question) => withDraw(question)) };
}

/** The attempt's questions as shown: in its order, options in its order with their canonical index. */
export function displayedQuestions(quiz: QuizWithQuestions, attempt: Pick<AttemptRow, 'layout'>) {
  const byId = new Map(quiz.questions.map((question) => [question.id, question]));
  return attempt.layout.flatMap((item) => {
    const question = byId.get(item.q);
    if (!question) return [];
    const all = optionsOf(question);
    const options = item.o.flatMap((index) => {
      const option = all[index];
      return option ? [{ index, option }] : [];
    });
    return [{ question: withDraw(question, item.v), options, lists: item.p ?? {} }];
  });
}

/** An option as a form shows it: its label, and its index in the quiz's order (what a form sends back). */
export interface ShownOption {
  index: number;
  label: string;
}

/**
 * A question as an attempt shows it (respondent/attempt-flow.ts): its options in the attempt's
 * order, and the parts its type names by the attempt's opaque ids.
 */
export type ShownQuestion = QuestionRow & { shownOptions?: readonly ShownOption[]; shownLists?: OpaqueLists };

/** The options a form shows: in the attempt's order when it has one, else in the quiz's. */
export function shownOptions(question: ShownQuestion): readonly ShownOption[] {
  return (
    question.shownOptions ?? optionsOf(question).map((option, index) => ({ index, label: option.label }))
  );
}

/** When an attempt may last submit: its deadline plus the grace, or a day after an untimed start. */
export function attemptExpiry(attempt: Pick<AttemptRow, 'deadline' | 'startedAt'>): Date {
  return attempt.deadline
    ? new Date(attempt.deadline.getTime() + GRACE_SECONDS * 1000)
    : new Date(attempt.startedAt.getTime() + UNTIMED_ATTEMPT_HOURS * 3_600_000);
}

export const normalEmail = (email: string | null | undefined): string => (email ?? '').trim().toLowerCase();

/** Refuses when the quiz does not take attempts right now: closed by hand, or outside its window. */
export function requireOpen(quiz: QuizWithQuestions, now: number): void {
  if (!quiz.acceptingResponses) {
    throw new DomainError(
      'not_accepting_responses',
      `"${quiz.title}" is not accepting responses at the moment.`,
    );
  }
  const state = windowState(quiz, now);
  if (state === 'not_yet_open') {
    throw new AttemptRefusal(
      'not_yet_open',
      `"${quiz.title}" opens at ${quiz.opensAt!.toISOString()}; nothing can be started or submitted before.`,
      quiz.opensAt,
    );
  }
  if (state === 'closed') {
    throw new AttemptRefusal(
      'closed',
      `"${quiz.title}" closed at ${quiz.closesAt!.toISOString()}; it takes no more responses.`,
      quiz.closesAt,
    );
  }
}

const limitedPerEmail = (quiz: QuizWithQuestions) => quiz.maxAttemptsPerEmail !== null && quiz.collectEmail;

/** The refusal of one attempt too many for an email address. */
export function limitReached(quiz: QuizWithQuestions, email: string, used: number): AttemptRefusal {
  return new AttemptRefusal(
    'limit_reached',
    `${email} has already submitted "${quiz.title}" ${used} time${used === 1 ? '' : 's'}, its limit per email address.`,
    null,
    email,
  );
}

async function requireAttemptsLeft(deps: DomainDeps, quiz: QuizWithQuestions, email: string): Promise<void> {
  if (!limitedPerEmail(quiz)) return;
  const used = await deps.repos.attempts.submissionsByEmail(quiz.id, email);
  if (used >= quiz.maxAttemptsPerEmail!) throw limitReached(quiz, email, used);
}

/**
 * Starts an attempt: the quiz must be open; with an attempt limit the email comes now, so that
 * a refusal comes before the work (it is checked again at submission).
 */
export async function startAttempt(
  deps: DomainDeps,
  quiz: QuizWithQuestions,
  input: { email?: string | null | undefined },
): Promise<AttemptRow> {
  const now = nowOf(deps);
  requireOpen(quiz, now);
  let email: string | null = null;
  if (limitedPerEmail(quiz)) {
    email = normalEmail(input.email);
    if (!email) {
      throw invalidInput([
        { field: 'respondent.email', message: 'Enter your email address.', code: 'missing' },
      ]);
    }
    if (email.length > RESPONDENT_LIMITS.emailMax || !EMAIL.test(email)) {
      throw invalidInput([
        {
          field: 'respondent.email',
          message: 'Enter an email address such as name@example.com.',
          code: 'invalid',
        },
      ]);
    }
    await requireAttemptsLeft(deps, quiz, email);
  }
  const startedAt = new Date(now);
  const attempt = await deps.repos.attempts.create({
    quizId: quiz.id,
    quizVersion: quiz.version,
    email,
    layout: drawLayout(quiz),
    startedAt,
    deadline: quiz.timeLimitMinutes ? new Date(now + quiz.timeLimitMinutes * 60_000) : null,
  });
  if (!attempt) throw new DomainError('quiz_not_found', `No published quiz at "${quiz.slug}".`);
  return attempt;
}

/** The attempt a token names, for this quiz; refused when it is gone or belongs elsewhere. */
export async function loadAttempt(deps: DomainDeps, quiz: QuizWithQuestions, attemptId: string) {
  const attempt = await deps.repos.attempts.byId(attemptId);
  if (!attempt || attempt.quizId !== quiz.id) {
    throw new AttemptRefusal(
      'token_invalid',
      'The attempt_token does not belong to this quiz: start an attempt.',
    );
  }
  return attempt;
}

/**
 * An attempt drawn from an earlier version of the quiz: it keeps the drawn questions that still
 * exist (a question keeps its id only while it marks answers as before), or draws anew when none
 * does; its deadline stays. Returns the attempt as it now stands.
 */
export async function rebaseAttempt(
  deps: DomainDeps,
  quiz: QuizWithQuestions,
  attempt: AttemptRow,
): Promise<AttemptRow> {
  if (attempt.quizVersion === quiz.version) return attempt;
  const current = new Set(quiz.questions.map((question) => question.id));
  const kept = attempt.layout.filter((item) => current.has(item.q));
  const layout = kept.length > 0 ? kept : drawLayout(quiz);
  await deps.repos.attempts.rebase(attempt.id, quiz.version, layout);
  return { ...attempt, quizVersion: quiz.version, layout };
}

export interface TakenSubmission {
  /** The quiz as this submission is marked: its questions are those drawn, in the quiz's order. */
  quiz: QuizWithQuestions;
  input: SubmitResponseInput;
  attemptId: string | null;
  /** The attempt limit the store checks again, under a lock, as it inserts. */
  perEmail?: PerEmailLimit;
  /**
   * Sent after the attempt's deadline, within the grace: stored with what it holds, whatever
   * require_all_answers says; its blanks ran out of time.
   */
  timeUp?: boolean;
  /** The attempt's opaque ids, by question id, that the answers name parts by. */
  lists?: Map<string, OpaqueLists>;
  /** The values the attempt drew, by question id, that the answers are marked against. */
  drawn?: Map<string, DrawnValues>;
}

/**
 * The checks a submission passes before it is validated and scored, on the form and the JSON
 * route alike: the window, the token a quiz taken through attempts needs, its deadline (plus a
 * short grace), one submission per attempt, the attempt limit per email, answers only to the
 * questions drawn. Without such settings and without a token, the quiz is marked as it always was.
 */
export async function takeSubmission(
  deps: DomainDeps,
  quiz: QuizWithQuestions,
  input: SubmitResponseInput,
  attemptId: string | null,
  { atTimeUp = false }: { atTimeUp?: boolean } = {},
): Promise<TakenSubmission> {
  const now = nowOf(deps);
  if (attemptId === null) {
    if (takesAttempts(quiz)) {
      throw new AttemptRefusal(
        'token_required',
        `"${quiz.title}" is taken through an attempt: start one (POST /api/quizzes/${quiz.slug}/attempts) and send its attempt_token with the answers.`,
      );
    }
    requireOpen(quiz, now);
    return { quiz, input, attemptId: null };
  }
  const attempt = await loadAttempt(deps, quiz, attemptId);
  if (attempt.submittedAt) {
    throw new AttemptRefusal(
      'already_submitted',
      'This attempt has already been submitted: start a new one.',
    );
  }
  const expiry = attemptExpiry(attempt);
  // The server's own submission of the saved answers (saved-answers.ts) comes after the grace.
  if (atTimeUp && !attempt.deadline) {
    throw new AttemptRefusal('expired', 'Only a timed attempt is submitted at time-up.', expiry);
  }
  if (now > expiry.getTime() && !atTimeUp) {
    throw new AttemptRefusal(
      'expired',
      attempt.deadline
        ? `The time limit of this attempt ended at ${attempt.deadline.toISOString()}; nothing was stored.`
        : `This attempt started more than ${UNTIMED_ATTEMPT_HOURS} hours ago; nothing was stored. Start a new one.`,
      attempt.deadline ?? expiry,
    );
  }
  if (!quiz.acceptingResponses) requireOpen(quiz, now);
  // A timed attempt started inside the window may finish within its time limit.
  if (!attempt.deadline) requireOpen(quiz, now);
  if (attempt.quizVersion !== quiz.version) {
    await rebaseAttempt(deps, quiz, attempt);
    throw new AttemptRefusal(
      'quiz_changed',
      'The quiz was edited after this attempt started, so nothing was stored. The attempt now holds the questions ' +
        'that are still in the quiz; send the answers again with the same attempt_token.',
    );
  }
  const drawn = new Set(attempt.layout.map((item) => item.q));
  const inQuiz = new Set(quiz.questions.map((question) => question.id));
  const notDrawn = input.answers.flatMap((answer, index) =>
    inQuiz.has(answer.question_id) && !drawn.has(answer.question_id)
      ? [
          {
            field: `answers[${index}].question_id`,
            message: 'was not drawn for this attempt: answer only the questions the attempt lists.',
          },
        ]
      : [],
  );
  if (notDrawn.length > 0) throw invalidInput(notDrawn, 'The submission cannot be accepted');
  let taken = input;
  let perEmail: PerEmailLimit | undefined;
  if (attempt.email) {
    const given = normalEmail(input.respondent?.email);
    if (given && given !== attempt.email) {
      throw invalidInput(
        [
          {
            field: 'respondent.email',
            message: `must be the email this attempt was started with (${attempt.email}).`,
            code: 'not_the_attempt_email',
            params: { email: attempt.email },
          },
        ],
        'The submission cannot be accepted',
      );
    }
    taken = { ...input, respondent: { ...input.respondent, email: attempt.email } };
    await requireAttemptsLeft(deps, quiz, attempt.email);
    if (limitedPerEmail(quiz)) perEmail = { email: attempt.email, max: quiz.maxAttemptsPerEmail! };
  }
  return {
    quiz: { ...quiz, questions: quiz.questions.filter((question) => drawn.has(question.id)) },
    input: taken,
    attemptId: attempt.id,
    lists: opaqueListsOf(attempt),
    drawn: drawnValuesOf(attempt),
    ...(perEmail ? { perEmail } : {}),
    ...((attempt.deadline && now > attempt.deadline.getTime()) || atTimeUp ? { timeUp: true } : {}),
  };
}
