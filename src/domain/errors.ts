/**
 * The closed set of domain error codes. Transport layers map each code exactly once:
 * MCP tools to `isError` text, HTTP routes to problem+json, the dashboard to form errors.
 * Anything thrown that is not a DomainError is an internal error: clients get a generic
 * message and the details go to the log only.
 */
export const DOMAIN_ERROR_CODES = [
  'invalid_input',
  'quiz_not_found',
  'ambiguous_reference',
  'confirmation_required',
  'invalid_state',
  'key_limit_reached',
  'key_not_found',
  'user_not_found',
  'user_exists',
  'invalid_credentials',
  'not_accepting_responses',
  'response_not_found',
  'answer_not_found',
  'attempt_refused',
  'webhook_not_found',
  'webhook_limit_reached',
  /** The credential lacks a scope this change needs (domain/quizzes/write-only.ts). */
  'scope_required',
] as const;

export type DomainErrorCode = (typeof DOMAIN_ERROR_CODES)[number];

/**
 * What is wrong with a field, for a door that words it in its own terms: the public form in the
 * quiz's language (its catalogues), the editor with its own labels. `message` words it in English
 * for the others (the tools, the API); no door reads the message to find out what went wrong.
 */
export const FIELD_ISSUE_CODES = [
  /** Absent, or empty once trimmed. */
  'missing',
  /** `max`: the most characters it takes. */
  'too_long',
  /** `max`: the most items a list takes. */
  'too_many',
  /** `min`: the fewest items a list takes; `got`: how many it has. */
  'too_few',
  'not_a_number',
  'not_whole',
  /** `min`: the smallest value it takes. */
  'too_small',
  /** `max`: the largest value it takes. */
  'too_large',
  /** `max`: the quiz's number of questions, which a draw per attempt may not exceed. */
  'more_than_questions',
  /** A value outside the listed ones (`values`: them, comma-separated). */
  'not_one_of',
  /** Not a date and time with an offset, or no real one. */
  'not_a_time',
  /** `setting`: the other setting it needs on (its API name). */
  'needs_setting',
  /** `after`: the field it must come after (its API name). */
  'not_after',
  /** A closing time already passed while reopening. */
  'passed',
  /** A published quiz keeps at least one question. */
  'needs_questions',
  /** A field the schema does not know. */
  'unknown_field',
  /** `type`: the question's type, which takes no such field. */
  'not_for_type',
  /** Written in a form this field does not take (an email address, options as strings). */
  'invalid',
  /** `email`: the address the attempt started with. */
  'not_the_attempt_email',
  /** `line`: the 1-based place of the entry of a list this one repeats. */
  'repeated',
  /** `other`: the field (its API name) that cannot be given with this one. */
  'not_with',
  /** `blank`: the number of a blank marked in the text ([[n]]) that has no entry. */
  'blank_without_entry',
  /** `blank`: the number of a blank entry the text has no marker for. */
  'blank_without_marker',
] as const;

export type FieldIssueCode = (typeof FIELD_ISSUE_CODES)[number];

export interface FieldIssue {
  /** Path in the caller's terms, e.g. `questions[2].options`. */
  field: string;
  message: string;
  code?: FieldIssueCode;
  /** The figures or names the code's wording needs (see each code above). */
  params?: Readonly<Record<string, string | number>>;
}

export class DomainError extends Error {
  override readonly name = 'DomainError';

  constructor(
    readonly code: DomainErrorCode,
    message: string,
    readonly issues: FieldIssue[] = [],
    /**
     * A sentence added for a caller allowed to read the owner's quizzes (the closest titles to
     * a reference that matched none); the message alone for any other, so titles never reach a
     * credential that may only write.
     */
    readonly forReaders?: string,
  ) {
    super(message);
  }
}

/**
 * A change that waits for the caller's say-so. The domain states what is at stake and which
 * argument confirms it; each door says how to send it (the tools name themselves, the editor
 * points at its tick box), so the domain's words name no door.
 */
export class ConfirmationRequired extends DomainError {
  constructor(
    /** What is at stake and that nothing changed, in whole sentences. */
    readonly situation: string,
    readonly confirm: { argument: string; lead: string; after?: string },
  ) {
    super(
      'confirmation_required',
      `${situation} ${confirm.lead}, send it again with ${confirm.argument}: true${confirm.after ?? ''}.`,
    );
  }
}

export function isDomainError(error: unknown): error is DomainError {
  return error instanceof DomainError;
}

export function invalidInput(issues: FieldIssue[], summary = 'Some arguments are not valid'): DomainError {
  const lines = issues.map((issue) => `- ${issue.field}: ${issue.message}`);
  return new DomainError('invalid_input', `${summary}:\n${lines.join('\n')}`, issues);
}
