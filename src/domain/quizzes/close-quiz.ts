import type { QuizChange } from '../../db/repositories';
import { readTime, zoneForCall } from '../account-time-zone';
import { GRACE_SECONDS, isOpen } from '../attempts/taking-rules';
import { nowOf, type DomainDeps } from '../deps';
import { DomainError, invalidInput } from '../errors';
import { zonedTime } from '../time-zone';
import { emitScheduledClose } from '../webhooks/emit';
import { loadOwnedQuiz } from '../owned/load-owned-quiz';
import { quizNotFound } from '../owned/resolve-quiz';

export interface CloseQuizInput {
  ref: string;
  /** When to close; now when absent. Without an offset it is read in `timezone`. */
  at?: string | undefined;
  /** IANA zone; the account's when absent. */
  timezone?: string | undefined;
}

export interface ReopenQuizInput {
  ref: string;
  /** When to close again; never when absent. */
  until?: string | undefined;
  timezone?: string | undefined;
}

/** A settings-only change: no question changes, so no published-edit confirmation. */
async function applySettings(deps: DomainDeps, ownerId: string, id: string, ref: string, change: QuizChange) {
  const quiz = await deps.repos.quizzes.update(ownerId, id, change, () => undefined);
  if (!quiz) throw quizNotFound(ref);
  return quiz;
}

/**
 * Closes a published quiz now, or sets the time it closes. Closing sets its closing time (now, or
 * the time given), so attempts already started finish within their own time limit; the answer
 * says how many are under way. Closing now sends quiz.closed at once, under the same event id the
 * job that notices closing times would use, so it is sent once.
 */
export async function closeQuiz(deps: DomainDeps, ownerId: string, input: CloseQuizInput) {
  const zone = await zoneForCall(deps.repos, ownerId, input.timezone);
  const quiz = await loadOwnedQuiz(deps, ownerId, input.ref);
  const now = nowOf(deps);
  const closeAt = input.at === undefined ? new Date(now) : readTime(input.at, zone, 'at');
  const scheduled = input.at !== undefined && closeAt.getTime() > now;
  if (input.at !== undefined && !scheduled) {
    throw invalidInput([
      { field: 'at', message: `${closeAt.toISOString()} has already passed: leave at out to close now` },
    ]);
  }
  if (quiz.status !== 'published' && !scheduled) {
    throw new DomainError(
      'invalid_state',
      'This quiz is a draft: it takes no responses, so there is nothing to close. Publish it first, or give at to set when it closes.',
    );
  }
  if (quiz.opensAt && quiz.opensAt.getTime() >= closeAt.getTime()) {
    throw invalidInput([
      {
        field: 'at',
        message: `must be after the quiz opens (${zonedTime(quiz.opensAt, zone).local}); change opens_at with update_quiz first`,
      },
    ]);
  }
  const alreadyClosed = !scheduled && !isOpen(quiz, now) && quiz.status === 'published';
  const updated = alreadyClosed
    ? quiz
    : await applySettings(deps, ownerId, quiz.id, input.ref, { settings: { closesAt: closeAt } });
  if (!scheduled && !alreadyClosed) await emitScheduledClose(deps.repos, updated, closeAt);
  const inProgress = await deps.repos.attempts.inProgressCount(quiz.id, new Date(now - GRACE_SECONDS * 1000));
  const closesAt = updated.closesAt ?? closeAt;
  return {
    quiz_id: quiz.id,
    status: quiz.status as 'draft' | 'published',
    is_open: isOpen(updated, now),
    closes_at: zonedTime(closesAt, zone),
    already_closed: alreadyClosed,
    in_progress_attempts: inProgress,
    message: scheduled
      ? `The quiz closes at ${zonedTime(closeAt, zone).local} (${zone}).`
      : alreadyClosed
        ? 'The quiz was already closed; nothing was changed.'
        : `Closed. ${inProgress} attempt${inProgress === 1 ? ' is' : 's are'} still under way and may finish within ${inProgress === 1 ? 'its' : 'their'} time limit.`,
  };
}

/** Takes responses again from now: open by hand, no closing time or the one given, no opening time ahead. */
export async function reopenQuiz(deps: DomainDeps, ownerId: string, input: ReopenQuizInput) {
  const zone = await zoneForCall(deps.repos, ownerId, input.timezone);
  const quiz = await loadOwnedQuiz(deps, ownerId, input.ref);
  const now = nowOf(deps);
  const until = input.until === undefined ? null : readTime(input.until, zone, 'until');
  if (until && until.getTime() <= now) {
    throw invalidInput([
      {
        field: 'until',
        message: `${until.toISOString()} has already passed: give a time in the future, or leave it out`,
      },
    ]);
  }
  if (quiz.status !== 'published') {
    throw new DomainError(
      'invalid_state',
      'This quiz is a draft: publish it (publish_quiz) to take responses; there is nothing to reopen.',
    );
  }
  const updated = await applySettings(deps, ownerId, quiz.id, input.ref, {
    settings: {
      acceptingResponses: true,
      closesAt: until,
      ...(quiz.opensAt && quiz.opensAt.getTime() > now ? { opensAt: null } : {}),
    },
  });
  return {
    quiz_id: quiz.id,
    status: 'published' as const,
    is_open: isOpen(updated, now),
    closes_at: until ? zonedTime(until, zone) : null,
    message: until ? `Open until ${zonedTime(until, zone).local} (${zone}).` : 'Open, with no closing time.',
  };
}
