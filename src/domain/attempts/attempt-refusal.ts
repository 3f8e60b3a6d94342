import { DomainError } from '../errors';

/**
 * Why an attempt cannot start or a submission through one cannot be stored. Each surface
 * says it in its own words (the pages in the quiz's language, the JSON route in English);
 * `at` is the moment concerned (when the quiz opens or closed, when the time ran out).
 */
export type AttemptRefusalReason =
  | 'not_yet_open'
  | 'closed'
  | 'token_required'
  | 'token_invalid'
  | 'expired'
  | 'already_submitted'
  | 'limit_reached'
  | 'quiz_changed';

export class AttemptRefusal extends DomainError {
  constructor(
    readonly reason: AttemptRefusalReason,
    message: string,
    readonly at: Date | null = null,
    /** The email address concerned (an attempt limit reached). */
    readonly email: string | null = null,
  ) {
    super('attempt_refused', message);
  }
}

export const isAttemptRefusal = (error: unknown): error is AttemptRefusal => error instanceof AttemptRefusal;
