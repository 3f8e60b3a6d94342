import type { QuizWithQuestions, SavedAnswers } from '../../db/repositories';
import { nowOf, type DomainDeps } from '../deps';
import { isDomainError } from '../errors';
import { storedDefinition } from '../question-types';
import { recordResponse } from './submit-response';
import type { SubmitResponseInput } from '../attempts/validate-submission';
import { RESPONDENT_LIMITS } from '../attempts/validate-submission';
import { AttemptRefusal } from '../attempts/attempt-refusal';
import { attemptExpiry, loadAttempt, UNTIMED_ATTEMPT_HOURS } from '../attempts/attempts';
import { GRACE_SECONDS } from '../attempts/taking-rules';

/**
 * Answers saved as the student goes, on the attempt's row: the form's values, whatever their
 * state (nothing is validated until submission). Only a time limit makes the server submit them:
 * after the deadline and its grace, so a page that posts at zero is stored first and the sweep
 * then finds the attempt claimed. An untimed attempt's saved answers are forgotten when it
 * expires. docs/decisions/0023-answers-saved-as-the-student-goes.md.
 */

/** One saved value's largest length: the longest answer a form can send (an essay) fits. */
const VALUE_MAX = 100_000;

/** The saved copy of what the form holds, for the questions the attempt drew. */
export async function saveAnswers(
  deps: DomainDeps,
  quiz: QuizWithQuestions,
  attemptId: string,
  saved: SavedAnswers,
): Promise<Date> {
  const now = nowOf(deps);
  const attempt = await loadAttempt(deps, quiz, attemptId);
  if (attempt.submittedAt) {
    throw new AttemptRefusal(
      'already_submitted',
      'This attempt has already been submitted: start a new one.',
    );
  }
  const expiry = attemptExpiry(attempt);
  if (now > expiry.getTime()) {
    throw new AttemptRefusal(
      'expired',
      'This attempt has ended; nothing more is saved.',
      attempt.deadline ?? expiry,
    );
  }
  const drawn = new Set(attempt.layout.map((item) => item.q));
  const answers = Object.fromEntries(
    Object.entries(saved.answers).filter(([id, value]) => drawn.has(id) && value.length <= VALUE_MAX),
  );
  const at = new Date(now);
  const kept = await deps.repos.attempts.saveAnswers(
    attempt.id,
    {
      name: saved.name.slice(0, RESPONDENT_LIMITS.nameMax),
      email: attempt.email ?? saved.email.slice(0, RESPONDENT_LIMITS.emailMax),
      answers,
    },
    at,
  );
  if (!kept) {
    throw new AttemptRefusal(
      'already_submitted',
      'This attempt has already been submitted: start a new one.',
    );
  }
  return at;
}

/** The submission the saved values make, for the quiz's questions that have one (as the form's reader does). */
export function savedSubmission(quiz: QuizWithQuestions, saved: SavedAnswers): SubmitResponseInput {
  return {
    respondent: { name: saved.name, email: saved.email },
    answers: quiz.questions.flatMap((question) => {
      const value = saved.answers[question.id];
      if (value === undefined) return [];
      return [{ question_id: question.id, ...storedDefinition(question.type).formAnswer(value) }];
    }),
  };
}

export type TimeUpOutcome = 'submitted' | 'taken' | 'dropped';

/**
 * Submits one timed attempt's saved answers after its time ran out: stored as a time-up (blanks
 * score 0). 'taken' when another instance or the page got there first (the claim is one
 * conditional update); 'dropped' when it cannot be stored (the quiz closed by hand or deleted),
 * and the saved answers are forgotten so the sweep does not come back to it.
 */
export async function submitAtTimeUp(deps: DomainDeps, attemptId: string): Promise<TimeUpOutcome> {
  for (let round = 0; round < 2; round += 1) {
    const attempt = await deps.repos.attempts.byId(attemptId);
    if (!attempt || attempt.submittedAt || !attempt.savedAnswers) return 'taken';
    const row = await deps.repos.quizzes.byId(attempt.quizId);
    const quiz = row ? await deps.repos.quizzes.bySlug(row.slug) : null;
    if (!quiz || quiz.status !== 'published') break;
    try {
      await recordResponse(deps, quiz, savedSubmission(quiz, attempt.savedAnswers), attempt.id, {
        atTimeUp: true,
      });
      return 'submitted';
    } catch (error) {
      if (!isDomainError(error)) throw error;
      if (error instanceof AttemptRefusal && error.reason === 'already_submitted') return 'taken';
      // Edited meanwhile: the attempt now holds the questions still there; submit those.
      if (error instanceof AttemptRefusal && error.reason === 'quiz_changed') continue;
      break;
    }
  }
  await deps.repos.attempts.clearSaved(attemptId);
  return 'dropped';
}

export interface TimeUpCounts {
  submitted: number;
  dropped: number;
  /** Untimed attempts whose saved answers were forgotten, unsubmitted, at their expiry. */
  forgotten: number;
}

const BATCH = 100;

/** One round of the sweep: every timed attempt past its deadline and grace, then untimed expiries. */
export async function sweepTimeUps(deps: DomainDeps, now = new Date(nowOf(deps))): Promise<TimeUpCounts> {
  const counts: TimeUpCounts = { submitted: 0, dropped: 0, forgotten: 0 };
  const before = new Date(now.getTime() - GRACE_SECONDS * 1000);
  for (;;) {
    const due = await deps.repos.attempts.dueForTimeUp(before, BATCH);
    let moved = 0;
    for (const id of due) {
      const outcome = await submitAtTimeUp(deps, id);
      if (outcome !== 'taken') {
        counts[outcome] += 1;
        moved += 1;
      }
    }
    if (due.length < BATCH || moved === 0) break;
  }
  counts.forgotten = await deps.repos.attempts.clearSavedUntimed(
    new Date(now.getTime() - UNTIMED_ATTEMPT_HOURS * 3_600_000),
  );
  return counts;
}

export interface TimeUpSchedule {
  stop(): void;
}

type SweepLogger = { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };

/** The longest wait between an attempt's deadline plus grace and the server's submission of it. */
export const TIME_UP_SWEEP_MS = 10_000;

/**
 * Runs sweepTimeUps every `everyMs`, off the request path, on every instance: the claim keeps
 * each attempt to one response whichever instance or page gets there first.
 */
export function scheduleTimeUps(
  deps: DomainDeps,
  logger: SweepLogger,
  { everyMs = TIME_UP_SWEEP_MS }: { everyMs?: number } = {},
): TimeUpSchedule {
  let running = false;
  const run = async () => {
    if (running) return;
    running = true;
    try {
      const counts = await sweepTimeUps(deps);
      if (counts.submitted + counts.dropped + counts.forgotten > 0) {
        logger.info({ timeUps: counts }, 'saved answers submitted at time-up or forgotten at expiry');
      }
    } catch (error) {
      logger.warn({ err: error }, 'submitting saved answers at time-up failed; the next round tries again');
    } finally {
      running = false;
    }
  };
  const every = setInterval(() => void run(), everyMs).unref();
  return {
    stop() {
      clearInterval(every);
    },
  };
}
